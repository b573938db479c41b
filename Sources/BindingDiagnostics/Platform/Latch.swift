#if canImport(os)
  import os
#else
  import Synchronization
#endif

/// A one-way flag: unset until the first ``set()``, set for ever after. Setting it releases what
/// the setter wrote before; seeing it set acquires it (the Synchronization module's `Atomic` with
/// explicit orderings; an `OSAllocatedUnfairLock` on Apple platforms, where `Atomic` needs
/// macOS 15 / iOS 18). Neither side allocates or takes a lock other code holds (Linux), so a
/// signal handler and the exit hook may use it.
///
/// Noncopyable, like `Atomic`: kept as a `let` of the class or static that owns it.
package struct Latch: ~Copyable, Sendable {
  #if canImport(os)
    private let lock = OSAllocatedUnfairLock(initialState: false)
  #else
    private let atomic = Atomic<Bool>(false)
  #endif

  /// An unset latch.
  package init() {}

  /// Sets the latch.
  /// - Returns: Whether this call set it (`true` for exactly one caller).
  @discardableResult
  package borrowing func set() -> Bool {
    #if canImport(os)
      lock.withLock { isSet in
        defer { isSet = true }
        return !isSet
      }
    #else
      !atomic.exchange(true, ordering: .acquiringAndReleasing)
    #endif
  }

  /// Whether the latch is set; what its setter wrote before setting it is visible after `true`.
  package var isSet: Bool {
    #if canImport(os)
      lock.withLock { $0 }
    #else
      atomic.load(ordering: .acquiring)
    #endif
  }

  /// Unsets the latch (a forked child, whose other threads are gone).
  package borrowing func reset() {
    #if canImport(os)
      lock.withLock { $0 = false }
    #else
      atomic.store(false, ordering: .releasing)
    #endif
  }
}
