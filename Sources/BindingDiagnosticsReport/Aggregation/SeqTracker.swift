/// The `seq` numbers (1 or more) seen for one run, as sorted disjoint ranges: memory grows with
/// the gaps, not with the records. Finds duplicates and counts lost records.
struct SeqTracker {
  private var ranges: [ClosedRange<Int>] = []

  /// Records `seq`; `false` when it was seen before (a duplicated record).
  mutating func insert(_ seq: Int) -> Bool {
    if let last = ranges.last {
      if seq == last.upperBound + 1 {
        ranges[ranges.count - 1] = last.lowerBound...seq
        return true
      }
      if seq > last.upperBound + 1 {
        ranges.append(seq...seq)
        return true
      }
    } else {
      ranges.append(seq...seq)
      return true
    }
    // Out of order: binary search for the first range ending at or after seq - 1.
    var low = 0
    var high = ranges.count
    while low < high {
      let middle = (low + high) / 2
      if ranges[middle].upperBound < seq - 1 { low = middle + 1 } else { high = middle }
    }
    let range = ranges[low]
    if range.contains(seq) { return false }
    if seq == range.lowerBound - 1 {
      ranges[low] = seq...range.upperBound
    } else if seq == range.upperBound + 1 {
      ranges[low] = range.lowerBound...seq
    } else {
      ranges.insert(seq...seq, at: low)
      return true
    }
    // Join with the following range if they now touch.
    if low + 1 < ranges.count, ranges[low].upperBound + 1 == ranges[low + 1].lowerBound {
      ranges[low] = ranges[low].lowerBound...ranges[low + 1].upperBound
      ranges.remove(at: low + 1)
    }
    if low > 0, ranges[low - 1].upperBound + 1 == ranges[low].lowerBound {
      ranges[low - 1] = ranges[low - 1].lowerBound...ranges[low].upperBound
      ranges.remove(at: low)
    }
    return true
  }

  /// Whether `seq` 1 was seen.
  var hasFirst: Bool { ranges.first?.lowerBound == 1 }

  /// Records missing before the lowest `seq` seen (a head lost: rotated away, or in a file
  /// not read), part of ``lost``.
  var head: Int { (ranges.first?.lowerBound ?? 1) - 1 }

  /// The highest `seq` seen, 0 for none.
  var highest: Int { ranges.last?.upperBound ?? 0 }

  /// Records missing up to the highest `seq` seen: a run starts at 1, so the ones below the
  /// lowest seen count too (a first record glued to a torn one is lost, not absent).
  var lost: Int { ranges.isEmpty ? 0 : missing(in: 1...highest) }

  /// The `seq`s of `range` not seen (a range that goes past the highest seen counts its tail:
  /// what a run record says was handed out and never arrived).
  func missing(in range: ClosedRange<Int>) -> Int {
    var seen = 0
    for held in ranges where held.upperBound >= range.lowerBound {
      if held.lowerBound > range.upperBound { break }
      seen += min(held.upperBound, range.upperBound) - max(held.lowerBound, range.lowerBound) + 1
    }
    return range.count - seen
  }
}
