/// Everything a ``Diagnostics`` pipeline needs: the sink, privacy, rate limit, level, policy and
/// runtime warnings.
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
  /// Whether a misuse also raises Xcode's runtime issue (debug builds on Apple platforms only;
  /// see `RuntimeWarning`); `true` by default.
  public var runtimeWarnings: Bool
  /// Seconds between the process pipeline's `run-heartbeat` records, from its first misuse
  /// record on; 0 writes none. 60 by default.
  public var heartbeatInterval: Double
  /// Seconds the end of the process (`exit`, a stop signal) waits for the sinks to write what
  /// they hold and the run's `run-end`; the journald sink gives journald half of it. 1 by
  /// default.
  public var exitDeadline: Double
  /// Whether a write from another thread through a binding made on the main thread reports
  /// ``MisuseKind/setOffMainThread``; `true` by default.
  public var checksMainThread = true

  /// The sink used when none is named: the unified log (`OSLogSink`) on Apple platforms,
  /// standard error elsewhere.
  public static var defaultSink: any DiagnosticsSink {
    #if canImport(os)
      OSLogSink()
    #else
      StandardErrorSink()
    #endif
  }

  /// A configuration; every argument has the documented default.
  /// - Parameters:
  ///   - sink: Where events go; ``defaultSink`` by default.
  ///   - privacy: `.private` by default.
  ///   - rateLimit: `.default` (10 per second per site) by default; `nil` turns it off.
  ///   - minimumLevel: `.trace` (everything) by default.
  ///   - policy: `.automatic` by default.
  ///   - runtimeWarnings: `true` by default; `false` turns Xcode's runtime issues off.
  ///   - heartbeatInterval: 60 seconds by default; 0 turns heartbeats off.
  ///   - exitDeadline: 1 second by default.
  public init(
    sink: any DiagnosticsSink = DiagnosticsConfiguration.defaultSink,
    privacy: ValuePrivacy = .private,
    rateLimit: RateLimit? = .default, minimumLevel: MisuseLevel = .trace,
    policy: MisusePolicy = .automatic, runtimeWarnings: Bool = true,
    heartbeatInterval: Double = 60, exitDeadline: Double = 1
  ) {
    self.sink = sink
    self.privacy = privacy
    self.rateLimit = rateLimit
    self.minimumLevel = minimumLevel
    self.policy = policy
    self.runtimeWarnings = runtimeWarnings
    self.heartbeatInterval = heartbeatInterval
    self.exitDeadline = exitDeadline
  }
}
