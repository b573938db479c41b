import BindingDiagnostics
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Exports a regular file of lines in chunks of its offsets, each chunk read (`pread(2)`),
/// classified, filtered and encoded on a worker thread, the chunks' bytes handed on in file
/// order: what ``InputReader/export(path:into:)`` does with a file when more than one
/// processor is there, so that export keeps pace with the disk.
///
/// A chunk holds the lines that *start* in its byte range (it skips to the first line start at
/// or after its first offset and reads its last line to its end past the range), so the lines,
/// their numbers and malformed-line reports are those of a serial read. A chunk that holds a
/// `journalctl -o json` entry is handed on as events instead of bytes: a journal entry's
/// trusted identity is checked against its run's in file order, on the calling thread, as the
/// serial reader does. OTLP batches end with their chunk, so a line may hold fewer than
/// `--batch` records. At most twice the workers plus two chunks are in flight, each at most
/// ``chunkBytes`` of input and its encoded output: memory stays the same whatever the file's
/// size.
struct ExportChunkReader {
  /// Bytes of the file per chunk.
  static let chunkBytes = 2 << 20

  let fd: Int32
  let name: String
  let size: Int
  let maxLineBytes: Int
  let threads: Int

  /// One chunk: its range, and what a worker made of it.
  ///
  /// `@unchecked Sendable`: a worker fills it and then signals `done`; the reading thread
  /// touches it only after waiting on `done`.
  private final class Chunk: @unchecked Sendable {
    let start: Int
    let end: Int
    let done = DispatchSemaphore(value: 0)
    /// The encoded records, when the chunk holds no journal entry.
    var bytes: [UInt8] = []
    var records = 0
    var events = 0
    /// Every event of the chunk with its journal identity, unfiltered, when it holds a
    /// journal entry.
    var journal: [(event: MisuseEvent, identity: JournalEntryDecoder.Identity?)]?
    /// Malformed lines: 0-based line in the chunk, and why.
    var malformed: [(line: Int, reason: String)] = []
    var lines = 0
    var kinds: Set<String> = []
    /// The value filters' sightings of the chunk's events that are not journal entries (those
    /// are seen when added, after the forged ones are left out).
    var sightings = FilterSightings(filter: EventFilter())
    var error: SystemError?

    init(start: Int, end: Int) {
      self.start = start
      self.end = end
    }
  }

  /// Exports the whole file into `exporter`.
  /// - Parameters:
  ///   - exporter: Where the records go.
  ///   - onMalformed: Receives each malformed line, in file order.
  ///   - forged: Receives each forged journal entry.
  /// - Returns: The read error, if reading failed part-way (what was read before it counts).
  func read(
    into exporter: inout EventExporter, onMalformed: (InputReader.MalformedLine) -> Void,
    forged: (InputReader.ForgedEntry) -> Void
  ) -> Result<Void, SystemError> {
    let chunkCount = max(1, (size + ExportChunkReader.chunkBytes - 1) / ExportChunkReader.chunkBytes)
    let workers = max(1, min(threads, chunkCount, 32))
    let work = Work(
      fd: fd, size: size, maxLineBytes: maxLineBytes, filter: exporter.filter,
      format: exporter.format, batch: exporter.batch, version: exporter.version)
    let queue = ChunkQueue<Chunk>(workers: workers, label: "bindiag.export") { chunk in
      work.process(chunk)
      chunk.done.signal()
    }
    var inFlight: [Chunk] = []
    var next = 0
    func submit() {
      let start = next * ExportChunkReader.chunkBytes
      let end = next == chunkCount - 1 ? Int.max : start + ExportChunkReader.chunkBytes
      let chunk = Chunk(start: start, end: end)
      next += 1
      inFlight.append(chunk)
      queue.put(chunk)
    }
    var owners = JournalEntryDecoder.RunOwners()
    var lineNumber = 0
    var failure: SystemError?
    while next < chunkCount, inFlight.count < 2 * workers + 2 { submit() }
    while !inFlight.isEmpty {
      let chunk = inFlight.removeFirst()
      chunk.done.wait()
      if failure == nil, !exporter.writeFailed {
        for (line, reason) in chunk.malformed {
          onMalformed(
            InputReader.MalformedLine(source: name, line: lineNumber + line + 1, reason: reason))
        }
        lineNumber += chunk.lines
        exporter.see(kinds: chunk.kinds, sightings: chunk.sightings)
        if let journal = chunk.journal {
          for (event, identity) in journal {
            if let identity, let owner = owners.owner(ofRun: event.run, claimedBy: identity) {
              exporter.countForged()
              forged(InputReader.ForgedEntry(event, sender: identity, owner: owner))
              continue
            }
            _ = exporter.add(event)
          }
        } else {
          _ = exporter.append(encoded: chunk.bytes, records: chunk.records, events: chunk.events)
        }
        failure = chunk.error
      }
      if failure == nil, !exporter.writeFailed, next < chunkCount { submit() }
    }
    queue.stop()
    if let failure { return .failure(failure) }
    return .success(())
  }

