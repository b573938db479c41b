#if canImport(os)
  import os
#else
  import Synchronization
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every sink's record writes (one `write(2)` of whole records), as the very end of the process
/// sees them. When the process goes (`exit` returns to the C library, or a stop signal is raised
/// again) while a thread is inside `write(2)`, the kernel cuts that write short at a page:
/// a record torn in the middle. So the last step of the exit hook and of a stop signal
/// (``close(waitingAtMost:)``) shuts the gate and waits, for a bounded time, until no write is
/// under way; a write that would start afterwards is refused (the caller counts it as dropped).
///
/// Lock-free where it matters: a writer increments a count and then reads the closed flag, the
/// closer sets the flag and then reads the count, both sequentially consistent (Dekker's
/// pattern), so either the writer sees the gate closed or the closer sees the writer. Nothing
/// here allocates, and the closer only loads, stores and sleeps (`nanosleep(2)`): it may run in
/// a signal handler that interrupted `malloc` (an app's SIGTERM handler calling `exit`).
enum WriteGate {
  #if canImport(os)
    /// Apple platforms (`Atomic` needs macOS 15 / iOS 18): one unfair lock for both.
    private static let state = OSAllocatedUnfairLock(initialState: (underWay: 0, closed: false))
  #else
    private static let underWay = Atomic<Int>(0)
    private static let closed = Atomic<Bool>(false)
  #endif

  /// Makes the gate's storage now, never for the first time in a signal handler, the exit
  /// hook or a forked child (a global's first use takes the runtime's `swift_once` lock and may
  /// allocate).
  static func prepare() {
    #if canImport(os)
      _ = state
    #else
      _ = underWay.load(ordering: .relaxed)
      _ = closed.load(ordering: .relaxed)
    #endif
  }

  /// Before a write: counts it as under way, unless the gate is closed.
  /// - Returns: Whether the write may go ahead; then ``leave()`` must follow it.
  static func enter() -> Bool {
    #if canImport(os)
      return state.withLock { state in
        guard !state.closed else { return false }
        state.underWay += 1
        return true
      }
    #else
      underWay.wrappingAdd(1, ordering: .sequentiallyConsistent)
      guard !closed.load(ordering: .sequentiallyConsistent) else {
        underWay.wrappingSubtract(1, ordering: .sequentiallyConsistent)
        return false
      }
      return true
    #endif
  }

  /// After a write ``enter()`` let through.
  static func leave() {
    #if canImport(os)
      state.withLock { $0.underWay -= 1 }
    #else
      underWay.wrappingSubtract(1, ordering: .sequentiallyConsistent)
    #endif
  }

  /// Whether the gate is closed: the process is going.
  static var isClosed: Bool {
    #if canImport(os)
      state.withLock { $0.closed }
    #else
      closed.load(ordering: .sequentiallyConsistent)
    #endif
  }

  /// Closes the gate and waits until no write is under way, at most `milliseconds`
  /// (async-signal-safe: loads, a store and `nanosleep(2)`; nothing allocated, no lock taken).
  /// - Parameter milliseconds: The longest wait (a write stuck on a hung filesystem).
  /// - Returns: Whether no write was under way when it returned.
  @discardableResult
  static func close(waitingAtMost milliseconds: Int) -> Bool {
    #if canImport(os)
      state.withLock { $0.closed = true }
    #else
      closed.store(true, ordering: .sequentiallyConsistent)
    #endif
    var waited = 0
    while writesUnderWay > 0 {
      guard waited < milliseconds else { return false }
      var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
      _ = nanosleep(&pause, nil)
      waited += 1
    }
    return true
  }

  /// Opens the gate again in a forked child (its only thread writes nothing yet).
  static func reopenAfterFork() {
    #if canImport(os)
      state.withLock { $0 = (0, false) }
    #else
      underWay.store(0, ordering: .sequentiallyConsistent)
      closed.store(false, ordering: .sequentiallyConsistent)
    #endif
  }

  private static var writesUnderWay: Int {
    #if canImport(os)
      state.withLock { $0.underWay }
    #else
      underWay.load(ordering: .sequentiallyConsistent)
    #endif
  }
}
