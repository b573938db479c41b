package import BindingDiagnostics

/// Streams events into groups: memory grows with the number of groups, runs and distinct
/// strings, never with the number of events.
///
/// Every text field is kept as an id in one ``StringTable``: groups (a ``GroupTable``), runs,
/// filters and the sets of processes, hosts, types and labels compare and hash integers, and
/// strings are built only for the groups a renderer reads. Events from any source come in
/// through the same path: an event's strings are interned, a chunk of ``InternedRecord``s is
/// moved to this table's ids once per distinct string.
package struct Aggregator {
  /// The heartbeat interval a run is taken to have when its records do not show one (the
  /// sinks' default): 60 s, in µs.
  package static let defaultHeartbeatInterval: Int64 = 60_000_000

  /// The fields groups are keyed by.
  package let groupBy: [GroupField]
  /// Which events count.
  package let filter: EventFilter
  private let bySite: Bool
  /// Whether the filter can refuse anything (most runs have none).
  let filters: Bool
  /// The window's bounds (µs), inclusive: `Int64.min` and `Int64.max` without `--since` and
  /// `--until`.
  let since: Int64
  let until: Int64
  var strings = StringTable()
  var groups: GroupTable
  /// Per string id, the index of the run it names, or -1.
  private var runOf: [Int32] = []
  var runs: [RunState] = []
  var runIDs: [UInt32] = []
  /// The filter's values as ids (`none` when not set).
  let filterRun: UInt32
  let filterHost: UInt32
  let filterProcess: UInt32
  let filterKinds: Set<UInt32>
  /// Per string id, whether a file passes the filter's substring: 0 unknown, 1 yes, 2 no.
  var fileVerdicts: [UInt8] = []
  /// With a kind filter, per string id, whether a record of that kind was seen (filtered or
  /// not), so a kind asked for and never seen can be told apart from a typo.
  var kindSeen: [Bool] = []
  /// Whether the value filters (`host`, `process`, `run`, `file`) matched any record.
  var coverage: FilterCoverage
  /// The ids of the run records' kinds.
  private let heartbeatKind: UInt32
  private let endKind: UInt32
  /// The newest record's time (µs), any record read.
  var newest = Int64.min
  /// The newest record's time (µs) inside the window, any run's (`--run` selecting one or
  /// not): what the runs of an input that is not live are judged stale against.
  var windowNewest = Int64.min
  /// The time stale runs are judged against (`now` for the live journal), or `nil` for the
  /// input's newest record.
  package var staleReference: Timestamp?
  private(set) var events = 0
  private(set) var records = 0
  private(set) var duplicates = 0
  /// Malformed lines seen.
  package private(set) var malformed = 0
  /// Other lines seen.
  package private(set) var other = 0

  /// An empty aggregation.
  /// - Parameters:
  ///   - groupBy: Grouping fields; `site` (kind, file, line) by default.
  ///   - filter: Which events count.
  package init(groupBy: [GroupField] = [.kind, .file, .line], filter: EventFilter = EventFilter()) {
    // Each field once (as `GroupField.parseList` gives them), so a key of all ten fits its
    // sixteen lanes.
    var fields: [GroupField] = []
    for field in groupBy where !fields.contains(field) { fields.append(field) }
    self.groupBy = fields
    self.filter = filter
    self.bySite = fields == [.kind, .file, .line]
    self.filters = !filter.isEmpty
    since = filter.since?.microsecondsSinceEpoch ?? .min
    until = filter.until?.microsecondsSinceEpoch ?? .max
    groups = GroupTable(width: fields.count)
    var table = StringTable()
    func id(_ text: String?) -> UInt32 { text.map { table.intern($0) } ?? InternedRecord.none }
    filterRun = id(filter.run)
    filterHost = id(filter.host)
    filterProcess = id(filter.process)
    filterKinds = Set(filter.kinds.map { table.intern($0) })
    heartbeatKind = table.intern(MisuseKind.runHeartbeat.code)
    endKind = table.intern(MisuseKind.runEnd.code)
    strings = table
    coverage = FilterCoverage(filter: filter)
  }

  /// Adds one classified line.
  /// - Parameter line: The line's class.
  package mutating func add(_ line: LineClass) {
    switch line {
    case .event(let event): add(event)
    case .malformed: malformed += 1
    case .other: other += 1
    case .blank: break
    }
  }

  /// Journal entries whose trusted identity is not that of the run they claim.
  private(set) var forged = 0

  /// Counts a forged journal entry (neither a record nor a loss of the run it claims).
  mutating func countForged() { forged += 1 }

  /// Counts lines that are not events, as many ``add(_:)-(LineClass)`` calls would.
  mutating func count(malformed: Int, other: Int) {
    self.malformed += malformed
    self.other += other
  }

  /// Adds one event. A duplicate (same run and seq) is counted once; lost-record tracking
  /// sees every record of the runs selected, filtered or not. A run is one process start on
  /// one host, so the filter's `run`, `host` and `process` select whole runs: lost records are
  /// counted in the runs of that host and process only (and only the filter's `run` is tracked
  /// at all); the filter's other fields select records within a run.
  /// - Parameter event: The event.
  package mutating func add(_ event: MisuseEvent) {
    if let selected = filter.run, !EventFilter.same(event.run, selected) {
      if coverage.waiting { coverage.see(.run, id: strings.intern(event.run), matches: false) }
      see(time: event.timestamp.microsecondsSinceEpoch)
      return
    }
    var record = record(of: event)
    let run = run(of: record)
    var runs: [RunState] = []
    swap(&runs, &self.runs)
    defer { swap(&runs, &self.runs) }
    runs.withUnsafeMutableBufferPointer { runs in
      withUnsafeMutablePointer(to: &record) { add($0, run: runs.baseAddress! + run) }
    }
  }

  /// A chunk's strings, to be moved to this aggregator's table by ``add(_:translating:)``.
  struct Translation {
    /// A bit of ``roles``: the string is a field every record's aggregation reads (kind, file,
    /// function, type, process, host, run, writer). Above the bits
    /// ``ContractRecordParser`` keeps its format verdicts in, in the same array.
    static let kept: UInt8 = 64
    /// A bit of ``roles``: the string is a record's test (moved only to group by tests).
    static let test: UInt8 = 128

    let table: StringTable
    /// Per id of `table`, the roles (``kept``, ``test``; other bits ignored) of its uses by
    /// the chunk's records: a string used only as a label has neither. `nil`: not known, found
    /// from the records added.
    let roles: [UInt8]?
  }

  /// What ``add(_:translating:)`` takes to add records made with `table`.
  func translation(of table: StringTable) -> Translation {
    Translation(table: table, roles: nil)
  }

  /// What ``add(_:translating:)`` takes to add records made by `parser` since its last reset,
  /// every one of them (a string only a record left out uses would be moved all the same).
  func translation(of parser: ContractRecordParser) -> Translation {
    Translation(table: parser.table, roles: parser.roles)
  }

  /// Adds records whose ids are those of a chunk's table (see ``translation(of:)``), moved to
  /// this table's ids once per distinct string, a batch at a time. Labels not grouped by are
  /// moved only when a group keeps them: a million distinct labels, most of which a group's
  /// full list of labels refuses, are never interned here.
  /// - Parameter chunk: The records, translated in place (so not copied): once added, their
  ///   ids are this table's, or `none`, and no longer the chunk's.
  mutating func add(
    _ chunk: UnsafeMutableBufferPointer<InternedRecord>, translating translation: Translation
  ) {
    let table = translation.table
    let lazyLabels = !groupBy.contains(.label)
    let byTest = groupBy.contains(.test)
    var roles: [UInt8]?
    if lazyLabels {
      roles = translation.roles
      if roles == nil {
        let kept = Translation.kept
        var marks = [UInt8](repeating: 0, count: table.count)
        for record in chunk {
          marks[Int(record.kind)] = kept
          marks[Int(record.file)] = kept
          marks[Int(record.function)] = kept
          marks[Int(record.valueType)] = kept
          marks[Int(record.process)] = kept
          marks[Int(record.host)] = kept
          marks[Int(record.run)] = kept
          if record.writer != InternedRecord.none { marks[Int(record.writer)] = kept }
          if byTest, record.test != InternedRecord.none {
            marks[Int(record.test)] |= Translation.test
          }
        }
        roles = marks
      }
    }
    let ids = strings.ids(
      of: table, roles: roles, moving: Translation.kept | (byTest ? Translation.test : 0))
    let labels = lazyLabels ? table : nil
    // A batch of records at a time: translated to this table's ids in place in one tight pass,
    // each one's run found, then added through pointers (a record, 96 bytes, is not copied from
    // call to call). A batch, not the chunk, so its records are still in the cache when added.
    guard let base = chunk.baseAddress else { return }
    let capacity = min(chunk.count, Aggregator.batch)
    let runIndices = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
    defer { runIndices.deallocate() }
    var start = 0
    while start < chunk.count {
      let count = min(capacity, chunk.count - start)
      let translated = base + start
      ids.withUnsafeBufferPointer { map in
        for index in 0..<count {
          let record = translated + index
          record.pointee.kind = map[Int(record.pointee.kind)]
          record.pointee.file = map[Int(record.pointee.file)]
          record.pointee.function = map[Int(record.pointee.function)]
          record.pointee.valueType = map[Int(record.pointee.valueType)]
          let label = record.pointee.label
          if label != InternedRecord.none, !lazyLabels { record.pointee.label = map[Int(label)] }
          // Tests are kept only to group by them; a group keeps its writers (CI reports name
          // them).
          let test = record.pointee.test
          if test != InternedRecord.none {
            record.pointee.test = byTest ? map[Int(test)] : InternedRecord.none
          }
          let writer = record.pointee.writer
          if writer != InternedRecord.none { record.pointee.writer = map[Int(writer)] }
          record.pointee.process = map[Int(record.pointee.process)]
          record.pointee.host = map[Int(record.pointee.host)]
          let run = map[Int(record.pointee.run)]
          record.pointee.run = run
          // Runs new to the batch are made here, in the order their first records come (as
          // record by record would), so that none is made in the loop below: it holds the runs'
          // storage once per batch, not once per record.
          runIndices[index] =
            filterRun != InternedRecord.none && run != filterRun
            ? -1 : Int32(truncatingIfNeeded: self.run(of: record.pointee))
        }
      }
      var runs: [RunState] = []
      swap(&runs, &self.runs)
      runs.withUnsafeMutableBufferPointer { runs in
        for index in 0..<count {
          let record = translated + index
          let run = Int(runIndices[index])
          guard run >= 0 else {
            if coverage.waiting { coverage.see(.run, id: record.pointee.run, matches: false) }
            see(time: record.pointee.timestamp)
            continue
          }
          add(record, run: runs.baseAddress! + run, labelsIn: labels)
        }
      }
      swap(&runs, &self.runs)
      start += count
    }
  }

  /// Records per batch in ``add(_:translating:)``.
  private static let batch = 2048

  /// Records `event`'s `seq` for lost-record tracking only, when its run is already known:
  /// for records read to complete a run's start, outside the window counted.
  mutating func track(_ event: MisuseEvent) {
    let run = strings.intern(event.run)
    guard Int(run) < runOf.count, runOf[Int(run)] >= 0 else { return }
    _ = runs[Int(runOf[Int(run)])].seqs.insert(event.seq)
  }

  /// The selected runs with a record in the window whose `seq` 1 has not been seen.
  var runsWithoutStart: [String] {
    runs.indices.compactMap { index in
      runs[index].selected && runs[index].inWindow && !runs[index].seqs.hasFirst
        ? strings.string(runIDs[index]) : nil
    }.sorted()
  }

  /// `event` with its strings interned.
  mutating func record(of event: MisuseEvent) -> InternedRecord {
    InternedRecord(
      timestamp: event.timestamp.microsecondsSinceEpoch, line: event.line, seq: event.seq,
      suppressed: event.suppressed, kind: strings.intern(event.kind.code),
      file: strings.intern(event.file), function: strings.intern(event.function),
      valueType: strings.intern(event.valueType),
      label: event.label.map { strings.intern($0) } ?? InternedRecord.none,
      test: groupBy.contains(.test)
        ? event.test.map { strings.intern($0) } ?? InternedRecord.none : InternedRecord.none,
      writer: event.writer.map { strings.intern($0) } ?? InternedRecord.none,
      process: strings.intern(event.process), host: strings.intern(event.host),
      run: strings.intern(event.run), level: event.level, runRecords: event.runRecords ?? -1,
      runDropped: event.runDropped ?? -1)
  }

  /// Adds one record whose ids are this table's.
  /// - Parameters:
  ///   - record: The record; its label is changed to this table's id (or `none`).
  ///   - run: Its run (``run(of:)``), out of ``runs`` while records are added.
  ///   - labels: The table of `record`'s label when only its id there is known.
  @inline(__always)
  private mutating func add(
    _ record: UnsafeMutablePointer<InternedRecord>, run: UnsafeMutablePointer<RunState>,
    labelsIn labels: StringTable? = nil
  ) {
    let kind = record.pointee.kind
    let time = record.pointee.timestamp
    // Run records tell where a run stands and how far it went; they are never events.
    let isRunRecord = kind == heartbeatKind || kind == endKind
    if coverage.waiting { cover(record.pointee, runRecord: isRunRecord) }
    let selects =
      (filterHost == InternedRecord.none || record.pointee.host == filterHost)
      && (filterProcess == InternedRecord.none || record.pointee.process == filterProcess)
    guard
      run.pointee.take(
        record, strings: strings, selects: selects, inside: inWindow(time),
        runRecord: isRunRecord, end: kind == endKind)
    else {
      duplicates += 1
      return
    }
    see(time: time)
    if isRunRecord { return }
    if !filterKinds.isEmpty { see(kind: kind) }
    guard !filters || accepts(record.pointee) else { return }
    events += record.pointee.events
    records += 1
    let group = group(of: record.pointee)
    if let labels, record.pointee.label != InternedRecord.none {
      let label = record.pointee.label
      record.pointee.label = labels.withBytes(label) { bytes in
        groups.refusesLabel(bytes, in: group, strings: strings)
          ? InternedRecord.none : strings.intern(bytes, hash: labels.hash(of: label)).id
      }
    }
    groups.add(record, to: group, strings: strings)
  }

  /// Notes a record's time (µs) for ``newest`` and ``windowNewest``: a record of any run, even
  /// one `--run` leaves out.
  @inline(__always)
  private mutating func see(time: Int64) {
    if time > newest { newest = time }
    if time > windowNewest, inWindow(time) { windowNewest = time }
  }

  /// Marks `run` as begun by a user other than root and the reader (its first journal entry's
  /// trusted `_UID`): anyone may log, so such a run's losses are counted apart
  /// (``Summary/otherUsersLost``) and never decide the reader's gate. A run not seen is ignored.
  package mutating func markOtherUser(run: String) {
    let id = strings.intern(run)
    guard Int(id) < runOf.count, runOf[Int(id)] >= 0 else { return }
    runs[Int(runOf[Int(id)])].otherUser = true
  }

  /// The index of `record`'s run, creating it when new.
  @inline(__always)
  mutating func run(of record: InternedRecord) -> Int {
    let id = Int(record.run)
    if id < runOf.count, runOf[id] >= 0 { return Int(runOf[id]) }
    if runOf.count <= id {
      runOf.append(contentsOf: repeatElement(-1, count: max(id + 1, strings.count) - runOf.count))
    }
    runOf[id] = Int32(runs.count)
    runs.append(RunState(process: record.process, host: record.host))
    runIDs.append(record.run)
    return runs.count - 1
  }

  /// The index of `record`'s group, creating it when new.
  @inline(__always)
  mutating func group(of record: InternedRecord) -> Int {
    var key = SIMD16<Int64>.zero
    if bySite {
      key[0] = Int64(record.kind)
      key[1] = Int64(record.file)
      key[2] = Int64(record.line)
    } else {
      for (position, field) in groupBy.enumerated() {
        key[position] = Aggregator.part(field, of: record)
      }
    }
    return groups.index(of: key, level: record.level)
  }

  /// A field's id (or the line number) in a record.
  private static func part(_ field: GroupField, of record: InternedRecord) -> Int64 {
    switch field {
    case .kind: Int64(record.kind)
    case .file: Int64(record.file)
    case .line: Int64(record.line)
    case .function: Int64(record.function)
    case .valueType: Int64(record.valueType)
    case .process: Int64(record.process)
    case .host: Int64(record.host)
    case .label: Int64(record.label)
    case .test: Int64(record.test)
    case .writer: Int64(record.writer)
    }
  }

}
