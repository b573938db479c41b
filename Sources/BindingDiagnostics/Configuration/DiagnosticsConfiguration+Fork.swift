extension DiagnosticsConfiguration {
  /// The same configuration for a forked child: sinks that own threads, queues or files get new
  /// ones of their own (``ProcessBoundSink``); the others are shared as they are.
  func renewedAfterFork() -> DiagnosticsConfiguration {
    var renewed = self
    renewed.sink = Self.renewedAfterFork(sink)
    return renewed
  }

  /// `sink`, or a new one like it when it cannot be used across a fork.
  static func renewedAfterFork(_ sink: any DiagnosticsSink) -> any DiagnosticsSink {
    (sink as? any ProcessBoundSink)?.renewedAfterFork() ?? sink
  }
}
