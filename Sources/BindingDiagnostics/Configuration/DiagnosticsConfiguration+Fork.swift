extension DiagnosticsConfiguration {
  /// The same configuration for a forked child, with the sink's
  /// ``DiagnosticsSink/renewedAfterFork()``: sinks that own threads, queues or files get new
  /// ones of their own; the others are shared as they are.
  func renewedAfterFork() -> DiagnosticsConfiguration {
    var renewed = self
    renewed.sink = sink.renewedAfterFork()
    return renewed
  }
}
