/// The `seq` numbers (1 or more) seen for one run, as sorted disjoint ranges: memory grows with
/// the gaps, not with the records. Finds duplicates and counts lost records.
struct SeqTracker {
  /// The ranges before the last one.
  private var earlier: [ClosedRange<Int>] = []
  /// The last range, `low...high`, kept apart so that the usual insert (the next `seq` of the
  /// run) changes two integers, not an array; none while `high < low`.
  private var low = 0
  private var high = -1

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

  /// ``insert(_:)`` of a `seq` not after every range (`seq <= high`), in place: a duplicate
  /// costs a binary search, as it did before the last range was kept apart.
  @inline(never)
  private mutating func insertOutOfOrder(_ seq: Int) -> Bool {
    if seq >= low { return false }
    if seq == low - 1 {
      low = seq
      if let before = earlier.last, before.upperBound + 1 == low {
        low = before.lowerBound
        earlier.removeLast()
      }
      return true
    }
    // Before the last range and not touching it: the first earlier range ending at or after
    // seq - 1, by binary search.
    var index = 0
    var end = earlier.count
    while index < end {
      let middle = (index + end) / 2
      if earlier[middle].upperBound < seq - 1 { index = middle + 1 } else { end = middle }
    }
    guard index < earlier.count else {
      earlier.append(seq...seq)
      return true
    }
    let range = earlier[index]
    if range.contains(seq) { return false }
    if seq == range.lowerBound - 1 {
      earlier[index] = seq...range.upperBound
    } else if seq == range.upperBound + 1 {
      earlier[index] = range.lowerBound...seq
    } else {
      earlier.insert(seq...seq, at: index)
      return true
    }
    // Join with the following range (the last one is kept apart) if they now touch.
    let next = index + 1 < earlier.count ? earlier[index + 1].lowerBound : low
    if earlier[index].upperBound + 1 == next {
      if index + 1 < earlier.count {
        earlier[index] = earlier[index].lowerBound...earlier[index + 1].upperBound
        earlier.remove(at: index + 1)
      } else {
        low = earlier[index].lowerBound
        earlier.removeLast()
        return true
      }
    }
    if index > 0, earlier[index - 1].upperBound + 1 == earlier[index].lowerBound {
      earlier[index - 1] = earlier[index - 1].lowerBound...earlier[index].upperBound
      earlier.remove(at: index)
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
    func count(_ held: ClosedRange<Int>) {
      guard held.upperBound >= range.lowerBound, held.lowerBound <= range.upperBound else { return }
      seen += min(held.upperBound, range.upperBound) - max(held.lowerBound, range.lowerBound) + 1
    }
    for held in earlier {
      if held.lowerBound > range.upperBound { break }
      count(held)
    }
    if high >= low { count(low...high) }
    return range.count - seen
  }
}
