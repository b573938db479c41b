public import BindingDiagnostics
import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads files, standard input and the journal into an ``Aggregator``.
public struct InputReader {
  /// A malformed line: where, and why.
  public struct MalformedLine: Sendable, Hashable {
    /// The file's path as named, or `<stdin>`, or `journal`.
    public var source: String
    /// 1-based line number (entry number for the journal).
    public var line: Int
    /// Why it is not a valid event.
    public var reason: String
  }

  /// Lines longer than this are malformed (`--max-line-bytes`).
  public var maxLineBytes: Int
  /// Called for every malformed line, in input order.
  public var onMalformed: (MalformedLine) -> Void
  /// Called now and then with the source and the bytes read so far from it.
  public var onProgress: ((String, Int) -> Void)?

  /// A reader.
  /// - Parameters:
  ///   - maxLineBytes: The longest valid line, 1 MiB by default.
  ///   - onMalformed: Receives each malformed line.
  public init(
    maxLineBytes: Int = 1 << 20, onMalformed: @escaping (MalformedLine) -> Void = { _ in }
  ) {
    self.maxLineBytes = maxLineBytes
    self.onMalformed = onMalformed
  }

  /// Reads one file (or standard input for `-`) into `aggregator`.
  /// - Parameters:
  ///   - path: A file path, or `-` for standard input.
  ///   - aggregator: Where events and line counts go.
  /// - Returns: The read error, if the file could not be read (what was read before it counts).
  public func read(path: String, into aggregator: inout Aggregator) -> Result<Void, SystemError> {
    let fd: Int32
    let name: String
    if path == "-" {
      fd = 0
      name = "<stdin>"
    } else {
      fd = open(path, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else { return .failure(SystemError("open", code: errno)) }
      name = path
    }
    defer { if fd != 0 { close(fd) } }
    var info = stat()
    if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
      return .failure(SystemError("read", code: EISDIR))
    }
    return read(fd: fd, name: name, into: &aggregator)
  }

  /// Reads an open descriptor to its end into `aggregator`.
  /// - Parameters:
  ///   - fd: The descriptor.
  ///   - name: The name used in malformed-line reports.
  ///   - aggregator: Where events and line counts go.
  /// - Returns: The read error, if reading failed part-way.
  public func read(fd: Int32, name: String, into aggregator: inout Aggregator) -> Result<
    Void, SystemError
  > {
    var info = stat()
    if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
      info.st_size >= InputReader.parallelThreshold
    {
      return readInParallel(fd: fd, name: name, into: &aggregator)
    }
    return classifyLines(fd: fd, name: name) { kind, _ in
      aggregator.add(kind)
      return true
    }
  }

  /// Files at least this large are classified on worker threads while this one aggregates.
  static let parallelThreshold = 8 << 20

  /// Lines of one chunk, classified on a worker thread.
  ///
  /// `@unchecked Sendable`: the worker writes `classes` and then signals `done`; the reading
  /// thread reads `classes` only after waiting on `done`.
  private final class Chunk: @unchecked Sendable {
    var bytes: [UInt8] = []
    /// Where each line ends in `bytes`; `nil` for a line that was too long to keep.
    var ends: [Int?] = []
    let firstLine: Int
    var classes: [LineClass] = []
    let done = DispatchSemaphore(value: 0)

    init(firstLine: Int) {
      self.firstLine = firstLine
      bytes.reserveCapacity(InputReader.chunkBytes + 4096)
    }

    func classify(maxLineBytes: Int, pool: ClassifierPool) {
      var classifier = pool.take()
      defer { pool.give(classifier) }
      classes.reserveCapacity(ends.count)
      var start = 0
      bytes.withUnsafeBufferPointer { buffer in
        for end in ends {
          guard let end else {
            classes.append(.malformed("line longer than \(maxLineBytes) bytes"))
            continue
          }
          classes.append(classifier.classify(UnsafeBufferPointer(rebasing: buffer[start..<end])))
          start = end
        }
      }
    }
  }

  static let chunkBytes = 2 << 20

  /// Classifiers kept warm between chunks: their caches already hold the stream's values.
  private final class ClassifierPool: Sendable {
    private let free = Mutex<[LineClassifier]>([])

    func take() -> LineClassifier {
      free.withLock { $0.popLast() } ?? LineClassifier()
    }

    func give(_ classifier: LineClassifier) {
      free.withLock { $0.append(classifier) }
    }
  }

  /// Splits the input into chunks of whole lines on this thread, classifies them on worker
  /// threads (at most four chunks in flight, so memory stays bounded), and aggregates the
  /// results here in input order, so counts and malformed-line reports match a serial read.
  private func readInParallel(fd: Int32, name: String, into aggregator: inout Aggregator) -> Result<
    Void, SystemError
  > {
    var inFlight: [Chunk] = []
    var current = Chunk(firstLine: 1)
    var bytesRead = 0
    var nextProgress = 64 << 20
    let maxLineBytes = self.maxLineBytes
    let pool = ClassifierPool()
    func finishOldest() {
      let chunk = inFlight.removeFirst()
      chunk.done.wait()
      for (offset, kind) in chunk.classes.enumerated() {
        if case .malformed(let reason) = kind {
          onMalformed(
            MalformedLine(source: name, line: chunk.firstLine + offset, reason: reason.text))
        }
        aggregator.add(kind)
      }
    }
    func submit(_ chunk: Chunk) {
      inFlight.append(chunk)
      DispatchQueue.global().async {
        chunk.classify(maxLineBytes: maxLineBytes, pool: pool)
        chunk.done.signal()
      }
      if inFlight.count >= 4 { finishOldest() }
    }
    let result = LineReader(fd: fd, maxLineBytes: maxLineBytes).forEachLine { line, number in
      switch line {
      case .tooLong:
        current.ends.append(nil)
        bytesRead += maxLineBytes
      case .text(let bytes):
        current.bytes.append(contentsOf: bytes)
        current.ends.append(current.bytes.count)
        bytesRead += bytes.count + 1
      }
      if current.bytes.count >= InputReader.chunkBytes {
        submit(current)
        current = Chunk(firstLine: number + 1)
      }
      if let onProgress, bytesRead >= nextProgress {
        onProgress(name, bytesRead)
        nextProgress += 64 << 20
      }
      return true
    }
    if !current.ends.isEmpty { submit(current) }
    while !inFlight.isEmpty { finishOldest() }
    return result.map { _ in () }
  }

