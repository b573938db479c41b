#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a process made by `fork()` without `exec` must not share with its parent.
///
/// The child has only the thread that forked: the parent's writer and flushing threads are gone,
/// and what they held (queues, locks, the flush pipe) is a copy the child must not use. So the
/// `pthread_atfork` child handler, which runs before `fork()` returns in the child, only does
/// what is safe there: it counts the fork (``generation``) and detaches the inherited flush
/// machinery (``ProcessFlush/detachAfterFork()``), so that a stop signal sent to the child ends
/// the child, never the parent. The child's first misuse then makes a pipeline of its own
/// (``DiagnosticsSystem``): its own run id, `seq` from 1, its own sinks and flush thread.
enum ProcessFork {
  /// Forks between the process that made the process-wide pipeline and this one: 0 there,
  /// 1 in its child, and so on. Written only by the child handler, when the forking thread is
  /// the child's only thread; read by the threads the child starts afterwards.
  nonisolated(unsafe) static var generation = 0

  private static let registered: Bool = pthread_atfork(nil, nil, forkChildHandler) == 0

  /// Registers the child handler (once per process; the registration is inherited by children).
  static func register() {
    _ = registered
  }
}

/// Runs in the child of every `fork()`, before it returns there.
private func forkChildHandler() {
  ProcessFork.generation &+= 1
  ProcessFlush.detachAfterFork()
}
