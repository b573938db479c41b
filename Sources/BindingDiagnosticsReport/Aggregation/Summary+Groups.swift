import BindingDiagnostics

extension Summary {
  /// The groups, sorted by events descending, then key ascending. Each ``Summary/Group`` is
  /// built when read, from the aggregation's compact groups and interned strings: a summary of
  /// a million groups holds an index per group, not a million groups of strings.
  package struct Groups: RandomAccessCollection, Sendable {
    private let table: GroupTable
    private let strings: StringTable
    private let fields: [GroupField]
    /// Group indices in the table, sorted.
    private let order: [UInt32]
    /// The span histograms are binned over (µs).
    private let start: Int64
    private let end: Int64
    /// Lost records by key, when the fields are all run-level (see ``Summary/Group/lost``).
    private let lost: [SIMD16<Int64>: Int]?

    /// The groups of `table`, sorted.
    /// - Parameter lost: Lost records by key (ids as in `table`), when every field is one a
    ///   whole run shares.
    init(
      table: GroupTable, strings: StringTable, fields: [GroupField], start: Int64, end: Int64,
      lost: [SIMD16<Int64>: Int]? = nil
    ) {
      self.lost = lost
      self.table = table
      self.strings = strings
      self.fields = fields
      self.start = start
      self.end = end
      var order = (0..<UInt32(table.count)).map { $0 }
      order.sort { lhs, rhs in
        let left = table.states[Int(lhs)].events
        let right = table.states[Int(rhs)].events
        if left != right { return left > right }
        return Groups.keyPrecedes(Int(lhs), Int(rhs), table, strings, fields)
      }
      self.order = order
    }

    /// Whether the key of group `lhs` sorts before that of `rhs`, as ``GroupKeyPart``s do:
    /// lines by number, text by code point (byte order of UTF-8), no label, test or writer as
    /// empty text.
    private static func keyPrecedes(
      _ lhs: Int, _ rhs: Int, _ table: GroupTable, _ strings: StringTable, _ fields: [GroupField]
    ) -> Bool {
      for (position, field) in fields.enumerated() {
        let left = table.key(lhs, position)
        let right = table.key(rhs, position)
        if left == right { continue }
        if field == .line { return left < right }
        let leftID = UInt32(truncatingIfNeeded: left)
        let rightID = UInt32(truncatingIfNeeded: right)
        // No label reads as an empty one: equal to a label "", before any other.
        let leftEmpty = leftID == InternedRecord.none || strings.byteCount(of: leftID) == 0
        let rightEmpty = rightID == InternedRecord.none || strings.byteCount(of: rightID) == 0
        if leftEmpty || rightEmpty {
          if leftEmpty == rightEmpty { continue }
          return leftEmpty
        }
        if strings.precedes(leftID, rightID) { return true }
        if strings.precedes(rightID, leftID) { return false }
      }
      return false
    }

    /// The first position.
    package var startIndex: Int { 0 }
    /// Past the last position.
    package var endIndex: Int { order.count }

    /// The group at `position`, built from the compact group.
    /// - Parameter position: A position in `startIndex..<endIndex`.
    package subscript(position: Int) -> Group {
      let index = Int(order[position])
      let state = table.states[index]
      let extra = table.extra(of: state)
      let key = fields.enumerated().map { position, field -> GroupKeyPart in
        let part = table.key(index, position)
        switch field {
        case .line: return .number(Int(part))
        default:
          // No label, test or writer reads as an empty one.
          let id = UInt32(truncatingIfNeeded: part)
          return .text(id == InternedRecord.none ? "" : strings.string(id))
        }
      }
      var groupLost: Int?
      if let lost {
        var lanes = SIMD16<Int64>.zero
        for position in fields.indices { lanes[position] = table.key(index, position) }
        groupLost = lost[lanes] ?? 0
      }
      var levels: [MisuseLevel: Int] = [:]
      for level in MisuseLevel.allCases {
        if state.level == GroupTable.mixedLevels, let extra {
          if extra.levels[level.rank] > 0 { levels[level] = Int(extra.levels[level.rank]) }
        } else if level.rank == Int(state.level), state.events > 0 {
          levels[level] = state.events
        }
      }
      return Group(
        key: key, events: state.events, records: state.records,
        first: Timestamp(microsecondsSinceEpoch: state.first),
        last: Timestamp(microsecondsSinceEpoch: state.last),
        processes: texts(state.process, extra?.processes), hosts: texts(state.host, extra?.hosts),
        valueTypes: texts(state.valueType, extra?.valueTypes),
        labels: texts(state.label, extra?.labels), writers: texts(state.writer, extra?.writers),
        functions: texts(state.function, extra?.functions), levels: levels,
        histogram: histogram(state, extra), lost: groupLost)
    }

    /// Events per bin over the summary's span.
    private func histogram(_ state: GroupTable.State, _ extra: GroupTable.Extra?) -> [Int] {
      if state.histogram, let extra {
        return extra.histogram.bins(histogramBins, start: start, end: end)
      }
      return TimeHistogram.bins(
        histogramBins, first: state.first, last: state.last, count: state.events, start: start,
        end: end)
    }

    /// A set's strings, sorted by code point.
    private func texts(_ first: UInt32, _ set: GroupTable.IDSet?) -> [String] {
      guard first != InternedRecord.none else { return [] }
      var ids = set?.more ?? []
      ids.append(first)
      ids.sort(by: strings.precedes)
      return ids.map(strings.string)
    }

    /// Whether the groups' hosts are more than one, all groups together (as a set of every
    /// group's ``Summary/Group/hosts`` would say), without building them.
    package var haveSeveralHosts: Bool {
      var seen = InternedRecord.none
      for state in table.states {
        if let extra = table.extra(of: state), !extra.hosts.more.isEmpty { return true }
        if state.host == seen { continue }
        if seen != InternedRecord.none { return true }
        seen = state.host
      }
      return false
    }
  }
}
