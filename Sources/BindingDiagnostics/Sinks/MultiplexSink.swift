/// Sends every event to several sinks, in order.
///
/// Each event reaches a given destination once (``DiagnosticsSink/destination``): of sinks with
/// the same destination (two identical standard-error sinks) only the first receives events, and
/// a sink whose fallback prints where another sink of the fan-out already prints
/// (``DiagnosticsSink/fallbackDestination``: ``JournaldSink`` without a journal, beside
/// ``StandardErrorSink``) is told not to print there again.
public struct MultiplexSink: DiagnosticsSink {
  /// The sinks events fan out to.
  public let sinks: [any DiagnosticsSink]
  private let routes: [Route]

  /// One sink of the fan-out that receives events, and whether its fallback prints them.
  private struct Route: Sendable {
    let sink: any DiagnosticsSink
    let deliverFallback: Bool
  }

  /// A fan-out over `sinks`.
  /// - Parameter sinks: The sinks, each receiving every event.
  public init(_ sinks: [any DiagnosticsSink]) {
    self.sinks = sinks
    var printed = Set(sinks.compactMap(\.destination))
    var direct = Set<SinkDestination>()
    var routes: [Route] = []
    for sink in sinks {
      if let destination = sink.destination {
        guard direct.insert(destination).inserted else { continue }
        routes.append(Route(sink: sink, deliverFallback: true))
      } else {
        let covered = sink.fallbackDestination.map { !printed.insert($0).inserted } ?? false
        routes.append(Route(sink: sink, deliverFallback: !covered))
      }
    }
    self.routes = routes
  }

  /// Hands the event to each sink that accepts events.
  /// - Parameter event: The event.
  public func receive(_ event: MisuseEvent) {
    for route in routes where route.sink.acceptsEvents {
      route.sink.receive(event, deliveringFallback: route.deliverFallback)
    }
  }

  /// Flushes each sink.
  public func flush() {
    for sink in sinks { sink.flush() }
  }

  /// Whether any of the sinks accepts events.
  public var acceptsEvents: Bool { sinks.contains { $0.acceptsEvents } }

  /// A fan-out over each sink's ``DiagnosticsSink/renewedAfterFork()``.
  /// - Returns: The child's fan-out.
  public func renewedAfterFork() -> any DiagnosticsSink {
    MultiplexSink(sinks.map { $0.renewedAfterFork() })
  }

  /// Ends every sink, each writing `runEnd` with its own `run_dropped`; a fallback another
  /// sink of the fan-out already prints for gets no `run-end` of its own.
  /// - Parameters:
  ///   - seconds: How long each sink may take.
  ///   - runEnd: The run's `run-end` record, if it writes one.
  ///   - deliveringFallback: Ignored: the fan-out decides for each of its sinks.
  public func finishAtProcessEnd(
    within seconds: Double, runEnd: MisuseEvent?, deliveringFallback: Bool
  ) {
    for route in routes {
      route.sink.finishAtProcessEnd(
        within: seconds, runEnd: runEnd, deliveringFallback: route.deliverFallback)
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
