import BindingDiagnostics

/// For `export`, what ``FilterCoverage`` is for `summary`: whether each filter that selects by
/// value (`--host`, `--process`, `--run`, `--file`) matched any event read, each judged on its
/// own over every event (before the time window, the level and the other filters), and while it
/// has not, the values seen instead, so a typo is named with the value meant. `--file` is judged
/// on misuse records only, as `summary` judges it: a run record's `file` is where the app set up
/// the pipeline, not a call site, so it neither matches nor is named as a file seen. Kept by each
/// worker for its chunk and merged in order.
package struct FilterSightings: Sendable {
  /// The filters set: each field and the value asked for.
  private let wanted: [(field: FilterCoverage.Field, value: String)]
  private var matched: Set<FilterCoverage.Field> = []
  private var seen: [FilterCoverage.Field: Set<String>] = [:]

  /// Sightings of `filter`'s value filters, none seen yet.
  package init(filter: EventFilter) {
    var wanted: [(FilterCoverage.Field, String)] = []
    if let host = filter.host { wanted.append((.host, host)) }
    if let process = filter.process { wanted.append((.process, process)) }
    if let run = filter.run { wanted.append((.run, run)) }
    if let file = filter.fileSubstring { wanted.append((.file, file)) }
    self.wanted = wanted
  }

  /// Whether a filter still waits for its first match (most events need no look).
  var waiting: Bool { matched.count < wanted.count }

  /// Notes an event's values for the filters not matched yet (a run record's not for `--file`).
  mutating func see(_ event: MisuseEvent) {
    guard waiting else { return }
    for (field, value) in wanted where !matched.contains(field) {
      if field == .file, event.isRunRecord { continue }
      let actual: String
      let matches: Bool
      switch field {
      case .host: (actual, matches) = (event.host, EventFilter.same(event.host, value))
      case .process: (actual, matches) = (event.process, EventFilter.same(event.process, value))
      case .run: (actual, matches) = (event.run, EventFilter.same(event.run, value))
      case .file: (actual, matches) = (event.file, event.file.contains(value))
      }
      if matches {
        matched.insert(field)
        seen[field] = nil
      } else if seen[field, default: []].count < FilterCoverage.maxValues {
        seen[field, default: []].insert(actual)
      }
    }
  }

  /// Adds what another reader (a chunk's worker) saw.
  mutating func merge(_ other: FilterSightings) {
    for (field, _) in wanted where !matched.contains(field) {
      if other.matched.contains(field) {
        matched.insert(field)
        seen[field] = nil
      } else if let values = other.seen[field] {
        for value in values where seen[field, default: []].count < FilterCoverage.maxValues {
          seen[field, default: []].insert(value)
        }
      }
    }
  }

  /// The filters that matched no event, with their value and the values seen instead (sorted).
  package func unmatched() -> [(field: FilterCoverage.Field, value: String, seen: [String])] {
    wanted.filter { !matched.contains($0.field) }.map {
      ($0.field, $0.value, (seen[$0.field] ?? []).sorted())
    }
  }
}
