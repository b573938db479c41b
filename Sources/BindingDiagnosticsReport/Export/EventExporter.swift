package import BindingDiagnostics

/// Writes the events of any input, filtered, in an engine's format (``ExportFormat``): the
/// events themselves, not a summary, for `bindiag export`.
///
/// It streams: each event is encoded as it comes and the bytes are handed to `write` about
/// ``flushBytes`` at a time, so memory stays the same however many events pass (one OTLP line
/// of at most ``OTLPEncoder/batch`` records is the most held). Duplicated records (the same run
/// and seq, read twice) are written as they come: the ClickHouse queries count them once, as
/// `bindiag summary` does.
package struct EventExporter {
  /// Bytes gathered before they are handed to `write`.
  package static let flushBytes = 1 << 20

  /// Which events are written.
  package let filter: EventFilter
  /// What is written.
  package let format: ExportFormat
  /// OTLP records per line, at most.
  package let batch: Int
  /// The OTLP scope's version.
  package let version: String
  private var otlp: OTLPEncoder?
  private let rows = ClickHouseRowEncoder()
  private var buffer: [UInt8] = []
  private let write: ([UInt8]) -> Bool
  /// Records written.
  package private(set) var records = 0
  /// Events they stand for (`1 + suppressed` each).
  package private(set) var events = 0
  /// Lines (or journal entries) that looked like events but were not valid ones.
  package private(set) var malformed = 0
  /// Journal entries left out because their sender was not their run's.
  package private(set) var forged = 0
  /// Whether `write` failed: nothing more is written.
  package private(set) var writeFailed = false
  /// With a kind filter, the kinds of every event read, kept or not.
  package private(set) var kindsSeen: Set<String> = []
  /// Whether each value filter matched an event, and what was seen instead.
  package private(set) var sightings: FilterSightings

  /// An exporter.
  /// - Parameters:
  ///   - format: What to write.
  ///   - filter: Which events to write.
  ///   - batch: OTLP records per line, at most.
  ///   - version: The OTLP scope's version (the package's).
  ///   - write: Receives the bytes, whole lines at a time; returns `false` when they could not
  ///     be written, which stops the export.
  package init(
    format: ExportFormat, filter: EventFilter, batch: Int = OTLPEncoder.defaultBatch,
    version: String, write: @escaping ([UInt8]) -> Bool
  ) {
    self.filter = filter
    self.sightings = FilterSightings(filter: filter)
    self.format = format
    self.batch = batch
    self.version = version
    if format == .otlp { otlp = OTLPEncoder(batch: batch, version: version) }
    self.write = write
    buffer.reserveCapacity(EventExporter.flushBytes + (64 << 10))
  }

  /// Takes one classified line or journal entry.
  /// - Parameter line: Its class.
  /// - Returns: `false` when the output failed and reading should stop.
  package mutating func add(_ line: LineClass) -> Bool {
    switch line {
    case .event(let event): return add(event)
    case .malformed: malformed += 1
    case .other, .blank: break
    }
    return !writeFailed
  }

  /// Takes one event: written when the filter accepts it.
  /// - Parameter event: The event.
  /// - Returns: `false` when the output failed and reading should stop.
  package mutating func add(_ event: MisuseEvent) -> Bool {
    if !filter.kinds.isEmpty { kindsSeen.insert(event.kind.code) }
    if sightings.waiting { sightings.see(event) }
    guard filter.accepts(event), !writeFailed else { return !writeFailed }
    records += 1
    events += event.events
    if otlp != nil {
      otlp!.add(event, to: &buffer)
    } else {
      rows.encode(event, into: &buffer)
    }
    if buffer.count >= EventExporter.flushBytes { flush() }
    return !writeFailed
  }

  /// Takes records encoded elsewhere (a worker thread of ``ExportChunkReader``), after what
  /// was added before them.
  /// - Parameters:
  ///   - encoded: Whole rows, or whole OTLP lines.
  ///   - records: How many records they hold.
  ///   - events: How many events those stand for.
  /// - Returns: `false` when the output failed and reading should stop.
  mutating func append(encoded: [UInt8], records: Int, events: Int) -> Bool {
    guard !writeFailed else { return false }
    if otlp != nil { otlp!.finish(to: &buffer) }
    self.records += records
    self.events += events
    if encoded.count >= EventExporter.flushBytes {
      // A whole chunk's bytes: written as they are, after what was gathered, not copied.
      flush()
      if !writeFailed, !write(encoded) { writeFailed = true }
      return !writeFailed
    }
    buffer.append(contentsOf: encoded)
    if buffer.count >= EventExporter.flushBytes { flush() }
    return !writeFailed
  }

  /// Adds the kinds a worker saw (with a kind filter) to ``kindsSeen``, and its value
  /// filters' sightings to ``sightings``.
  mutating func see(kinds: Set<String>, sightings: FilterSightings) {
    if !kinds.isEmpty { kindsSeen.formUnion(kinds) }
    if self.sightings.waiting { self.sightings.merge(sightings) }
  }

  /// Counts a forged journal entry (left out).
  package mutating func countForged() { forged += 1 }

  /// Writes what is left: the last OTLP line, the bytes gathered.
  /// - Returns: `false` when the output failed.
  package mutating func finish() -> Bool {
    if otlp != nil { otlp!.finish(to: &buffer) }
    flush()
    return !writeFailed
  }

  private mutating func flush() {
    guard !buffer.isEmpty else { return }
    if !writeFailed, !write(buffer) { writeFailed = true }
    buffer.removeAll(keepingCapacity: true)
  }
}
