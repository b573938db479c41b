public import BindingDiagnostics

/// An in-memory sink that keeps every event it receives, for tests.
///
/// Install it for one test with ``recordingMisuses(configuration:_:)`` or
/// `DiagnosticsSystem.withDiagnostics`, never with the global bootstrap.
public final class RecordingSink: DiagnosticsSink {
  private let storage = Lock<[MisuseEvent]>([])
  private let flushes = Counter()

  /// An empty recording sink.
  public init() {}

  /// Appends the event.
  /// - Parameter event: The event.
  public func receive(_ event: MisuseEvent) {
    storage.withLock { $0.append(event) }
  }

  /// Counts the flush.
  public func flush() {
    _ = flushes.increment()
  }

  /// Every event received, in arrival order.
  public var events: [MisuseEvent] { storage.withLock { $0 } }

  /// How many times ``flush()`` was called.
  public var flushCount: Int { flushes.value }

  /// Forgets every event received so far.
  public func removeAll() {
    storage.withLock { $0.removeAll() }
  }
}

/// Runs `body` with a fresh pipeline that records into a new ``RecordingSink``, flushes it, and
/// returns the recorded events with `body`'s result.
/// - Parameters:
///   - configuration: Privacy, rate limit, level and policy; its sink is replaced by the recorder.
///   - body: The code under test.
/// - Returns: The events recorded (pending rate-limited events included) and `body`'s result.
public func recordingMisuses<R>(
  configuration: DiagnosticsConfiguration = DiagnosticsConfiguration(rateLimit: nil),
  _ body: () throws -> R
) rethrows -> (events: [MisuseEvent], result: R) {
  let sink = RecordingSink()
  var configuration = configuration
  configuration.sink = sink
  let diagnostics = Diagnostics(configuration: configuration)
  let result = try DiagnosticsSystem.withDiagnostics(diagnostics, operation: body)
  diagnostics.flush()
  return (sink.events, result)
}
