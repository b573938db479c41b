import BindingDiagnostics
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a regular file of lines in fixed chunks of its offsets, each chunk on a worker thread
/// with `pread(2)`, and aggregates the chunks in file order on the calling thread, so counts and
/// malformed-line reports are exactly those of a serial read.
///
/// A chunk holds the lines that *start* in its byte range: it skips to the first line start at
/// or after its first offset, and reads its last line to its end past the range. Contract lines
/// become ``InternedRecord``s keyed by the chunk's own ``StringTable`` (no `String`, no event
/// per line); other lines are classified by the exact parsers, and their events interned the
/// same way. Other lines are only counted; a malformed line keeps its number and reason. The
/// aggregator then moves each chunk's ids to its own once per distinct string.
///
/// Memory is bounded whatever the file's size and line mix: the chunks in flight (twice the
/// workers, plus two) hold at most ``defaultOutputBytes`` of output each. A worker whose output
/// reaches that stops at a line start, and the aggregating thread reads the rest of the chunk
/// itself, the same budget at a time, after merging what the worker made.
struct ChunkedFileReader {
  /// Bytes of the file per chunk by default: large enough that handing a chunk from its worker
  /// to the aggregating thread is rare (smaller chunks cost more CPU on two threads; see
  /// Benchmarks/results/chunk-size.txt), small enough that the chunks in flight stay a few MiB.
  static let defaultChunkBytes = 8 << 20
  /// The most worker threads used, whatever `threads` asks.
  static let maxWorkers = 32
  /// Bytes read per `pread(2)`: small enough for the CPU's cache.
  static let pieceBytes = 256 << 10
  /// Bytes of output (records, strings, malformed-line reports) a chunk holds at most by
  /// default, plus one line's: a chunk of ordinary records (about 300 bytes a line, 72 bytes a
  /// record) stays far below it, a chunk of millions of tiny malformed lines stops at it.
  static let defaultOutputBytes = 4 << 20

  let fd: Int32
  let name: String
  let size: Int
  let maxLineBytes: Int
  let threads: Int
  /// Bytes of the file per chunk.
  let chunkBytes: Int
  /// Bytes of output a chunk holds at most before the rest of it is read apart.
  var outputBytes = ChunkedFileReader.defaultOutputBytes
  let onMalformed: (InputReader.MalformedLine) -> Void
  let onProgress: ((InputReader.Progress) -> Void)?

  /// One chunk: its range, and what a worker made of it.
  ///
  /// `@unchecked Sendable`: a worker fills it and then signals `done`; the reading thread
  /// touches it only after waiting on `done`.
  private final class Chunk: @unchecked Sendable {
    let start: Int
    /// The end of the range, `Int.max` for the last chunk (read to the end of the file, even
    /// if it grew).
    let end: Int
    var worker: Worker?
    let done = DispatchSemaphore(value: 0)

    init(start: Int, end: Int) {
      self.start = start
      self.end = end
    }
  }

  /// What a worker made of a chunk, or of the part of it its output budget allowed.
  private struct Output {
    var parser = ContractRecordParser()
    /// Every event, in line order, whichever parser read it.
    var records: [InternedRecord] = []
    /// The `journalctl -o json` entries among `records`: index and trusted identity, checked
    /// against the run they claim in file order.
    var journal: [(record: Int, identity: JournalEntryDecoder.Identity)] = []
    /// Malformed lines: 0-based line in the chunk, and why.
    var malformed: [(line: Int, reason: MalformedReason)] = []
    /// Bytes the reasons in `malformed` hold, roughly.
    var malformedBytes = 0
    /// Lines that are neither events, malformed, nor blank.
    var others = 0
    var lines = 0
    var events = 0
    var error: Int32 = 0
    /// Where the chunk's unread lines start, when the output budget stopped the read.
    var resume: Int?

    mutating func reset() {
      parser.reset()
      records.removeAll(keepingCapacity: true)
      journal.removeAll(keepingCapacity: true)
      malformed.removeAll(keepingCapacity: true)
      malformedBytes = 0
      others = 0
      lines = 0
      events = 0
      error = 0
      resume = nil
    }

    mutating func add(malformed reason: MalformedReason) {
      malformed.append((lines, reason))
      // The entry, and the reason's text when it does not fit in its `String`.
      malformedBytes &+= MemoryLayout<(Int, MalformedReason)>.stride &+ reason.text.utf8.count
    }

    /// Bytes held, roughly: what the budget is checked against, once per line.
    var bytes: Int {
      @inline(__always) get {
        records.count &* MemoryLayout<InternedRecord>.stride &+ malformedBytes
          &+ parser.bytes &+ journal.count &* 64
      }
    }
  }

