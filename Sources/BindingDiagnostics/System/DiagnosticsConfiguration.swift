/// Everything a ``Diagnostics`` pipeline needs: the sink, privacy, rate limit, level and policy.
public struct DiagnosticsConfiguration: Sendable {
  /// Where events go.
  public var sink: any DiagnosticsSink
  /// How values appear; `.private` by default.
  public var privacy: ValuePrivacy
  /// The rate limit per kind and call site, or `nil` for none.
  public var rateLimit: RateLimit?
  /// Reports below this level are not written.
  public var minimumLevel: MisuseLevel
  /// What happens after a report.
  public var policy: MisusePolicy

  /// A configuration; every argument but the sink has the documented default.
  /// - Parameters:
  ///   - sink: Where events go; standard error by default.
  ///   - privacy: `.private` by default.
  ///   - rateLimit: `.default` (10 per second per site) by default; `nil` turns it off.
  ///   - minimumLevel: `.trace` (everything) by default.
  ///   - policy: `.report` by default.
  public init(
    sink: any DiagnosticsSink = StandardErrorSink(), privacy: ValuePrivacy = .private,
    rateLimit: RateLimit? = .default, minimumLevel: MisuseLevel = .trace,
    policy: MisusePolicy = .report
  ) {
    self.sink = sink
    self.privacy = privacy
    self.rateLimit = rateLimit
    self.minimumLevel = minimumLevel
    self.policy = policy
  }
}
