/// Where misuse events go: standard error, a JSON Lines file, journald, or your own.
///
/// A sink must never throw into the app, crash it or block it for long: when its destination
/// fails it falls back, says so once, and counts what it could not deliver.
///
/// A plain sink implements ``receive(_:)`` and, if it buffers, ``flush()``; every other
/// requirement has a default. The rest is the lifecycle the built-in sinks use, and an app's own
/// sink may use it too (<doc:ImplementingASink>):
/// - ``renewedAfterFork()``: a forked child's pipeline gets a sink of its own;
/// - ``finishAtProcessEnd(within:runEnd:deliveringFallback:)``: at `exit` and on a stop signal,
///   within a deadline, with the run's `run-end` record as the last one;
/// - ``destination``, ``fallbackDestination`` and ``receive(_:deliveringFallback:)``: a fan-out
///   (``MultiplexSink``) prints each line once per place, whichever sink or fallback prints it.
public protocol DiagnosticsSink: Sendable {
  /// Delivers one event. Called on the thread that misused the binding.
  /// - Parameter event: The event, with every contract field filled.
  func receive(_ event: MisuseEvent)

  /// Returns once every event received before the call is delivered as far as the sink can.
  func flush()

  /// Whether events sent here reach anyone; `false` lets the pipeline skip building them.
  var acceptsEvents: Bool { get }

  /// The sink a child made by `fork()` (without `exec`) uses instead of this one: a new sink with
  /// the same settings when this one owns what a child must not share (threads, which the child
  /// does not have; queues and buffers, whose records are the parent's; locks another thread
  /// may have held at the fork). By default the sink itself, shared as it is.
  ///
  /// Called in the child, on its first misuse, before any event reaches the child's sink.
  /// - Returns: The child's sink.
  func renewedAfterFork() -> any DiagnosticsSink

  /// Ends the sink as the process ends (`exit`, or `SIGTERM`, `SIGINT`, `SIGHUP`): delivers what
  /// is buffered, then `runEnd` as the last record, and ends the sink's threads, within
  /// `seconds`. Records received afterwards may be dropped (and counted). Called once, on a
  /// thread of the library's, never in a signal handler. By default: hands `runEnd` to
  /// ``receive(_:deliveringFallback:)`` when the sink ``acceptsEvents``, then ``flush()``.
  /// - Parameters:
  ///   - seconds: How long the sink may take; the process ends soon after, finished or not.
  ///   - runEnd: The run's `run-end` record, or `nil` when the run writes none (it made no
  ///     record, or it ended already).
  ///   - deliveringFallback: `false` when another sink of a fan-out already prints at this
  ///     sink's ``fallbackDestination``: a `run-end` that would go to the fallback is not
  ///     written there. Sinks without a fallback ignore it.
  func finishAtProcessEnd(within seconds: Double, runEnd: MisuseEvent?, deliveringFallback: Bool)

  /// Where the sink itself writes lines another sink could write too (a descriptor, in one wire
  /// form), or `nil` (the default). A fan-out keeps the first of sinks with the same
  /// destination, and does not let a fallback print there again.
  var destination: SinkDestination? { get }

  /// Where the sink's fallback writes, when the sink has one and may use it, or `nil` (the
  /// default). A fan-out that already prints there tells the sink not to
  /// (``receive(_:deliveringFallback:)``).
  var fallbackDestination: SinkDestination? { get }

  /// Delivers one event, as ``receive(_:)`` does, except that when the sink's own destination
  /// fails, the event goes to its fallback only if `deliveringFallback` (otherwise it is counted
  /// as fallen back: another sink of the fan-out prints it there already). By default
  /// ``receive(_:)``.
  /// - Parameters:
  ///   - event: The event.
  ///   - deliveringFallback: Whether the fallback, if used, should print the event.
  func receive(_ event: MisuseEvent, deliveringFallback: Bool)
}

extension DiagnosticsSink {
  /// Sinks accept events unless they say otherwise.
  public var acceptsEvents: Bool { true }

  /// Nothing is buffered unless the sink says otherwise.
  public func flush() {}

  /// The sink itself: it holds nothing a forked child must not share.
  /// - Returns: `self`.
  public func renewedAfterFork() -> any DiagnosticsSink { self }

  /// Hands `runEnd` to the sink (when it ``acceptsEvents``), then flushes it.
  /// - Parameters:
  ///   - seconds: Unused: ``flush()`` bounds its own wait.
  ///   - runEnd: The run's `run-end` record, if it writes one.
  ///   - deliveringFallback: Passed to ``receive(_:deliveringFallback:)``.
  public func finishAtProcessEnd(
    within seconds: Double, runEnd: MisuseEvent?, deliveringFallback: Bool
  ) {
    if let runEnd, acceptsEvents { receive(runEnd, deliveringFallback: deliveringFallback) }
    flush()
  }

  /// No destination another sink could share.
  public var destination: SinkDestination? { nil }

  /// No fallback.
  public var fallbackDestination: SinkDestination? { nil }

  /// ``receive(_:)``: without a fallback there is nothing to skip.
  /// - Parameters:
  ///   - event: The event.
  ///   - deliveringFallback: Ignored.
  public func receive(_ event: MisuseEvent, deliveringFallback: Bool) {
    receive(event)
  }
}
