/// Where misuse events go: standard error, a JSON Lines file, journald, or your own.
///
/// A sink must never throw into the app, crash it or block it for long: when its destination
/// fails it falls back, says so once, and counts what it could not deliver.
public protocol DiagnosticsSink: Sendable {
  /// Delivers one event. Called on the thread that misused the binding.
  /// - Parameter event: The event, with every contract field filled.
  func receive(_ event: MisuseEvent)

  /// Returns once every event received before the call is delivered as far as the sink can.
  func flush()

  /// Whether events sent here reach anyone; `false` lets the pipeline skip building them.
  var acceptsEvents: Bool { get }
}

extension DiagnosticsSink {
  /// Sinks accept events unless they say otherwise.
  public var acceptsEvents: Bool { true }

  /// Nothing is buffered unless the sink says otherwise.
  public func flush() {}
}
