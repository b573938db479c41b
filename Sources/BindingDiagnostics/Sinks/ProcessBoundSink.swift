/// A sink whose threads, queues or open files belong to its process: a forked child makes a new
/// one like it instead of using the parent's copy, and the end of the process ends its threads.
protocol ProcessBoundSink: DiagnosticsSink {
  /// A new sink with the same settings, for the forked child.
  func renewedAfterFork() -> any DiagnosticsSink

  /// Writes what is queued, then `runEnd` (with the records this sink dropped as its
  /// `run_dropped`) after every other record, and ends the sink's threads, as the process ends
  /// (`exit`, a stop signal); records received afterwards are dropped and counted.
  /// - Parameters:
  ///   - seconds: How long to wait for the threads.
  ///   - runEnd: The run's `run-end` record, or `nil` when the run writes none (it never
  ///     misused, or it ended already).
  func finishAtProcessEnd(within seconds: Double, runEnd: MisuseEvent?)
}

extension DiagnosticsSink {
  /// Ends the sink's threads if it has any (``ProcessBoundSink``), else hands it `runEnd` and
  /// flushes it.
  /// - Parameters:
  ///   - seconds: How long to wait for the threads.
  ///   - runEnd: The run's `run-end` record, if it writes one.
  func finishOrFlushAtProcessEnd(within seconds: Double, runEnd: MisuseEvent? = nil) {
    if let bound = self as? any ProcessBoundSink {
      bound.finishAtProcessEnd(within: seconds, runEnd: runEnd)
    } else {
      if let runEnd, acceptsEvents { receive(runEnd) }
      flush()
    }
  }
}
