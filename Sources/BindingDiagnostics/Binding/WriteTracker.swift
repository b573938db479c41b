// Public: the tracker's operations are inlined into the app's checked writes.
#if canImport(os)
  public import os
#else
  public import Synchronization
#endif

/// The writes running through one checked binding, on any thread: how ``WriteCheck`` tells a
/// write inside a write (the same thread, re-entrant) from two threads writing at once, and
/// whether another thread's write may have landed between a write and its read-back.
///
/// The first thread to write while no write runs *holds* the binding until its write ends: a
/// write it begins meanwhile is re-entrant (``begin(_:)`` returns `nil`). A write that begins
/// while another thread holds it is a *guest*: it is counted while it runs, never read back, and
/// its own re-entrant writes go unreported (a re-entrant write can go unreported under
/// contention; a write is never reported re-entrant that was not). The holder's write is read
/// back only when no guest was running as it began and none began before the read-back ended
/// (``isQuiet(since:)``), so another thread's write is never taken for a write that did not stick.
///
/// The Synchronization module's `Atomic` on Linux: the holder's write costs one
/// compare-and-exchange and one load as it begins, one load after its read-back and one store as
/// it ends; only a guest adds to the shared count. An `OSAllocatedUnfairLock` on Apple
/// platforms, where `Atomic` needs macOS 15 / iOS 18 and the package supports macOS 13 / iOS 16.
/// Noncopyable: kept as a `let` of the ``WriteCheck`` that owns it.
@usableFromInline
struct WriteTracker: ~Copyable, Sendable {
  /// One write's registration, from ``begin(_:)`` to ``end(_:)``.
  @usableFromInline
  struct Ticket: Sendable {
    /// Whether this write's thread holds the binding until the write ends.
    @usableFromInline let holds: Bool
    /// Whether no guest was running as this write began (always `false` for a guest).
    @usableFromInline let alone: Bool
    /// How many guests had begun (wrapping) as this write began.
    @usableFromInline let guestsBegun: UInt32

    @inlinable
    init(holds: Bool, alone: Bool, guestsBegun: UInt32) {
      self.holds = holds
      self.alone = alone
      self.guestsBegun = guestsBegun
    }
  }

  #if canImport(os)
    @usableFromInline
    struct State: Sendable {
      @usableFromInline var holder: UInt = 0
      @usableFromInline var guestsBegun: UInt32 = 0
      @usableFromInline var guestsRunning: UInt32 = 0

      init() {}
    }

    @usableFromInline let lock = OSAllocatedUnfairLock(initialState: State())
  #else
    /// The thread holding the binding, 0 when none. Only that thread stores its own identity
    /// here, and it stores 0 as its write ends: a thread that finds itself here is inside a
    /// write through the binding.
    @usableFromInline let holder = Atomic<UInt>(0)
    /// The guests begun (high 32 bits, wrapping) and running (low 32 bits): one word, so that a
    /// guest registers in one step.
    @usableFromInline let guests = Atomic<UInt64>(0)
  #endif

  /// No write running.
  @usableFromInline
  init() {}

  /// Registers a write by `thread`.
  /// - Parameter thread: The writing thread's ``ThreadIdentity``.
  /// - Returns: The write's ticket, or `nil` when `thread` is inside a write through this
  ///   binding already (re-entrant; not registered).
  @inlinable
  borrowing func begin(_ thread: UInt) -> Ticket? {
    #if canImport(os)
      lock.withLock { state -> Ticket? in
        if state.holder == 0 {
          state.holder = thread
          return Ticket(
            holds: true, alone: state.guestsRunning == 0, guestsBegun: state.guestsBegun)
        }
        guard state.holder != thread else { return nil }
        state.guestsBegun &+= 1
        state.guestsRunning &+= 1
        return Ticket(holds: false, alone: false, guestsBegun: 0)
      }
    #else
      // Acquiring: what the last holder did (its `reentered`) happened before what this one does.
      let (held, current) = holder.compareExchange(
        expected: 0, desired: thread, successOrdering: .acquiring, failureOrdering: .relaxed)
      if held {
        let count = guests.load(ordering: .acquiring)
        return Ticket(
          holds: true, alone: UInt32(truncatingIfNeeded: count) == 0,
          guestsBegun: UInt32(truncatingIfNeeded: count >> 32))
      }
      guard current != thread else { return nil }
      guests.wrappingAdd((1 << 32) | 1, ordering: .acquiringAndReleasing)
      return Ticket(holds: false, alone: false, guestsBegun: 0)
    #endif
  }

  /// Whether the holder's write of `ticket` began with no guest running and none began since.
  /// Asked after the read-back: a guest whose write the read saw had registered before it
  /// wrote, so it is counted.
  /// - Parameter ticket: The running write's ticket.
  @inlinable
  borrowing func isQuiet(since ticket: Ticket) -> Bool {
    guard ticket.alone else { return false }
    #if canImport(os)
      return lock.withLock { $0.guestsBegun == ticket.guestsBegun }
    #else
      return UInt32(truncatingIfNeeded: guests.load(ordering: .acquiring) >> 32)
        == ticket.guestsBegun
    #endif
  }

  /// Ends the write of `ticket`: a holder lets the binding go, a guest leaves the count.
  /// - Parameter ticket: The write's ticket.
  @inlinable
  borrowing func end(_ ticket: Ticket) {
    #if canImport(os)
      lock.withLock { state in
        if ticket.holds { state.holder = 0 } else { state.guestsRunning &-= 1 }
      }
    #else
      // Releasing: the next holder sees this write's stores.
      if ticket.holds {
        holder.store(0, ordering: .releasing)
      } else {
        guests.wrappingSubtract(1, ordering: .releasing)
      }
    #endif
  }
}
