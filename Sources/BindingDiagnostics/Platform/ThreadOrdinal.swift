#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small number per thread, given out in the order threads first ask (0, 1, 2, …) and kept
/// in thread-specific data (`pthread_getspecific`): how a sink spreads threads over its queues
/// so that two threads never share one unless there are more threads than queues.
enum ThreadOrdinal {
  private static let key: pthread_key_t? = {
    var key = pthread_key_t()
    return pthread_key_create(&key, nil) == 0 ? key : nil
  }()
  private static let next = Counter()

  /// The calling thread's number; 0 for every thread when thread-specific data is unavailable.
  static func current() -> Int {
    guard let key else { return 0 }
    if let stored = pthread_getspecific(key) { return Int(bitPattern: stored) &- 1 }
    let ordinal = next.increment() &- 1
    _ = pthread_setspecific(key, UnsafeRawPointer(bitPattern: ordinal &+ 1))
    return ordinal
  }
}
