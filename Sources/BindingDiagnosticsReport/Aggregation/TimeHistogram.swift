/// Counts over time with bounded memory: a window of ``maxBuckets`` buckets of a power-of-two
/// multiple of a second, starting at the first event's bucket. When an event falls outside the
/// window, the width doubles (neighbouring buckets merge) until it fits.
struct TimeHistogram: Sendable {
  static let maxBuckets = 64
  private(set) var width: Int64 = 1_000_000
  /// The absolute bucket index (time / width) of `counts[0]`.
  private var base: Int64 = 0
  /// Empty until the first event.
  private var counts: [Int] = []

  mutating func add(_ micros: Int64, count: Int) {
    var index = TimeHistogram.floorDivide(micros, width)
    if counts.isEmpty {
      counts = [Int](repeating: 0, count: TimeHistogram.maxBuckets)
      base = index
    }
    while index < base || index >= base + Int64(TimeHistogram.maxBuckets) {
      widen()
      index = TimeHistogram.floorDivide(micros, width)
    }
    counts[Int(index - base)] += count
  }

  /// Doubles the width, merging each pair of neighbouring buckets.
  private mutating func widen() {
    let newBase = TimeHistogram.floorDivide(base, 2)
    var merged = [Int](repeating: 0, count: TimeHistogram.maxBuckets)
    for (offset, value) in counts.enumerated() where value != 0 {
      merged[Int(TimeHistogram.floorDivide(base + Int64(offset), 2) - newBase)] += value
    }
    counts = merged
    base = newBase
    width *= 2
  }

  /// The counts spread over `bins` equal bins between `start` and `end` (µs), by bucket middle.
  func bins(_ bins: Int, start: Int64, end: Int64) -> [Int] {
    var result = [Int](repeating: 0, count: bins)
    // In Double: extreme times (from a hostile journal entry) must not overflow Int64.
    let span = max(Double(end) - Double(start), 1)
    for (offset, value) in counts.enumerated() where value != 0 {
      let middle = Double(base + Int64(offset)) * Double(width) + Double(width / 2)
      let fraction = (middle - Double(start)) / span * Double(bins)
      let position = fraction.isFinite ? Int(max(min(fraction, Double(bins - 1)), 0)) : 0
      result[position] += value
    }
    return result
  }

  private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    let quotient = value / divisor
    return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }
}
