/// A journald that was not listening when the journald sink started, looked for again: its
/// socket is probed (``JournalSocket/probe(_:)``, a `connect(2)` that does not wait) on the
/// ``Backoff`` schedule, by the thread whose event finds a probe due, until one listens.
///
/// `sd_journal_sendv` cannot tell: it returns 0 when the socket is missing (the entry is lost),
/// so the sink keeps to its fallback until a probe finds journald.
final class JournalArrival: Sendable {
  private struct State {
    var backoff = Backoff()
    /// Set by the probe that found journald, for good.
    var arrived = false
  }

  private let socketPath: String
  private let state: Lock<State>

  /// Starts the schedule with the sink's own failed probe, at `now`.
  /// - Parameters:
  ///   - socketPath: journald's socket.
  ///   - now: When the sink found no journald (``MonotonicClock/nanoseconds()``).
  init(socketPath: String, failedAt now: UInt64) {
    self.socketPath = socketPath
    var initial = State()
    _ = initial.backoff.failed(now: now)
    state = Lock(initial)
  }

  /// Whether journald listens: once a probe found it, always; otherwise a probe when one is
  /// due. The probe that finds it runs `arrive` first, under the lock, so `arrive` runs once
  /// and before any caller is told `true`.
  /// - Parameter arrive: What the sink does when journald is found (start its sending thread).
  /// - Returns: Whether events go to journald from now on.
  func listens(onArrival arrive: () -> Void) -> Bool {
    state.withLock { state in
      if state.arrived { return true }
      let now = MonotonicClock.nanoseconds()
      guard state.backoff.allowsTry(now: now) else { return false }
      guard case .success = JournalSocket.probe(socketPath) else {
        _ = state.backoff.failed(now: now)
        return false
      }
      _ = state.backoff.succeeded()
      arrive()
      state.arrived = true
      return true
    }
  }
}