  /// Classifies each line of `fd` as it arrives (a pipe is handed over line by line), reporting
  /// malformed ones to ``onMalformed`` too, until the end or until `body` returns `false`.
  /// - Parameters:
  ///   - fd: The descriptor.
  ///   - name: The name used in malformed-line reports.
  ///   - body: Receives each line's class and number.
  /// - Returns: The read error, if reading failed part-way.
  public func classifyLines(
    fd: Int32, name: String, _ body: (LineClass, Int) -> Bool
  ) -> Result<Void, SystemError> {
    var classifier = LineClassifier()
    var bytesRead = 0
    var nextProgress = 64 << 20
    let reader = LineReader(fd: fd, maxLineBytes: maxLineBytes)
    let result = reader.forEachLine { line, number in
      let kind: LineClass
      switch line {
      case .tooLong:
        kind = .malformed("line longer than \(maxLineBytes) bytes")
        bytesRead += maxLineBytes
      case .text(let bytes):
        bytesRead += bytes.count + 1
        kind = classifier.classify(bytes)
      }
      if case .malformed(let reason) = kind {
        onMalformed(MalformedLine(source: name, line: number, reason: reason.text))
      }
      if let onProgress, bytesRead >= nextProgress {
        onProgress(name, bytesRead)
        nextProgress += 64 << 20
      }
      return body(kind, number)
    }
    return result.map { _ in () }
  }

  /// Reads journal entries with `BINDING_SCHEMA=1` (and the filter's kind, process and host as
  /// journal matches, its `since` as the start) into `aggregator`.
  /// - Parameters:
  ///   - directory: A journal directory, or `nil` for the local journal.
  ///   - aggregator: Where events go.
  /// - Returns: Why the journal could not be read.
  public func readJournal(directory: String?, into aggregator: inout Aggregator) -> Result<
    Void, JournalError
  > {
    var query = JournalReader.Query(
      source: directory.map { .directory($0) } ?? .local,
      matches: InputReader.journalMatches(aggregator.filter), fields: EventDecoder.journalFields,
      since: aggregator.filter.since.map { UInt64(max(0, $0.microsecondsSinceEpoch)) })
    query.follow = false
    let box = AggregatorBox(aggregator)
    let onMalformed = self.onMalformed
    var number = 0
    let result = JournalReader.read(query) { entry in
      number += 1
      let kind = InputReader.classify(entry)
      if case .malformed(let reason) = kind {
        onMalformed(MalformedLine(source: "journal", line: number, reason: reason.text))
      }
      box.value.add(kind)
      return true
    }
    aggregator = box.value
    return result
  }

  /// Follows the journal, handing each new matching entry's class to `handler` until it
  /// returns `false`.
  /// - Parameters:
  ///   - directory: A journal directory, or `nil` for the local journal.
  ///   - filter: Matches and start time.
  ///   - fromTail: Start at the end (only new entries) unless `since` is set.
  ///   - handler: Receives each entry's class.
  /// - Returns: Why the journal could not be read.
  public static func followJournal(
    directory: String?, filter: EventFilter, handler: @escaping (LineClass) -> Bool
  ) -> Result<Void, JournalError> {
    let query = JournalReader.Query(
      source: directory.map { .directory($0) } ?? .local, matches: journalMatches(filter),
      fields: EventDecoder.journalFields,
      since: filter.since.map { UInt64(max(0, $0.microsecondsSinceEpoch)) }
        ?? UInt64(max(0, Timestamp.now().microsecondsSinceEpoch)),
      follow: true)
    return JournalReader.read(query) { handler(classify($0)) }
  }

  static func journalMatches(_ filter: EventFilter) -> [String] {
    var matches = ["BINDING_SCHEMA=1"]
    matches += filter.kinds.sorted().map { "BINDING_KIND=\($0)" }
    if let process = filter.process { matches.append("SYSLOG_IDENTIFIER=\(process)") }
    if let host = filter.host { matches.append("_HOSTNAME=\(host)") }
    if let run = filter.run { matches.append("BINDING_RUN=\(run)") }
    return matches
  }

  static func classify(_ entry: JournalReader.Entry) -> LineClass {
    let values = entry.values.map { $0.map { String(decoding: $0, as: UTF8.self) } }
    switch EventDecoder.decodeJournal(values, realtime: Int64(entry.realtime)) {
    case .success(let event): return .event(event)
    case .failure(let reason): return .malformed(reason)
    }
  }

  /// Carries the aggregator into the journal reader's thread and back.
  ///
  /// `@unchecked Sendable`: the reader thread is the only one touching it while the read runs;
  /// the calling thread waits for the read to end before it reads `value` again.
  private final class AggregatorBox: @unchecked Sendable {
    var value: Aggregator
    init(_ value: Aggregator) { self.value = value }
  }
}
