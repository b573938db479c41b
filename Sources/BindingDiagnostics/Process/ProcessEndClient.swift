/// What the end of the process flushes, as ``ProcessFlush`` sees it: the process-wide pipeline
/// (``Diagnostics``), named here by what the flushing thread asks of it, so that the process
/// layer names nothing of the pipeline above it.
package protocol ProcessEndClient: AnyObject, Sendable {
  /// Seconds the end of the process waits for the sinks.
  var exitDeadline: Double { get }

  /// Milliseconds until the run's next heartbeat is due, for `poll(2)`; -1 for none.
  var millisecondsUntilHeartbeat: Int32 { get }

  /// Writes the run's heartbeat when one is due.
  func writeHeartbeatIfDue()

  /// Writes what is pending and the run's `run-end`, and ends the sinks, within `seconds`.
  /// - Parameter seconds: How long the sinks may take.
  func finishAtProcessEnd(within seconds: Double)
}
