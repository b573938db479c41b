public import BindingDiagnostics

/// Streams events into groups: memory grows with the number of groups and runs, never with
/// the number of events.
public struct Aggregator {
  private struct GroupState {
    let key: [GroupKeyPart]
    var events = 0
    var records = 0
    var first = Timestamp(microsecondsSinceEpoch: .max)
    var last = Timestamp(microsecondsSinceEpoch: .min)
    var processes = SmallSet()
    var hosts = SmallSet()
    var valueTypes = SmallSet()
    var labels = SmallSet()
    var levels = [Int](repeating: 0, count: MisuseLevel.allCases.count)
    var histogram = TimeHistogram()

    init(key: [GroupKeyPart]) {
      self.key = key
    }
  }

  /// Distinct strings, at most 64: past that, the 64 smallest, so which ones are kept does
  /// not depend on the input's order. Values repeat, and there are few: compare with the last
  /// one, then scan a short array, before hashing.
  private struct SmallSet {
    static let limit = 64
    private(set) var values: [String] = []
    private var hashed: Set<String> = []
    private var last: String?

    mutating func insert(_ value: String) {
      // `last` is either kept or was refused; a refused value stays refused, since the
      // largest kept value only ever decreases.
      if value == last { return }
      last = value
      if values.count <= 8 {
        if values.contains(value) { return }
      } else if hashed.contains(value) {
        return
      }
      guard values.count < SmallSet.limit else { return keepIfSmaller(value) }
      values.append(value)
      if values.count > 8 { hashed = Set(values) }
    }

    /// When full: `value` replaces the largest kept value if it is smaller. Out of line, so
    /// the common path stays small.
    @inline(never)
    private mutating func keepIfSmaller(_ value: String) {
      guard let largest = values.indices.max(by: { values[$0] < values[$1] }),
        value < values[largest]
      else { return }
      hashed.remove(values[largest])
      hashed.insert(value)
      values[largest] = value
    }
  }

  private struct RunState {
    var seqs = SeqTracker()
    /// The smallest process name among the run's records (one, unless the input is odd), so
    /// the name shown does not depend on the input's order.
    var process: String
    /// Whether a record of the run has the filter's host and process: only these runs' lost
    /// records are counted.
    var selected = false
  }

  /// A recent call site and the group it belongs to, for the default `site` grouping.
  private struct SiteSlot {
    var kind: String
    var file: String
    var line: Int
    var group: Int
  }

  /// The fields groups are keyed by.
  public let groupBy: [GroupField]
  /// Which events count.
  public let filter: EventFilter
  private let bySite: Bool
  /// Whether the filter can refuse anything (most runs have none).
  private let filters: Bool
  private var groups: [GroupState] = []
  private var groupIndex: [[GroupKeyPart]: Int] = [:]
  private var siteSlots = [SiteSlot?](repeating: nil, count: 512)
  private var runIndex: [String: Int] = [:]
  private var runs: [RunState] = []
  private var runSlots = [(name: String, index: Int)?](repeating: nil, count: 64)
  private(set) var events = 0
  private(set) var records = 0
  private(set) var duplicates = 0
  /// Malformed lines seen.
  public private(set) var malformed = 0
  /// Other lines seen.
  public private(set) var other = 0

  /// An empty aggregation.
  /// - Parameters:
  ///   - groupBy: Grouping fields; `site` (kind, file, line) by default.
  ///   - filter: Which events count.
  public init(groupBy: [GroupField] = [.kind, .file, .line], filter: EventFilter = EventFilter()) {
    self.groupBy = groupBy
    self.filter = filter
    self.bySite = groupBy == [.kind, .file, .line]
    self.filters = !filter.isEmpty
  }

  /// Adds one classified line.
  /// - Parameter line: The line's class.
  public mutating func add(_ line: LineClass) {
    switch line {
    case .event(let event): add(event)
    case .malformed: malformed += 1
    case .other: other += 1
    case .blank: break
    }
  }

  /// Adds one event. A duplicate (same run and seq) is counted once; lost-record tracking
  /// sees every record of the runs selected, filtered or not. A run is one process start on
  /// one host, so the filter's `run`, `host` and `process` select whole runs: lost records are
  /// counted in the runs of that host and process only (and only the filter's `run` is tracked
  /// at all); the filter's other fields select records within a run.
  /// - Parameter event: The event.
  public mutating func add(_ event: MisuseEvent) {
    if let selected = filter.run, event.run != selected { return }
    let index = run(for: event)
    guard runs[index].seqs.insert(event.seq) else {
      duplicates += 1
      return
    }
    if event.process != runs[index].process, event.process < runs[index].process {
      runs[index].process = event.process
    }
    if !runs[index].selected, filter.host == nil || event.host == filter.host,
      filter.process == nil || event.process == filter.process
    {
      runs[index].selected = true
    }
    guard !filters || filter.accepts(event) else { return }
    events += event.events
    records += 1
    Aggregator.apply(event, to: &groups[group(for: event)])
  }

  /// Records `event`'s `seq` for lost-record tracking only, when its run is already known:
  /// for records read to complete a run's start, outside the window counted.
  mutating func track(_ event: MisuseEvent) {
    guard let index = runIndex[event.run] else { return }
    _ = runs[index].seqs.insert(event.seq)
  }

