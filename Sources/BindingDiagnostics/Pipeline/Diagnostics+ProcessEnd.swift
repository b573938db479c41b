extension Diagnostics: ProcessEndClient {
  /// The configuration's exit deadline, in seconds.
  package var exitDeadline: Double { configuration.exitDeadline }

  /// The run records' next heartbeat, in milliseconds from now; -1 for none.
  package var millisecondsUntilHeartbeat: Int32 { runRecords.millisecondsUntilHeartbeat }
}
