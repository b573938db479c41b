import BindingDiagnostics
import Testing

@testable import BindingDiagnosticsReport

/// The group table's sets and histograms against plain models: a set keeps the smallest values
/// (by their strings) whatever the order they come in, and a histogram's bins depend only on the
/// events added, not on their order or on how its window grew.
@Suite struct GroupTableTests {
  /// SplitMix64, so each run sees the same values.
  struct Random {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state &+= 0x9e37_79b9_7f4a_7c15
      var z = state
      z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
      z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
      return Int((z ^ (z >> 31)) % UInt64(bound))
    }
  }

  /// The values group `index` holds in each of its six sets (process, host, type, label,
  /// function, writer): its first value, unless none yet, and its extra's.
  static func sets(of table: GroupTable, _ index: Int) -> [[UInt32]] {
    let state = table.states[index]
    let extra = table.extra(of: state)
    let firsts = [
      state.process, state.host, state.valueType, state.label, state.function, state.writer,
    ]
    let mores = [
      extra?.processes.more, extra?.hosts.more, extra?.valueTypes.more, extra?.labels.more,
      extra?.functions.more, extra?.writers.more,
    ]
    return (0..<6).map { position in
      (firsts[position] == InternedRecord.none ? [] : [firsts[position]]) + (mores[position] ?? [])
    }
  }

  /// Ids below and above 64 (the set's bitmask of small ids), values repeated and alternating,
  /// fewer and more than the set's limit: the set holds exactly the smallest distinct values
  /// seen, each once.
  @Test(arguments: [3, 40, 63, 64, 65, 200])
  func idSetKeepsTheSmallestDistinctValues(distinct: Int) {
    var strings = StringTable()
    // Strings whose order is not their ids' order.
    let ids = (0..<distinct + 70).map { strings.intern("v\(($0 * 7919) % 1000 + 1000)") }
    for seed in 1...4 {
      var random = Random(state: UInt64(seed))
      var set = GroupTable.IDSet()
      var first = ids[random.next(distinct)]
      var seen: Set<UInt32> = [first]
      for _ in 0..<3000 {
        // Mostly a few values over and over, sometimes any.
        let id =
          random.next(4) == 0 ? ids[random.next(distinct)] : ids[random.next(min(4, distinct))]
        seen.insert(id)
        if id != first { set.insert(id, first: &first, strings: strings) }
      }
      let kept = [first] + set.more
      #expect(Set(kept).count == kept.count, "a value kept twice")
      let smallest = seen.sorted { strings.precedes($0, $1) }.prefix(GroupTable.IDSet.limit)
      #expect(Set(kept) == Set(smallest))
    }
  }

  /// A busy group's records through the table, each bringing values of every set from a pool
  /// of ids below and above 64 (the sets' bitmask), many repeating, some new, more distinct
  /// than a set keeps, labels and writers at times absent: each set holds exactly the
  /// smallest distinct values its records brought, whether a record took the path for values
  /// all known already or the one that inserts them one by one.
  @Test(arguments: [5, 70, 150])
  func busyGroupsSetsKeepTheSmallestValues(distinct: Int) {
    var strings = StringTable()
    // Ids 0 to 219, strings in another order than the ids.
    let ids = (0..<220).map { strings.intern("w\(($0 * 7919) % 1000 + 1000)") }
    for seed in 1...3 {
      var random = Random(state: UInt64(seed) &* 31)
      var table = GroupTable(width: 1)
      var seen = Array(repeating: Set<UInt32>(), count: 6)
      let index = table.index(of: .zero, level: .error)
      for _ in 0..<4000 {
        // Mostly a few ids (below and above 64), sometimes any of `distinct`.
        func pick() -> UInt32 {
          random.next(5) == 0
            ? ids[random.next(distinct)] : ids[[1, 2, 90, 130][random.next(min(4, distinct))]]
        }
        let fields = (0..<6).map { position -> UInt32 in
          (position == 3 || position == 5) && random.next(3) == 0 ? .max : pick()
        }
        let record = InternedRecord(
          timestamp: 1_796_000_000_000_000 + Int64(random.next(10_000_000)), line: 1, seq: 1,
          suppressed: 0, kind: 0, file: 0, function: fields[4], valueType: fields[2],
          label: fields[3], writer: fields[5], process: fields[0], host: fields[1], run: 0,
          level: .error)
        withUnsafePointer(to: record) { table.add($0, to: index, strings: strings) }
        for (position, id) in fields.enumerated() where id != InternedRecord.none {
          seen[position].insert(id)
        }
      }
      let sets = Self.sets(of: table, index)
      for position in 0..<6 {
        let held = sets[position]
        let smallest = seen[position].sorted { strings.precedes($0, $1) }
          .prefix(GroupTable.IDSet.limit)
        #expect(held.count == Set(held).count, "seed \(seed), set \(position): a value twice")
        #expect(Set(held) == Set(smallest), "seed \(seed), set \(position)")
      }
    }
  }

  /// Events at random times added in three orders (as read, sorted, reversed), over spans from
  /// a second to years: the same bins, with every event counted.
  @Test func histogramBinsDoNotDependOnOrder() {
    var random = Random(state: 9)
    for span in [1 << 19, 1 << 22, 60_000_000, 3_600_000_000, 400_000_000_000] {
      let start: Int64 = 1_796_000_000_000_000
      let times = (0..<500).map { _ in start + Int64(random.next(span)) }
      let counts = times.map { _ in 1 + random.next(3) }
      func bins(_ order: [Int]) -> [Int] {
        var histogram = TimeHistogram()
        for index in order { histogram.add(times[index], count: counts[index]) }
        return histogram.bins(8, start: times.min()!, end: times.max()!)
      }
      let asRead = bins(Array(times.indices))
      let sorted = bins(times.indices.sorted { times[$0] < times[$1] })
      let reversed = bins(times.indices.sorted { times[$0] > times[$1] })
      #expect(asRead == sorted)
      #expect(asRead == reversed)
      #expect(asRead.reduce(0, +) == counts.reduce(0, +))
    }
  }

  /// Records of a few groups with values drawn from small sets, so that each set's first value,
  /// its second and a level change come at any record (with or without the group's extra made
  /// yet): every group's counts, times, levels and sets are those of its records.
  @Test func groupsHoldWhatTheirRecordsSay() {
    var strings = StringTable()
    let values = (0..<12).map { strings.intern("value-\($0)") }
    let levels = MisuseLevel.allCases
    for seed in 1...20 {
      var random = Random(state: UInt64(seed))
      var table = GroupTable(width: 1)
      typealias Expected = (
        events: Int, first: Int64, last: Int64, levels: [Int: Int], sets: [Set<UInt32>]
      )
      var expected: [Int: Expected] = [:]
      // Per group, the fields of its last record: each record changes one of them at times.
      var last: [Int: [UInt32]] = [:]
      for _ in 0..<(1 + random.next(40)) {
        let group = random.next(3)
        var fields = last[group] ?? [values[0], values[0], values[0], .max, values[0], .max]
        if random.next(2) == 0 {
          let position = random.next(6)
          fields[position] =
            position == 3 || position == 5
            ? [.max, values[random.next(12)]][random.next(2)]
            : values[random.next(12)]
        }
        last[group] = fields
        let record = InternedRecord(
          timestamp: 1_796_000_000_000_000 + Int64(random.next(1 + random.next(4_000_000))),
          line: 1, seq: 1, suppressed: random.next(3), kind: 0, file: 0, function: fields[4],
          valueType: fields[2], label: fields[3], writer: fields[5], process: fields[0],
          host: fields[1], run: 0,
          level: levels[random.next(4) != 0 ? 2 : random.next(levels.count)])
        let index = table.index(
          of: SIMD16(lowHalf: SIMD8(Int64(group), 0, 0, 0, 0, 0, 0, 0), highHalf: .zero),
          level: record.level)
        withUnsafePointer(to: record) { table.add($0, to: index, strings: strings) }
        var entry = expected[index] ?? (0, .max, .min, [:], Array(repeating: [], count: 6))
        entry.events += record.events
        entry.first = min(entry.first, record.timestamp)
        entry.last = max(entry.last, record.timestamp)
        entry.levels[record.level.rank, default: 0] += record.events
        let ids = [
          record.process, record.host, record.valueType, record.label, record.function,
          record.writer,
        ]
        for (position, id) in ids.enumerated() where id != InternedRecord.none {
          entry.sets[position].insert(id)
        }
        expected[index] = entry
      }
      for (index, entry) in expected {
        let state = table.states[index]
        let extra = table.extra(of: state)
        #expect(state.events == entry.events)
        #expect(state.first == entry.first && state.last == entry.last)
        if state.level == GroupTable.mixedLevels {
          for (rank, events) in entry.levels {
            #expect(Int(extra?.levels[rank] ?? -1) == events, "seed \(seed), rank \(rank)")
          }
        } else {
          #expect(entry.levels.count == 1 && entry.levels[Int(state.level)] == entry.events)
        }
        let sets = Self.sets(of: table, index)
        for position in 0..<6 {
          #expect(Set(sets[position]) == entry.sets[position], "seed \(seed), set \(position)")
        }
      }
    }
  }
}