  /// A worker's reusable state: its read buffer and its output.
  private final class Worker: @unchecked Sendable {
    var buffer: UnsafeMutableRawBufferPointer
    var output = Output()

    init() {
      buffer = .allocate(byteCount: ChunkedFileReader.pieceBytes, alignment: 64)
    }

    deinit { buffer.deallocate() }
  }

  /// Idle workers, reused from chunk to chunk.
  private final class WorkerPool: Sendable {
    private let free = Lock<[Worker]>([])

    func take() -> Worker {
      free.withLock { $0.popLast() } ?? Worker()
    }

    func give(_ worker: Worker) {
      free.withLock { $0.append(worker) }
    }
  }

  /// Reads the whole file into `aggregator`.
  func read(into aggregator: inout Aggregator) -> Result<Void, SystemError> {
    let chunkCount = max(
      1, (size + chunkBytes - 1) / chunkBytes)
    func chunk(_ index: Int) -> Chunk {
      let start = index * chunkBytes
      return Chunk(
        start: start,
        end: index == chunkCount - 1 ? Int.max : start + chunkBytes)
    }
    let pool = WorkerPool()
    let counting = onProgress != nil
    // The size at once: the first chunk may take a while, and a progress line shows it meanwhile.
    onProgress?(InputReader.Progress(source: name, bytes: 0, size: size, events: 0))
    var lineNumber = 0
    var owners = JournalEntryDecoder.RunOwners()
    var events = 0
    var failure: SystemError?
    let fd = self.fd
    let maxLineBytes = self.maxLineBytes
    let outputBytes = self.outputBytes
    func finish(_ chunk: Chunk) {
      guard let worker = chunk.worker else { return }
      defer { pool.give(worker) }
      while true {
        lineNumber = merge(&worker.output, from: lineNumber, owners: &owners, into: &aggregator)
        events += worker.output.events
        if worker.output.error != 0, failure == nil {
          failure = SystemError("read", code: worker.output.error)
        }
        // The budget stopped the worker: the rest of the chunk, here, a budget at a time.
        guard failure == nil, let resume = worker.output.resume else { break }
        onProgress?(
          InputReader.Progress(source: name, bytes: min(resume, size), size: size, events: events))
        ChunkedFileReader.process(
          Chunk(start: resume, end: chunk.end), fd: fd, maxLineBytes: maxLineBytes,
          outputBytes: outputBytes, worker, counting)
      }
      onProgress?(
        InputReader.Progress(source: name, bytes: min(chunk.end, size), size: size, events: events))
    }
    if threads <= 1 || chunkCount == 1 {
      for index in 0..<chunkCount where failure == nil {
        let current = chunk(index)
        let worker = pool.take()
        ChunkedFileReader.process(
          current, fd: fd, maxLineBytes: maxLineBytes, outputBytes: outputBytes, worker, counting)
        current.worker = worker
        finish(current)
      }
    } else {
      // Past a few dozen workers the aggregating thread is the limit; more would only hold
      // more chunks (memory) in flight.
      let workers = min(threads, chunkCount, ChunkedFileReader.maxWorkers)
      let queue = ChunkQueue<Chunk>(workers: workers, label: "bindiag.reader") { current in
        let worker = pool.take()
        ChunkedFileReader.process(
          current, fd: fd, maxLineBytes: maxLineBytes, outputBytes: outputBytes, worker, counting)
        current.worker = worker
        current.done.signal()
      }
      var inFlight: [Chunk] = []
      var next = 0
      func submit() {
        let current = chunk(next)
        next += 1
        inFlight.append(current)
        queue.put(current)
      }
      while next < chunkCount, inFlight.count < 2 * workers + 2 { submit() }
      while !inFlight.isEmpty {
        let oldest = inFlight.removeFirst()
        oldest.done.wait()
        if failure == nil {
          finish(oldest)
        } else if let worker = oldest.worker {
          pool.give(worker)
        }
        if failure == nil, next < chunkCount { submit() }
      }
      queue.stop()
    }
    if let failure { return .failure(failure) }
    return .success(())
  }