  /// The selected runs whose `seq` 1 has not been seen.
  var runsWithoutStart: [String] {
    runIndex.compactMap { run, index in
      runs[index].selected && !runs[index].seqs.hasFirst ? run : nil
    }.sorted()
  }

  /// The index of `event`'s run, creating it when new. Runs interleave (several processes
  /// writing one file): recent ones are found in a small direct-mapped table, keyed by the
  /// run id's first eight bytes, before the dictionary.
  private mutating func run(for event: MisuseEvent) -> Int {
    let run = event.run
    let slot =
      run.utf8.withContiguousStorageIfAvailable { bytes -> Int in
        guard bytes.count >= 8 else { return bytes.count & 63 }
        let word = UnsafeRawPointer(bytes.baseAddress!).loadUnaligned(as: UInt64.self)
        return Int(truncatingIfNeeded: (word &* 0x9e37_79b9_7f4a_7c15) >> 58)
      } ?? 0
    if let cached = runSlots[slot], cached.name == run { return cached.index }
    let index: Int
    if let known = runIndex[run] {
      index = known
    } else {
      index = runs.count
      runs.append(RunState(process: event.process))
      runIndex[run] = index
    }
    runSlots[slot] = (run, index)
    return index
  }

  private static func apply(_ event: MisuseEvent, to state: inout GroupState) {
    state.events += event.events
    state.records += 1
    state.first = min(state.first, event.timestamp)
    state.last = max(state.last, event.timestamp)
    state.processes.insert(event.process)
    state.hosts.insert(event.host)
    state.valueTypes.insert(event.valueType)
    if let label = event.label { state.labels.insert(label) }
    state.levels[event.level.rank] += event.events
    state.histogram.add(event.timestamp.microsecondsSinceEpoch, count: event.events)
  }

  /// The index of `event`'s group, creating it when new. For the default grouping, recent
  /// sites are found in a small direct-mapped table without hashing.
  private mutating func group(for event: MisuseEvent) -> Int {
    guard bySite else { return group(forKey: groupBy.map { $0.part(of: event) }) }
    var mix = UInt64(truncatingIfNeeded: event.line) &* 0x9e37_79b9_7f4a_7c15
    mix ^= UInt64(truncatingIfNeeded: event.file.utf8.count) &* 0xbf58_476d_1ce4_e5b9
    mix ^= UInt64(truncatingIfNeeded: event.kind.code.utf8.count) &* 0x94d0_49bb_1331_11eb
    let slot = Int(truncatingIfNeeded: (mix ^ (mix >> 31)) >> 55)
    if let cached = siteSlots[slot], cached.line == event.line, cached.file == event.file,
      cached.kind == event.kind.code
    {
      return cached.group
    }
    let index = group(forKey: [.text(event.kind.code), .text(event.file), .number(event.line)])
    siteSlots[slot] = SiteSlot(
      kind: event.kind.code, file: event.file, line: event.line, group: index)
    return index
  }

  private mutating func group(forKey key: [GroupKeyPart]) -> Int {
    if let index = groupIndex[key] { return index }
    groups.append(GroupState(key: key))
    groupIndex[key] = groups.count - 1
    return groups.count - 1
  }

  /// The summary of everything added so far.
  public func summary() -> Summary {
    var first: Timestamp?
    var last: Timestamp?
    for state in groups where state.records > 0 {
      first = min(first ?? state.first, state.first)
      last = max(last ?? state.last, state.last)
    }
    let start = first?.microsecondsSinceEpoch ?? 0
    let end = last?.microsecondsSinceEpoch ?? 0
    var built = groups.map { state in
      Summary.Group(
        key: state.key, events: state.events, records: state.records, first: state.first,
        last: state.last, processes: state.processes.values.sorted(),
        hosts: state.hosts.values.sorted(), valueTypes: state.valueTypes.values.sorted(),
        labels: state.labels.values.sorted(),
        levels: Dictionary(
          uniqueKeysWithValues: MisuseLevel.allCases.compactMap { level in
            state.levels[level.rank] > 0 ? (level, state.levels[level.rank]) : nil
          }),
        histogram: state.histogram.bins(Summary.histogramBins, start: start, end: end))
    }
    built.sort { lhs, rhs in
      if lhs.events != rhs.events { return lhs.events > rhs.events }
      return lhs.key.lexicographicallyPrecedes(rhs.key)
    }
    var lostRuns: [Summary.LostRun] = []
    var lost = 0
    var selectedRuns = 0
    for (run, index) in runIndex where runs[index].selected {
      let state = runs[index]
      selectedRuns += 1
      let missing = state.seqs.lost
      // Each run's count is below 2^53; only a hostile input of many runs could overflow the
      // sum, which then stays at the largest value.
      let (sum, overflow) = lost.addingReportingOverflow(missing)
      lost = overflow ? Int.max : sum
      if missing > 0 {
        lostRuns.append(Summary.LostRun(run: run, process: state.process, lost: missing))
      }
    }
    lostRuns.sort { $0.lost != $1.lost ? $0.lost > $1.lost : $0.run < $1.run }
    return Summary(
      groupBy: groupBy, events: events, records: records, malformed: malformed, other: other,
      lost: lost, duplicates: duplicates, first: first, last: last, groups: built,
      lostRuns: lostRuns, runs: selectedRuns)
  }
}
