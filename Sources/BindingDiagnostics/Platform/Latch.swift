#if canImport(os)
  import os
#else
  import Synchronization
#endif

/// A one-way flag: unset until the first ``set()``, set for ever after (until a forked child's
/// ``reset()``). The Synchronization module's `Atomic` on Linux; an `OSAllocatedUnfairLock` on
/// Apple platforms, where `Atomic` needs macOS 15 / iOS 18. Neither side allocates or takes a
/// lock other code holds (Linux), so a signal handler and the exit hook may use it.
///
/// Every operation is sequentially consistent (`.sequentiallyConsistent`, explicitly):
/// - for publication, it is at least release (``set()``) and acquire (``isSet``): what the setter
///   wrote before setting it is visible to a thread that sees it set;
/// - for handshakes, it takes part in the single total order of sequentially consistent
///   operations: a thread that sets the latch and then loads another atomic, and a thread that
///   stores to that atomic and then reads the latch (``InFlightCount`` and the end of the
///   process), cannot both miss each other. Acquire and release alone allow that on aarch64
///   (a store may still sit in its core's buffer when the later load runs).
///
/// It costs nothing over acquire/release where it runs: on x86-64 and ARMv8 a sequentially
/// consistent load and exchange compile to the same instructions as acquire ones (`mov` and
/// `xchg`; `ldar` and `ldaxr`/`stlxr` or `swpal`).
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

  /// Sets the latch: a sequentially consistent exchange.
  /// - Returns: Whether this call set it (`true` for exactly one caller).
  @discardableResult
  package borrowing func set() -> Bool {
    #if canImport(os)
      lock.withLock { isSet in
        defer { isSet = true }
        return !isSet
      }
    #else
      !atomic.exchange(true, ordering: .sequentiallyConsistent)
    #endif
  }

  /// Whether the latch is set (a sequentially consistent load); what its setter wrote before
  /// setting it is visible after `true`.
  package var isSet: Bool {
    #if canImport(os)
      lock.withLock { $0 }
    #else
      atomic.load(ordering: .sequentiallyConsistent)
    #endif
  }

  /// Unsets the latch: a forked child, whose other threads are gone, or the start of a new
  /// episode by the only thread that sets it.
  package borrowing func reset() {
    #if canImport(os)
      lock.withLock { $0 = false }
    #else
      atomic.store(false, ordering: .sequentiallyConsistent)
    #endif
  }
}
