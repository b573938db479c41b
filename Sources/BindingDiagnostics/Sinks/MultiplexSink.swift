/// Sends every event to several sinks, in order.
///
/// Each event reaches a given standard-error destination once: a sink that falls back to
/// standard error (``JournaldSink`` without a journal) does not print what another sink of the
/// fan-out already prints there, and two identical standard-error sinks print once.
public struct MultiplexSink: DiagnosticsSink {
  /// The sinks events fan out to.
  public let sinks: [any DiagnosticsSink]
  private let routes: [Route]

  /// How one sink of the fan-out receives events.
  private enum Route: Sendable {
    case plain(any DiagnosticsSink)
    case fallingBack(any FallbackSink, deliverFallback: Bool)
  }

  /// A fan-out over `sinks`.
  /// - Parameter sinks: The sinks, each receiving every event.
  public init(_ sinks: [any DiagnosticsSink]) {
    self.sinks = sinks
    var printed = Set<StandardErrorSink.Destination>()
    for case let sink as StandardErrorSink in sinks { printed.insert(sink.destination) }
    var direct = Set<StandardErrorSink.Destination>()
    var routes: [Route] = []
    for sink in sinks {
      if let sink = sink as? StandardErrorSink {
        if direct.insert(sink.destination).inserted { routes.append(.plain(sink)) }
      } else if let sink = sink as? any FallbackSink {
        let destination = sink.fallbackDestination
        let covered = destination.map { !printed.insert($0).inserted } ?? false
        routes.append(.fallingBack(sink, deliverFallback: !covered))
      } else {
        routes.append(.plain(sink))
      }
    }
    self.routes = routes
  }

  /// Hands the event to each sink that accepts events.
  /// - Parameter event: The event.
  public func receive(_ event: MisuseEvent) {
    for route in routes {
      switch route {
      case .plain(let sink):
        if sink.acceptsEvents { sink.receive(event) }
      case .fallingBack(let sink, let deliverFallback):
        if sink.acceptsEvents { sink.receive(event, deliveringFallback: deliverFallback) }
      }
    }
  }

  /// Flushes each sink.
  public func flush() {
    for sink in sinks { sink.flush() }
  }

  /// Whether any of the sinks accepts events.
  public var acceptsEvents: Bool { sinks.contains { $0.acceptsEvents } }
}

/// A sink that hands events to a fallback sink when its own destination fails, so that a
/// fan-out can keep the fallback from printing what another of its sinks already prints.
protocol FallbackSink: DiagnosticsSink {
  /// The standard-error destination of the fallback, if it is one.
  var fallbackDestination: StandardErrorSink.Destination? { get }

  /// Delivers `event`; when the sink's own destination fails, hands it to the fallback only if
  /// `deliveringFallback` (otherwise counts it as fallen back, already printed elsewhere).
  func receive(_ event: MisuseEvent, deliveringFallback: Bool)

  /// Ends the sink as the process ends (``ProcessBoundSink/finishAtProcessEnd(within:runEnd:)``),
  /// handing `runEnd` to the fallback only if `deliveringFallback`.
  func finishAtProcessEnd(within seconds: Double, runEnd: MisuseEvent?, deliveringFallback: Bool)
}

extension MultiplexSink: ProcessBoundSink {
  func renewedAfterFork() -> any DiagnosticsSink {
    MultiplexSink(sinks.map(DiagnosticsConfiguration.renewedAfterFork))
  }

  /// Ends every sink, each writing `runEnd` with its own `run_dropped`; a fallback another
  /// sink of the fan-out already prints for gets no `run-end` of its own.
  func finishAtProcessEnd(within seconds: Double, runEnd: MisuseEvent?) {
    for route in routes {
      switch route {
      case .plain(let sink):
        sink.finishOrFlushAtProcessEnd(within: seconds, runEnd: runEnd)
      case .fallingBack(let sink, let deliverFallback):
        sink.finishAtProcessEnd(
          within: seconds, runEnd: runEnd, deliveringFallback: deliverFallback)
      }
    }
  }
}

extension DiagnosticsSink where Self == MultiplexSink {
  /// A fan-out over `sinks`.
  /// - Parameter sinks: The sinks, each receiving every event.
  public static func multiplex(_ sinks: [any DiagnosticsSink]) -> MultiplexSink {
    MultiplexSink(sinks)
  }
}
