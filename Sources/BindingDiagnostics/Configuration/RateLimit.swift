/// A token bucket per kind and call site: `burst` records at once, refilled at `burst` per
/// `interval` seconds. Events over the limit are folded into the next record's `suppressed`.
public struct RateLimit: Sendable, Hashable, CustomStringConvertible {
  /// Records a call site may write at once.
  public var burst: Int
  /// Seconds in which the bucket refills `burst` tokens.
  public var interval: Double

  /// 10 records per second per kind and call site.
  public static let `default` = RateLimit(burst: 10, interval: 1)

  /// A limit of `burst` records per `interval` seconds.
  /// - Parameters:
  ///   - burst: At least 1.
  ///   - interval: Seconds, more than 0.
  public init(burst: Int, interval: Double) {
    self.burst = max(1, burst)
    self.interval = interval > 0 ? interval : 1
  }

  /// Parses `BURST/SECONDS` (`10/1`, `100/0.5`); `nil` for anything else.
  /// - Parameter text: The configuration text.
  public init?(parsing text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let burst = Int(parts[0]), burst >= 1, let interval = Double(parts[1]),
      interval > 0, interval.isFinite
    else { return nil }
    self.init(burst: burst, interval: interval)
  }

  /// `BURST/SECONDS`.
  public var description: String {
    let seconds = interval == interval.rounded() ? String(Int(interval)) : String(interval)
    return "\(burst)/\(seconds)"
  }
}
