/// Whether each filter that selects by value (`--host`, `--process`, `--run`, `--file`) matched
/// any record read, and, while it has not, the values that were seen instead: a gate must not
/// pass on a filter that matched nothing (most often a typo), and the values seen name the one
/// meant.
///
/// Each filter is judged on its own, over every record read (before the time window, the level
/// and the other filters), so `--host web1 --since -1h` with no event of `web1` in the last hour
/// still matched a record. Values are kept as string ids, at most ``maxValues`` per filter, and
/// only until the filter matches.
package struct FilterCoverage: Sendable {
  /// The filters this coverage is about.
  package enum Field: String, Sendable, CaseIterable {
    case host, process, run, file

    /// The option's name, `--host`.
    package var option: String { "--" + rawValue }
    /// What its values are called, `hosts`.
    package var plural: String {
      switch self {
      case .host: "hosts"
      case .process: "processes"
      case .run: "runs"
      case .file: "files"
      }
    }
  }

  /// Distinct values kept per filter while it matches nothing.
  package static let maxValues = 4096

  /// Per field (in ``Field/allCases`` order): whether it is set, whether it matched, the ids
  /// seen.
  private var active: [Bool]
  private var matched: [Bool]
  private var seen: [Set<UInt32>]

  init(filter: EventFilter) {
    active = Field.allCases.map { field in
      switch field {
      case .host: filter.host != nil
      case .process: filter.process != nil
      case .run: filter.run != nil
      case .file: filter.fileSubstring != nil
      }
    }
    matched = Array(repeating: false, count: Field.allCases.count)
    seen = Array(repeating: [], count: Field.allCases.count)
    waiting = anyWaiting
  }

  /// Whether any filter still waits for its first match (most records need no look): kept
  /// up to date by ``see(_:id:matches:)``, since it is read for every record.
  private(set) var waiting = false

  /// ``waiting`` worked out from `active` and `matched`.
  private var anyWaiting: Bool {
    for index in active.indices where active[index] && !matched[index] { return true }
    return false
  }

  /// Notes a record's value for `field`, and whether the filter took it.
  mutating func see(_ field: Field, id: UInt32, matches: Bool) {
    let index = Field.allCases.firstIndex(of: field)!
    guard active[index], !matched[index] else { return }
    if matches {
      matched[index] = true
      seen[index] = []
      waiting = anyWaiting
    } else if seen[index].count < FilterCoverage.maxValues {
      seen[index].insert(id)
    }
  }

  /// The filters set that matched no record, with the ids of the values seen instead.
  func unmatched() -> [(field: Field, seen: [UInt32])] {
    Field.allCases.indices.compactMap { index in
      active[index] && !matched[index] ? (Field.allCases[index], Array(seen[index])) : nil
    }
  }
}