  /// What every worker needs, shared read-only.
  private struct Work: Sendable {
    let fd: Int32
    let size: Int
    let maxLineBytes: Int
    let filter: EventFilter
    let format: ExportFormat
    let batch: Int
    let version: String

    /// Reads `chunk`'s lines and encodes them (or keeps them as events, see ``Chunk/journal``).
    func process(_ chunk: Chunk) {
      let readStart = max(0, chunk.start - 1)
      var buffer: [UInt8] = []
      // The range and the rest of its last line, room made once (growing copied it).
      buffer.reserveCapacity(min(chunk.end, size) - readStart + (64 << 10))
      // The range, then on to the end of its last line (past `maxLineBytes`, that line is
      // malformed whatever follows, so reading stops there).
      guard read(from: readStart, to: chunk.end, into: &buffer, chunk) else { return }
      if chunk.end != Int.max, buffer.last != 0x0a {
        var extended = 0
        while buffer.last != 0x0a, extended <= maxLineBytes {
          let before = buffer.count
          guard read(from: readStart + before, to: readStart + before + (64 << 10), into: &buffer, chunk)
          else { return }
          if buffer.count == before { break }
          // Only the piece up to its first newline belongs to this chunk's last line.
          if let newline = buffer[before...].firstIndex(of: 0x0a) {
            buffer.removeSubrange((newline + 1)...)
            break
          }
          extended += buffer.count - before
        }
      }
      buffer.withUnsafeBufferPointer { all in
        // Contract lines go to OTLP straight from their bytes (``OTLPRecords``) when the
        // filter can be judged on their fields; a chunk that turns out to hold a journal entry
        // is read again as events.
        if format == .otlp, Work.judgesFields(filter), scan(all, chunk, fast: true) {
          return
        }
        _ = scan(all, chunk, fast: false)
      }
    }

    /// The offset of the first `\n` at or after `start`, found by `memchr`.
    @inline(__always)
    static func newline(in all: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
      guard start < all.count,
        let found = memchr(all.baseAddress! + start, 0x0a, all.count - start)
      else { return nil }
      return UnsafeRawPointer(all.baseAddress!).distance(to: UnsafeRawPointer(found))
    }

    /// Whether `filter` can be applied to a contract line's fields without its event: it
    /// keeps every event, or selects by time and level only.
    static func judgesFields(_ filter: EventFilter) -> Bool {
      filter.kinds.isEmpty && filter.fileSubstring == nil && filter.process == nil
        && filter.host == nil && filter.run == nil
    }

    /// Whether `filter` keeps a contract line with these fields (``judgesFields(_:)`` holds).
    static func accepts(_ fields: ContractFastParser.Fields, _ filter: EventFilter) -> Bool {
      if let since = filter.since, fields.timestamp < since { return false }
      if let until = filter.until, until < fields.timestamp { return false }
      if let minimum = filter.minimumLevel, fields.level < minimum { return false }
      return true
    }

