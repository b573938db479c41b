#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Token buckets per kind and call site, with the count of events each has folded away.
final class RateLimiter: Sendable {
  /// A bucket's identity: the contract's site grouping, per test. Misuses of one site in
  /// different tests fold apart, so a folded record names the test of every misuse it stands for.
  struct Key: Hashable, Sendable {
    let kind: String
    let file: String
    let line: Int
    /// The test running at the misuse (the record's `test`), or `nil` outside tests.
    let test: String?
  }

  /// What a suppressed event leaves behind, so a record can stand for it at flush.
  struct Pending: Sendable {
    /// The first folded misuse.
    let misuse: Misuse
    /// The test running at the misuse.
    let test: String?
    /// The record's `writer`: the first folded misuse's.
    let writer: String?
  }

  /// Whether the event becomes a record, and how many folded events it carries.
  enum Decision {
    case emit(suppressed: Int)
    /// Folded into its bucket. `scheduleDrain` is `true` for the first fold since the last
    /// drain: the caller then arranges a ``drain()`` one interval later, so folded counts reach
    /// the sink even when no further misuse comes to carry them.
    case suppress(scheduleDrain: Bool)
  }

  private struct Bucket {
    var tokens: Double
    var updated: UInt64
    var pending: Int
    var template: Pending?
  }

  private struct State {
    var buckets: [Key: Bucket] = [:]
    var drainScheduled = false
  }

  /// The limit in force.
  let limit: RateLimit
  private let state = Lock(State())

  init(_ limit: RateLimit) {
    self.limit = limit
  }

  /// Takes a token for `key`, or counts the event as pending. `template` runs only for the
  /// first event a bucket folds after a record.
  func admit(_ key: Key, template: () -> Pending) -> Decision {
    let now = MonotonicClock.nanoseconds()
    let burst = Double(limit.burst)
    let perNanosecond = burst / (limit.interval * 1e9)
    return state.withLock { state in
      var bucket =
        state.buckets[key] ?? Bucket(tokens: burst, updated: now, pending: 0, template: nil)
      bucket.tokens = min(burst, bucket.tokens + Double(now &- bucket.updated) * perNanosecond)
      bucket.updated = now
      let decision: Decision
      if bucket.tokens >= 1 {
        bucket.tokens -= 1
        decision = .emit(suppressed: bucket.pending)
        bucket.pending = 0
        bucket.template = nil
      } else {
        if bucket.pending == 0 { bucket.template = template() }
        bucket.pending += 1
        decision = .suppress(scheduleDrain: !state.drainScheduled)
        state.drainScheduled = true
      }
      state.buckets[key] = bucket
      return decision
    }
  }

  /// Removes and returns every bucket's pending events: each becomes one record standing for
  /// `count` events.
  func drain() -> [(pending: Pending, count: Int)] {
    state.withLock { state in
      state.drainScheduled = false
      var drained: [(pending: Pending, count: Int)] = []
      for (key, bucket) in state.buckets where bucket.pending > 0 {
        if let template = bucket.template { drained.append((template, bucket.pending)) }
        state.buckets[key]?.pending = 0
        state.buckets[key]?.template = nil
      }
      return drained
    }
  }
}
