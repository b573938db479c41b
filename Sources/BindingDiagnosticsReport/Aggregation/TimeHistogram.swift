/// Counts over time with bounded memory: buckets of a power-of-two width (µs) that doubles,
/// merging neighbours, whenever more than ``maxBuckets`` would be needed.
struct TimeHistogram: Sendable {
  static let maxBuckets = 64
  private(set) var width: Int64 = 1_000_000
  private(set) var buckets: [Int64: Int] = [:]
  /// The bucket last added to, and counts not yet folded into it.
  private var recent: (index: Int64, count: Int)?

  mutating func add(_ micros: Int64, count: Int) {
    let index = floorDivide(micros, width)
    if let pending = recent {
      if pending.index == index {
        recent = (index, pending.count + count)
        return
      }
      buckets[pending.index, default: 0] += pending.count
    }
    recent = (index, count)
    guard buckets.count >= TimeHistogram.maxBuckets, buckets[index] == nil else { return }
    settle()
  }

  /// Folds the pending count in and merges buckets until at most ``maxBuckets`` remain.
  private mutating func settle() {
    if let pending = recent {
      buckets[pending.index, default: 0] += pending.count
      recent = nil
    }
    while buckets.count > TimeHistogram.maxBuckets {
      width *= 2
      var merged: [Int64: Int] = [:]
      for (index, value) in buckets { merged[floorDivide(index, 2), default: 0] += value }
      buckets = merged
    }
  }

  /// The counts spread over `bins` equal bins between `start` and `end` (µs), by bucket middle.
  func bins(_ bins: Int, start: Int64, end: Int64) -> [Int] {
    var settled = self
    settled.settle()
    return settled.spread(bins, start: start, end: end)
  }

  private func spread(_ bins: Int, start: Int64, end: Int64) -> [Int] {
    var result = [Int](repeating: 0, count: bins)
    let span = max(end - start, 1)
    for (index, value) in buckets {
      let middle = index * width + width / 2
      let position = Int((Double(middle - start) / Double(span) * Double(bins)).rounded(.down))
      result[min(max(position, 0), bins - 1)] += value
    }
    return result
  }

  private func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    let quotient = value / divisor
    return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }
}
