#if canImport(os)
  import os
#else
  import Synchronization
  #if canImport(Glibc)
    import Glibc
  #endif
#endif

/// State guarded by a lock, usable at the package's deployment targets.
///
/// `Mutex` needs macOS 15 / iOS 18, above the macOS 13 / iOS 16 the package supports, so on
/// Apple platforms the lock is an `OSAllocatedUnfairLock` (macOS 13 / iOS 16); elsewhere it is a
/// `Mutex`. Like `Mutex` it is noncopyable and kept as a `let` of the class or static that owns
/// the state, so the hot paths (rate limiting) reach it at a fixed offset.
package struct Lock<State: Sendable>: ~Copyable, Sendable {
  #if canImport(os)
    private let lock: OSAllocatedUnfairLock<State>
  #else
    private let mutex: Mutex<State>
  #endif

  /// A lock guarding `initialState`.
  /// - Parameter initialState: The state.
  package init(_ initialState: State) {
    #if canImport(os)
      lock = OSAllocatedUnfairLock(uncheckedState: initialState)
    #else
      mutex = Mutex(initialState)
    #endif
  }

  /// Runs `body` with the state, under the lock.
  /// - Parameter body: Reads or changes the state; must not take the same lock again.
  /// - Returns: What `body` returns.
  package borrowing func withLock<R: Sendable>(_ body: (inout sending State) -> sending R) -> R {
    #if canImport(os)
      lock.withLockUnchecked { body(&$0) }
    #else
      // ThreadSanitizer does not see `Mutex`'s futex: tell it the lock's order, keyed by the
      // mutex's address (fixed: the lock is a `let` of its owner and cannot move).
      guard let annotations = ThreadSanitizer.annotations else { return mutex.withLock(body) }
      let address = withUnsafePointer(to: mutex) { UnsafeMutableRawPointer(mutating: $0) }
      return mutex.withLock { state in
        annotations.acquire(address)
        defer { annotations.release(address) }
        return body(&state)
      }
    #endif
  }
}

#if !canImport(os)
  /// ThreadSanitizer's annotations, when the process runs under it (`--sanitize=thread`): the
  /// runtime's `__tsan_acquire` and `__tsan_release`, found once with `dlsym(3)`; `nil`
  /// otherwise, so an ordinary build pays one load and branch per lock.
  enum ThreadSanitizer {
    typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void

    static let annotations: (acquire: Annotation, release: Annotation)? = {
      #if canImport(Glibc)
        let process = dlopen(nil, RTLD_NOW)
        guard let acquire = dlsym(process, "__tsan_acquire"),
          let release = dlsym(process, "__tsan_release")
        else { return nil }
        return (
          unsafeBitCast(acquire, to: Annotation.self), unsafeBitCast(release, to: Annotation.self)
        )
      #else
        return nil
      #endif
    }()
  }
#endif
