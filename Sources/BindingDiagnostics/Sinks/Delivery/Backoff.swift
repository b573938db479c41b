/// When a failing writer tries again: 100 ms after the first failure, then twice as long after
/// each failure in a row, 5 s at the most; back to 100 ms once a try succeeds. Times are
/// monotonic nanoseconds passed in by the caller (``MonotonicClock/nanoseconds()``).
package struct Backoff: Equatable, Sendable {
  /// The delay after the first failure of an episode.
  package static let firstDelay: UInt64 = 100_000_000
  /// The longest delay.
  package static let longestDelay: UInt64 = 5_000_000_000

  /// Whether the last try failed.
  package private(set) var failing = false
  /// When the next try is due.
  package private(set) var nextTry: UInt64 = 0
  private var delay = Backoff.firstDelay

  /// A backoff that has seen no failure.
  package init() {}

  /// Whether a try is due at `now`: always unless failing, then from ``nextTry`` on.
  package func allowsTry(now: UInt64) -> Bool {
    !failing || now >= nextTry
  }

  /// Notes a failure at `now` and schedules the next try.
  /// - Returns: Whether it starts an episode of failures (the one to say).
  package mutating func failed(now: UInt64) -> Bool {
    defer {
      failing = true
      nextTry = now &+ delay
      delay = min(delay * 2, Backoff.longestDelay)
    }
    return !failing
  }

  /// Notes a try that worked.
  /// - Returns: Whether it ends an episode of failures (the recovery to say).
  package mutating func succeeded() -> Bool {
    defer { self = Backoff() }
    return failing
  }
}
