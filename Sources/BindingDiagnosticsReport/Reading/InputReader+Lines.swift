package import BindingDiagnostics
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Reading line by line: files the parallel chunked reader does not take (pipes, standard input,
// unified-log JSON arrays), classified one line at a time.
extension InputReader {
  /// Whether the file's first line that is neither blank nor longer than `maxLineBytes` opens
  /// a unified-log JSON array, as ``classifyLines(fd:name:_:)`` decides it: such a file is
  /// read whole elements at a time rather than in parallel chunks of lines (`pread(2)`, so the
  /// offset stays put). `true` too when that line is not in the first 128 KiB, since the line
  /// by line read is right either way.
  static func opensAnArray(_ fd: Int32, maxLineBytes: Int) -> Bool {
    var head = [UInt8](repeating: 0, count: 128 << 10)
    let read = head.withUnsafeMutableBytes { FileDescriptorIO.read(fd, into: $0, at: 0) }
    guard case .success(let count) = read, count > 0 else { return false }
    return head.withUnsafeBufferPointer { buffer in
      var start = 0
      while start < count {
        let newline = buffer[start..<count].firstIndex(of: 0x0a)
        // A full head's last line may go on past it, and so may its blank lines.
        if newline == nil, count == buffer.count { return true }
        let end = newline ?? count
        let line = UnsafeBufferPointer(rebasing: buffer[start..<end])
        let text = start == 0 ? InputReader.droppingBOM(line) : line
        start = end + 1
        if line.count > maxLineBytes { continue }
        if UnifiedLogArray.opens(line) { return true }
        if LineClassifier.classifyExactly(text) != .blank { return false }
      }
      return count == buffer.count
    }
  }

  /// `line` without a leading UTF-8 byte order mark (`EF BB BF`), which some editors and
  /// Windows tools put at the start of a file.
  static func droppingBOM(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    guard line.count >= 3, line[0] == 0xef, line[1] == 0xbb, line[2] == 0xbf else { return line }
    return UnsafeBufferPointer(rebasing: line[3...])
  }

  /// Classifies each line of `fd` as it arrives (a pipe is handed over line by line), reporting
  /// malformed ones to ``onMalformed`` too, until the end or until `body` (or `forged`) returns
  /// `false`. A `journalctl -o json` entry is checked as the journal's are (see
  /// ``readJournal(directories:into:)``): a run belongs to the trusted identity of its first
  /// such entry, and one with another identity goes to `forged`, not to `body`.
  /// - Parameters:
  ///   - fd: The descriptor.
  ///   - name: The name used in malformed-line reports.
  ///   - contract: Offered each line first (but an array's): returns the events of a line it
  ///     took (an event line, which then goes to no one else), `nil` to leave it to the
  ///     classifier.
  ///   - forged: Receives each forged journal entry.
  ///   - body: Receives each line's class and number.
  /// - Returns: The read error, if reading failed part-way.
  package func classifyLines(
    fd: Int32, name: String, contract: (UnsafeBufferPointer<UInt8>) -> Int? = { _ in nil },
    forged: (ForgedEntry) -> Bool = { _ in true }, _ body: (LineClass, Int) -> Bool
  ) -> Result<Void, SystemError> {
    var classifier = LineClassifier()
    var owners = JournalEntryDecoder.RunOwners()
    var bytesRead = 0
    var events = 0
    var nextProgress = InputReader.progressStep
    let size = onProgress == nil ? nil : InputReader.regularFileSize(fd)
    let reader = LineReader(fd: fd, maxLineBytes: maxLineBytes)
    // A `log show --style json` export: one array over many lines, read element by element.
    var array = UnifiedLogArray(maxBytes: maxLineBytes)
    var atStart = true
    /// A compressed input, refused from its first line.
    var refused: SystemError?
    func advance(events lineEvents: Int, _ number: Int) {
      if let onProgress {
        events += lineEvents
        // Every 64 KiB, and every 256 lines for a slow pipe.
        if bytesRead >= nextProgress || number % 256 == 0 {
          onProgress(Progress(source: name, bytes: bytesRead, size: size, events: events))
          nextProgress = bytesRead + InputReader.progressStep
        }
      }
    }
    func progress(_ kind: LineClass, _ number: Int) {
      if case .event(let event) = kind {
        advance(events: event.events, number)
      } else {
        advance(events: 0, number)
      }
    }
    func element(_ element: UnifiedLogArray.Element) -> Bool {
      let (kind, number): (LineClass, Int)
      switch element {
      case .bytes(let bytes, let line):
        (kind, number) = (bytes.withUnsafeBufferPointer { classifier.classify($0) }, line)
      case .tooLong(let line):
        (kind, number) = (.malformed("entry longer than \(maxLineBytes) bytes"), line)
      }
      if case .malformed(let reason) = kind {
        onMalformed(MalformedLine(source: name, line: number, reason: reason.text))
      }
      progress(kind, number)
      return body(kind, number)
    }
    let result = reader.forEachLine { line, number in
      let kind: LineClass
      switch line {
      case .tooLong:
        kind = .malformed("line longer than \(maxLineBytes) bytes")
        bytesRead += maxLineBytes
      case .text(let bytes):
        bytesRead += bytes.count + 1
        if number == 1, let compression = InputCompression.of(head: UnsafeRawBufferPointer(bytes)) {
          refused = compression.refusal
          return false
        }
        if array.continues(with: bytes) || (atStart && UnifiedLogArray.opens(bytes)) {
          var proceed = true
          array.feed(bytes, number: number) { proceed = proceed && element($0) }
          atStart = false
          return proceed
        }
        let line = number == 1 ? InputReader.droppingBOM(bytes) : bytes
        if let taken = contract(line) {
          atStart = false
          advance(events: taken, number)
          return true
        }
        kind = classifier.classify(line)
        if kind != .blank { atStart = false }
        if case .event(let event) = kind, let identity = classifier.journalIdentity,
          let owner = owners.owner(ofRun: event.run, claimedBy: identity)
        {
          return forged(ForgedEntry(event, sender: identity, owner: owner))
        }
      }
      if case .malformed(let reason) = kind {
        onMalformed(MalformedLine(source: name, line: number, reason: reason.text))
      }
      progress(kind, number)
      return body(kind, number)
    }
    if let refused { return .failure(refused) }
    array.finish { _ = element($0) }
    onProgress?(Progress(source: name, bytes: bytesRead, size: size, events: events))
    return result.map { _ in () }
  }

  /// The processors this process may run on (its CPU affinity, and the cgroup's quota where
  /// Foundation reads it).
  package static var availableProcessors: Int {
    max(1, ProcessInfo.processInfo.activeProcessorCount)
  }

  /// Bytes between two progress reports of the line-by-line reader.
  static let progressStep = 64 << 10

  /// The size of `fd` when it is a regular file.
  static func regularFileSize(_ fd: Int32) -> Int? {
    guard case .success(let info) = FileDescriptorIO.status(fd), info.st_mode & S_IFMT == S_IFREG
    else { return nil }
    return Int(info.st_size)
  }
}
