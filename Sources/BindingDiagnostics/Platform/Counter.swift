#if canImport(os)
  import os
#else
  import Synchronization
#endif

/// A counter many threads increment: an `Atomic` where the Synchronization module's types may be
/// used (Linux), an `OSAllocatedUnfairLock` on Apple platforms, where `Atomic` needs macOS 15 /
/// iOS 18 and the package supports macOS 13 / iOS 16. Noncopyable, like `Atomic`: kept as a `let`
/// of the class that owns it.
package struct Counter: ~Copyable, Sendable {
  #if canImport(os)
    private let lock = OSAllocatedUnfairLock(initialState: 0)
  #else
    private let atomic = Atomic<Int>(0)
  #endif

  /// A counter at 0.
  package init() {}

  /// Adds 1 (wrapping) and returns the new count: each caller gets a different value.
  @discardableResult
  package borrowing func increment() -> Int {
    #if canImport(os)
      lock.withLock { count in
        count &+= 1
        return count
      }
    #else
      atomic.wrappingAdd(1, ordering: .relaxed).newValue
    #endif
  }

  /// Adds `amount` (wrapping).
  /// - Parameter amount: What to add.
  package borrowing func increment(by amount: Int) {
    #if canImport(os)
      lock.withLock { $0 &+= amount }
    #else
      atomic.wrappingAdd(amount, ordering: .relaxed)
    #endif
  }

  /// Subtracts 1 (wrapping).
  package borrowing func decrement() {
    #if canImport(os)
      lock.withLock { $0 &-= 1 }
    #else
      atomic.wrappingSubtract(1, ordering: .relaxed)
    #endif
  }

  /// Sets the count to 0 (a forked child, whose other threads are gone).
  package borrowing func reset() {
    #if canImport(os)
      lock.withLock { $0 = 0 }
    #else
      atomic.store(0, ordering: .relaxed)
    #endif
  }

  /// The count now.
  package var value: Int {
    #if canImport(os)
      lock.withLock { $0 }
    #else
      atomic.load(ordering: .relaxed)
    #endif
  }
}
