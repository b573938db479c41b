/// The `seq` numbers (1 or more) seen for one run, as sorted disjoint ranges: memory grows with
/// the gaps, not with the records. Finds duplicates and counts lost records.
struct SeqTracker {
  /// The ranges before the last one.
  private var earlier: [ClosedRange<Int>] = []
  /// The last range, `low...high`, kept apart so that the usual insert (the next `seq` of the
  /// run) changes two integers, not an array; none while `high < low`.
  private var low = 0
  private var high = -1

  /// Every range, in order (made on each read: for the rare paths).
  private var ranges: [ClosedRange<Int>] {
    get { high >= low ? earlier + [low...high] : earlier }
    set {
      guard let last = newValue.last else {
        earlier = []
        (low, high) = (0, -1)
        return
      }
      earlier = Array(newValue.dropLast())
      (low, high) = (last.lowerBound, last.upperBound)
    }
  }

  /// Records `seq`; `false` when it was seen before (a duplicated record).
  @inline(__always)
  mutating func insert(_ seq: Int) -> Bool {
    guard high >= low else {
      (low, high) = (seq, seq)
      return true
    }
    if seq == high + 1 {
      high = seq
      return true
    }
    if seq > high + 1 {
      earlier.append(low...high)
      (low, high) = (seq, seq)
      return true
    }
    return insertOutOfOrder(seq)
  }

  /// ``insert(_:)`` of a `seq` not after every range.
  @inline(never)
  private mutating func insertOutOfOrder(_ seq: Int) -> Bool {
    var ranges = self.ranges
    defer { self.ranges = ranges }
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
  var hasFirst: Bool { (earlier.first?.lowerBound ?? (high >= low ? low : 0)) == 1 }

  /// Records missing before the lowest `seq` seen (a head lost: rotated away, or in a file
  /// not read), part of ``lost``.
  var head: Int { (earlier.first?.lowerBound ?? (high >= low ? low : 1)) - 1 }

  /// The highest `seq` seen, 0 for none.
  var highest: Int { high >= low ? high : 0 }

  /// Records missing up to the highest `seq` seen: a run starts at 1, so the ones below the
  /// lowest seen count too (a first record glued to a torn one is lost, not absent).
  var lost: Int { high < low ? 0 : missing(in: 1...highest) }

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
