#if canImport(os)
  import os
#else
  import Synchronization
#endif

/// How many threads are inside a section that another thread waits to see empty before it goes
/// on (the end of the process waiting for lines under way; a `fork()` waiting for the library's
/// threads to be idle).
///
/// Used with a ``Latch`` as a handshake: a thread ``enter()``s, then reads the latch; the waiter
/// sets the latch, then waits for ``isEmpty``. ``enter()`` and ``isEmpty`` are sequentially
/// consistent, as the latch is, so the two cannot both miss each other: either the entering
/// thread sees the latch set (and backs out), or the waiter sees it inside (and waits). A relaxed
/// count allows both to miss on aarch64, where a relaxed increment may still be in its core's
/// store buffer when the later load of the latch runs. ``leave()`` releases, so that the waiter
/// that sees the section empty (acquiring) also sees what was written inside it.
///
/// Noncopyable, like `Atomic`: kept as a `let` of the class or static that owns it.
package struct InFlightCount: ~Copyable, Sendable {
  #if canImport(os)
    private let lock = OSAllocatedUnfairLock(initialState: 0)
  #else
    private let atomic = Atomic<Int>(0)
  #endif

  /// An empty section.
  package init() {}

  /// A thread enters the section: a sequentially consistent increment.
  package borrowing func enter() {
    #if canImport(os)
      lock.withLock { $0 &+= 1 }
    #else
      atomic.wrappingAdd(1, ordering: .sequentiallyConsistent)
    #endif
  }

  /// A thread leaves the section: a releasing decrement.
  package borrowing func leave() {
    #if canImport(os)
      lock.withLock { $0 &-= 1 }
    #else
      atomic.wrappingSubtract(1, ordering: .releasing)
    #endif
  }

  /// Whether no thread is inside: a sequentially consistent load.
  package var isEmpty: Bool {
    #if canImport(os)
      lock.withLock { $0 == 0 }
    #else
      atomic.load(ordering: .sequentiallyConsistent) == 0
    #endif
  }

  /// Empties the count (a forked child, whose other threads are gone).
  package borrowing func reset() {
    #if canImport(os)
      lock.withLock { $0 = 0 }
    #else
      atomic.store(0, ordering: .sequentiallyConsistent)
    #endif
  }
}
