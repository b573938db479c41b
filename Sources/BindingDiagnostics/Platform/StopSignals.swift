#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The signals by which service managers, terminals and `kill` ask a process to stop:
/// `SIGTERM`, `SIGINT`, `SIGHUP`. The end of the process handles them on a thread of its own;
/// the library's other threads never take them.
enum StopSignals {
  /// The stop signals.
  static let all: [Int32] = [SIGTERM, SIGINT, SIGHUP]

  /// Blocks the stop signals on the calling thread (`pthread_sigmask`): called first by each of
  /// the library's threads, so that a stop signal interrupts an app's thread, never a writer.
  static func blockOnCallingThread() {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in all { sigaddset(&set, signal) }
    pthread_sigmask(SIG_BLOCK, &set, nil)
  }
}
