#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// State guarded by a lock that threads can also wait on: ``Lock`` for state a thread waits to
/// change (a worker waiting for work, a caller waiting for a flush). The state is reached only
/// through closures run under the lock, as with ``Lock``; a wait releases the lock between
/// checks of its predicate, never while a closure holds the state.
///
/// A `pthread_mutex_t` and a `pthread_cond_t` (the condition variable on `CLOCK_MONOTONIC`
/// where the platform allows it), in memory of their own on a cache line of their own, so that
/// neighbouring locks do not slow each other down. ThreadSanitizer sees them.
///
/// `@unchecked Sendable`: `state` is read and written only while the mutex is held.
final class Condition<State>: @unchecked Sendable {
  /// What a wait came to.
  struct Wait {
    /// Whether the predicate held (otherwise the deadline passed).
    let ready: Bool
    /// Whether the caller had to wait at all.
    let waited: Bool
  }

  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>
  private let memory: UnsafeMutableRawPointer
  private var state: State

  /// A condition guarding `initialState`.
  /// - Parameter initialState: The state.
  init(_ initialState: State) {
    state = initialState
    let conditionOffset = (MemoryLayout<pthread_mutex_t>.size + 15) & ~15
    memory = .allocate(
      byteCount: max(128, conditionOffset + MemoryLayout<pthread_cond_t>.size), alignment: 64)
    mutex = memory.bindMemory(to: pthread_mutex_t.self, capacity: 1)
    condition = (memory + conditionOffset).bindMemory(to: pthread_cond_t.self, capacity: 1)
    pthread_mutex_init(mutex, nil)
    #if canImport(Glibc)
      var attributes = pthread_condattr_t()
      pthread_condattr_init(&attributes)
      pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
      pthread_cond_init(condition, &attributes)
      pthread_condattr_destroy(&attributes)
    #else
      pthread_cond_init(condition, nil)
    #endif
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    memory.deallocate()
  }

  /// Runs `body` with the state, under the lock.
  /// - Parameter body: Reads or changes the state; must not take the same lock again.
  /// - Returns: What `body` returns.
  func withLock<R>(_ body: (inout State) -> R) -> R {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return body(&state)
  }

  /// Waits until `ready` holds of the state or `deadline` passes, then runs `body` with the
  /// state, under the lock (`pthread_cond_wait`, `pthread_cond_timedwait`).
  /// - Parameters:
  ///   - ready: Checked under the lock, first at once, then each time the condition is
  ///     signalled.
  ///   - deadline: ``MonotonicClock/nanoseconds()`` after which the wait gives up; `nil`
  ///     waits as long as it takes.
  ///   - waitingForWork: Whether the caller is a library thread waiting for work, counted idle
  ///     while it waits (``LibraryThread/waiting(_:)``), so that a `fork()` need not wait for it.
  ///   - body: Reads or changes the state, told how the wait went.
  /// - Returns: What `body` returns.
  func withLock<R>(
    when ready: (State) -> Bool, before deadline: UInt64? = nil, waitingForWork: Bool = false,
    _ body: (inout State, Wait) -> R
  ) -> R {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    var waited = false
    while !ready(state) {
      waited = true
      if let deadline {
        let now = MonotonicClock.nanoseconds()
        guard now < deadline, wait(nanoseconds: deadline - now) else {
          let outcome = Wait(ready: ready(state), waited: true)
          return body(&state, outcome)
        }
      } else if waitingForWork {
        LibraryThread.waiting { _ = pthread_cond_wait(condition, mutex) }
      } else {
        pthread_cond_wait(condition, mutex)
      }
    }
    return body(&state, Wait(ready: true, waited: waited))
  }

  /// Wakes one waiting thread (`pthread_cond_signal`); call it after changing the state.
  func signal() {
    pthread_cond_signal(condition)
  }

  /// Wakes every waiting thread (`pthread_cond_broadcast`); call it after changing the state.
  func broadcast() {
    pthread_cond_broadcast(condition)
  }

  /// Waits, the mutex held, at most `nanoseconds` for a signal.
  /// - Returns: `false` when the time ran out.
  private func wait(nanoseconds: UInt64) -> Bool {
    var now = timespec()
    #if canImport(Glibc)
      clock_gettime(CLOCK_MONOTONIC, &now)
    #else
      clock_gettime(CLOCK_REALTIME, &now)
    #endif
    let end = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec) + nanoseconds
    var until = timespec(
      tv_sec: .init(end / 1_000_000_000), tv_nsec: .init(end % 1_000_000_000))
    return pthread_cond_timedwait(condition, mutex, &until) != ETIMEDOUT
  }
}