    /// Reads the lines of the chunk in `all` and encodes them; with `fast`, contract lines are
    /// encoded from their bytes. `false` (nothing kept) when `fast` met a journal entry.
    private func scan(_ all: UnsafeBufferPointer<UInt8>, _ chunk: Chunk, fast: Bool) -> Bool {
      chunk.lines = 0
      chunk.malformed = []
      chunk.kinds = []
      chunk.sightings = FilterSightings(filter: filter)
      var classifier = LineClassifier()
      var scanner = ContractLineScanner()
      var journal: [(event: MisuseEvent, identity: JournalEntryDecoder.Identity?)] = []
      var records = OTLPRecords()
      // The first line starting at or after `chunk.start`.
      var position: Int
      if chunk.start == 0 {
        position = 0
      } else {
        guard let newline = all.firstIndex(of: 0x0a) else { return true }
        position = newline + 1
      }
      let readStart = max(0, chunk.start - 1)
      while position < all.count, readStart + position < chunk.end {
        let end = Work.newline(in: all, from: position) ?? all.count
        let line = chunk.lines
        chunk.lines += 1
        defer { position = end + 1 }
        if end - position > maxLineBytes {
          chunk.malformed.append((line, "line longer than \(maxLineBytes) bytes"))
          continue
        }
        var bytes = UnsafeBufferPointer(rebasing: all[position..<end])
        if chunk.start == 0 && line == 0 { bytes = InputReader.droppingBOM(bytes) }
        if fast, let fields = scanner.fields(bytes) {
          if Work.accepts(fields, filter) { records.append(line: bytes, fields) }
          continue
        }
        switch classifier.classify(bytes) {
        case .event(let event):
          if !filter.kinds.isEmpty { chunk.kinds.insert(event.kind.code) }
          let identity = classifier.journalIdentity
          if identity == nil, chunk.sightings.waiting { chunk.sightings.see(event) }
          if fast {
            if identity != nil { return false }
            if filter.accepts(event) { records.append(event) }
          } else {
            journal.append((event, identity))
          }
        case .malformed(let reason): chunk.malformed.append((line, reason.text))
        case .other, .blank: break
        }
      }
      if journal.contains(where: { $0.identity != nil }) {
        chunk.journal = journal
        return true
      }
      if format == .otlp {
        if !fast {
          for (event, _) in journal where filter.accepts(event) { records.append(event) }
        }
        chunk.records = records.count
        chunk.events = records.eventCount
        chunk.bytes = records.encoded(batch: batch, version: version)
        return true
      }
      var out: [UInt8] = []
      // A ClickHouse row takes about as many bytes as the record it was read from.
      out.reserveCapacity(all.count + all.count / 4)
      let rows = ClickHouseRowEncoder()
      for (event, _) in journal where filter.accepts(event) {
        chunk.records += 1
        chunk.events += event.events
        rows.encode(event, into: &out)
      }
      chunk.bytes = out
      return true
    }

    /// Appends the bytes from `start` to `end` (or the end of the file) to `buffer`; `false`
    /// after a read error, kept in `chunk`.
    private func read(from start: Int, to end: Int, into buffer: inout [UInt8], _ chunk: Chunk)
      -> Bool
    {
      var offset = start
      while offset < end {
        let count = min(end - offset, 256 << 10)
        let before = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: count))
        let result = buffer.withUnsafeMutableBytes {
          FileDescriptorIO.read(
            fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[before...]), at: offset)
        }
        switch result {
        case .success(let got):
          buffer.removeLast(count - got)
          if got == 0 { return true }
          offset += got
        case .failure(let error):
          buffer.removeLast(count)
          chunk.error = error
          return false
        }
      }
      return true
    }
  }
}
