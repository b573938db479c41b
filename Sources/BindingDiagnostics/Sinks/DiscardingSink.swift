/// Drops every event; the pipeline skips building events for it (`BINDING_DIAGNOSTICS=none`).
public struct DiscardingSink: DiagnosticsSink {
  /// A sink that drops everything.
  public init() {}

  /// Drops the event.
  /// - Parameter event: Ignored.
  public func receive(_ event: MisuseEvent) {}

  /// Always `false`: nothing is delivered.
  public var acceptsEvents: Bool { false }
}

extension DiagnosticsSink where Self == DiscardingSink {
  /// A sink that drops every event.
  public static var discarding: DiscardingSink { DiscardingSink() }
}
