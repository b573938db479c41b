/// Sends every event to several sinks, in order.
public struct MultiplexSink: DiagnosticsSink {
  /// The sinks events fan out to.
  public let sinks: [any DiagnosticsSink]

  /// A fan-out over `sinks`.
  /// - Parameter sinks: The sinks, each receiving every event.
  public init(_ sinks: [any DiagnosticsSink]) {
    self.sinks = sinks
  }

  /// Hands the event to each sink that accepts events.
  /// - Parameter event: The event.
  public func receive(_ event: MisuseEvent) {
    for sink in sinks where sink.acceptsEvents { sink.receive(event) }
  }

  /// Flushes each sink.
  public func flush() {
    for sink in sinks { sink.flush() }
  }

  /// Whether any of the sinks accepts events.
  public var acceptsEvents: Bool { sinks.contains { $0.acceptsEvents } }
}

extension DiagnosticsSink where Self == MultiplexSink {
  /// A fan-out over `sinks`.
  /// - Parameter sinks: The sinks, each receiving every event.
  public static func multiplex(_ sinks: [any DiagnosticsSink]) -> MultiplexSink {
    MultiplexSink(sinks)
  }
}
