import BindingDiagnostics

// The filter on ids: which records it keeps, and which of its values matched nothing.
extension Aggregator {
  /// Notes which value filters `record` matches (see ``FilterCoverage``). A run record's
  /// `file` is where the pipeline was set up, not a call site, so it is never matched against
  /// `--file` nor named as a file seen.
  mutating func cover(_ record: InternedRecord, runRecord: Bool) {
    coverage.see(.host, id: record.host, matches: record.host == filterHost)
    coverage.see(.process, id: record.process, matches: record.process == filterProcess)
    coverage.see(.run, id: record.run, matches: record.run == filterRun)
    if filter.fileSubstring != nil, !runRecord {
      coverage.see(.file, id: record.file, matches: fileMatches(record.file))
    }
  }

  /// The value filters that matched no record read, each with its value and the values seen
  /// instead (at most ``FilterCoverage/maxValues``), sorted.
  package var unmatchedFilters: [(field: FilterCoverage.Field, value: String, seen: [String])] {
    coverage.unmatched().map { field, ids in
      let value: String? =
        switch field {
        case .host: filter.host
        case .process: filter.process
        case .run: filter.run
        case .file: filter.fileSubstring
        }
      return (field, value ?? "", ids.map { strings.string($0) }.sorted())
    }
  }

  /// Whether `time` (µs) is inside the filter's window.
  @inline(__always)
  func inWindow(_ time: Int64) -> Bool {
    since <= time && time <= until
  }

  mutating func see(kind: UInt32) {
    if kindSeen.count <= Int(kind) {
      kindSeen.append(contentsOf: repeatElement(false, count: Int(kind) + 1 - kindSeen.count))
    }
    kindSeen[Int(kind)] = true
  }

  /// With a kind filter, the kinds of the records seen in the runs selected, whether the
  /// filter kept them or not, sorted; empty without a kind filter.
  package var kindsSeen: [String] {
    kindSeen.indices.filter { kindSeen[$0] }.map { strings.string(UInt32($0)) }.sorted()
  }

  /// ``EventFilter/accepts(_:)`` on ids.
  mutating func accepts(_ record: InternedRecord) -> Bool {
    if !inWindow(record.timestamp) { return false }
    if !filterKinds.isEmpty, !filterKinds.contains(record.kind) { return false }
    if filter.fileSubstring != nil, !fileMatches(record.file) { return false }
    if filterProcess != InternedRecord.none, record.process != filterProcess { return false }
    if filterHost != InternedRecord.none, record.host != filterHost { return false }
    if let minimumLevel = filter.minimumLevel, record.level < minimumLevel { return false }
    if filterRun != InternedRecord.none, record.run != filterRun { return false }
    return true
  }

  /// Whether the file `id` names contains the filter's substring (remembered per id).
  mutating func fileMatches(_ file: UInt32) -> Bool {
    guard let substring = filter.fileSubstring else { return true }
    let id = Int(file)
    if fileVerdicts.count <= id {
      fileVerdicts.append(contentsOf: repeatElement(0, count: id + 1 - fileVerdicts.count))
    }
    if fileVerdicts[id] == 0 {
      fileVerdicts[id] = strings.string(file).contains(substring) ? 1 : 2
    }
    return fileVerdicts[id] == 1
  }
}
