/// A sink whose threads, queues or open files are its process's own: a forked child makes a
/// new one like it instead of using the parent's copy.
protocol RenewableAfterFork: DiagnosticsSink {
  /// A new sink with the same settings, for the forked child.
  func renewedAfterFork() -> any DiagnosticsSink
}