  /// Adds a chunk's output to `aggregator` in line order, reporting its malformed lines, and
  /// returns the line number its last line had. A `journalctl -o json` entry whose trusted
  /// identity is not its run's `owners` say is counted as forged instead. The output's records
  /// are translated to the aggregator's ids in place (``Aggregator/add(_:translating:)``): read
  /// once, they are not copied.
  private func merge(
    _ output: inout Output, from lineNumber: Int, owners: inout JournalEntryDecoder.RunOwners,
    into aggregator: inout Aggregator
  ) -> Int {
    // Journal entries whose identity is forged are left out: their strings are then found from
    // the records added (the parser's roles count every record).
    let translation =
      output.journal.isEmpty
      ? aggregator.translation(of: output.parser) : aggregator.translation(of: output.parser.table)
    let table = output.parser.table
    let journal = output.journal
    output.records.withUnsafeMutableBufferPointer { records in
      var start = 0
      for (index, identity) in journal {
        // Not translated yet: only records before `index` were added.
        let run = table.string(records[index].run)
        guard owners.owner(ofRun: run, claimedBy: identity) != nil else { continue }
        aggregator.add(
          UnsafeMutableBufferPointer(rebasing: records[start..<index]), translating: translation)
        aggregator.countForged()
        start = index + 1
      }
      aggregator.add(
        UnsafeMutableBufferPointer(rebasing: records[start...]), translating: translation)
    }
    for (line, reason) in output.malformed {
      onMalformed(
        InputReader.MalformedLine(source: name, line: lineNumber + line + 1, reason: reason.text))
    }
    aggregator.count(malformed: output.malformed.count, other: output.others)
    return lineNumber + output.lines
  }

  /// Reads and classifies the lines starting in `chunk`'s range into `worker`, until its
  /// output holds `outputBytes`, with `pread(2)` a piece at a time. (Windows of the file
  /// mapped instead cost more CPU on the machine measured: Performance.md.)
  private static func process(
    _ chunk: Chunk, fd: Int32, maxLineBytes: Int, outputBytes: Int, _ worker: Worker,
    _ counting: Bool
  ) {
    var reader = PieceReader(fd: fd, buffer: worker.buffer, maxLineBytes: maxLineBytes)
    defer { worker.buffer = reader.buffer }
    process(chunk, &reader, into: &worker.output, outputBytes: outputBytes, counting)
  }

  /// The loop of ``process(_:fd:maxLineBytes:outputBytes:_:_:)``, on values only (no class
  /// property access per line).
  private static func process(
    _ chunk: Chunk, _ reader: inout PieceReader, into output: inout Output, outputBytes: Int,
    _ counting: Bool
  ) {
    output.reset()
    defer { output.error = reader.error }
    // Room for a chunk's records at about 300 bytes a line, reserved once per worker: grown from
    // empty, the array was copied over and over in each worker's first chunk.
    let expected = min(chunk.end &- chunk.start, defaultChunkBytes) / 300
    if output.records.capacity < expected { output.records.reserveCapacity(expected) }
    if chunk.start > 0 {
      // The line holding the byte before the range belongs to the chunk before; the search
      // stops at the range's end, or every chunk inside a long line would read to its end.
      reader.offset = chunk.start - 1
      guard reader.skipPastNewline(before: chunk.end) else { return }
    }
    let first = chunk.start == 0
    // The quote bits of a line found and scanned in one pass (`bd_line_structure`).
    let quotes = UnsafeMutablePointer<UInt64>.allocate(
      capacity: ContractStructuralScanner.maxBytes / 64 + 1)
    defer { quotes.deallocate() }
    while reader.offset + reader.position < chunk.end {
      // At a line start; at least one line per call, however long.
      if output.lines > 0, output.bytes >= outputBytes {
        output.resume = reader.offset + reader.position
        return
      }
      let next: PieceReader.Line
      // 1 or 0: the line was found and scanned in one pass, and is plain or not; -1: not.
      let scanned: Int
      #if arch(x86_64)
        // Not the file's first line, which may start with a byte order mark.
        if !(first && output.lines == 0), let line = reader.nextScannedLine(quotes: quotes) {
          next = .line(line.bytes)
          scanned = line.plain ? 1 : 0
        } else {
          next = reader.nextLine(before: chunk.end)
          scanned = -1
        }
      #else
        next = reader.nextLine(before: chunk.end)
        scanned = -1
      #endif
      switch next {
      case .end:
        return
      case .tooLong:
        output.add(malformed: "line longer than \(reader.maxLineBytes) bytes")
      case .line(let line):
        let bytes = first && output.lines == 0 ? InputReader.droppingBOM(line) : line
        let parsed =
          scanned < 0
          ? output.parser.record(bytes, into: &output.records)
          : output.parser.record(bytes, quotes: quotes, plain: scanned == 1, into: &output.records)
        if parsed {
          if counting { output.events += output.records[output.records.count - 1].events }
        } else {
          var identity: JournalEntryDecoder.Identity?
          switch LineClassifier.classifyExactly(bytes, identity: &identity) {
          case .event(let event):
            if let identity { output.journal.append((output.records.count, identity)) }
            output.records.append(output.parser.record(of: event))
            if counting { output.events += event.events }
          case .malformed(let reason): output.add(malformed: reason)
          case .other: output.others += 1
          case .blank: break
          }
        }
      }
      output.lines += 1
    }
  }
}
