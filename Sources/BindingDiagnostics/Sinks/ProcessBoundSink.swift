/// A sink whose threads, queues or open files belong to its process: a forked child makes a new
/// one like it instead of using the parent's copy, and the end of the process ends its threads.
protocol ProcessBoundSink: DiagnosticsSink {
  /// A new sink with the same settings, for the forked child.
  func renewedAfterFork() -> any DiagnosticsSink

  /// Writes what is queued and ends the sink's threads, as the process ends (`exit`, a stop
  /// signal); records received afterwards are dropped and counted.
  /// - Parameter seconds: How long to wait for the threads.
  func finishAtProcessEnd(within seconds: Double)
}

extension DiagnosticsSink {
  /// Ends the sink's threads if it has any (``ProcessBoundSink``), else flushes it.
  /// - Parameter seconds: How long to wait for the threads.
  func finishOrFlushAtProcessEnd(within seconds: Double) {
    if let bound = self as? any ProcessBoundSink {
      bound.finishAtProcessEnd(within: seconds)
    } else {
      flush()
    }
  }
}
