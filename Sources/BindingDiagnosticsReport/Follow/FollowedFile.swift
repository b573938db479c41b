import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One file that ``FileFollower`` reads: a descriptor kept open whatever the file is renamed to,
/// how far it was read, and its unfinished last line.
final class FollowedFile {
  /// The device and inode it was opened as.
  let identity: FollowIO.Identity
  /// The name it was last seen under, for messages.
  var name: String
  /// Bytes consumed so far, the unfinished line's included.
  private(set) var offset: Int64
  private let fd: Int32
  private var pending: [UInt8] = []
  private var skipping = false
  /// The number of the line starting at `offset - pending.count`, once known (counting the
  /// lines before a start in the middle of a file is put off until a message needs it).
  private var nextLine: Int?
  /// The file's first bytes and the last ones before `offset`, up to ``fingerprintBytes`` each,
  /// as read: a file that no longer holds them was truncated or rewritten in place, and a
  /// rotated file that holds them is its copy.
  private var head: [UInt8] = []
  private var tail: [UInt8] = []
  /// When reading last found new bytes.
  private(set) var grewAt = ContinuousClock.now
  /// The modification time ``status()`` gave at the last poll.
  var modified: Int64?

  /// Bytes read per `pread(2)`.
  static let chunkBytes = 1 << 16
  /// The most bytes of ``head`` and of ``tail``.
  static let fingerprintBytes = 4096

  /// What opening a file found.
  enum Opening {
    /// The file, open.
    case opened(FollowedFile)
    /// The name no longer holds the file expected (renamed or deleted since it was seen).
    case moved
    /// The file cannot be read (a directory, no permission, …).
    case failed(SystemError)
  }

  /// Opens `name` for reading, if it still holds the file `expected`.
  static func open(_ name: String, expected: FollowIO.Identity) -> Opening {
    switch FollowIO.openForReading(name) {
    case .failure(let error):
      return error.code == ENOENT ? .moved : .failed(error)
    case .success(let opened):
      guard FollowIO.Identity(opened.info) == expected else {
        FollowIO.closeFile(opened.fd)
        return .moved
      }
      return .opened(FollowedFile(fd: opened.fd, identity: expected, name: name))
    }
  }

  private init(fd: Int32, identity: FollowIO.Identity, name: String) {
    self.fd = fd
    self.identity = identity
    self.name = name
    offset = 0
    nextLine = 1
  }

  deinit {
    FollowIO.closeFile(fd)
  }

  /// The file's size, whether any name still links to it, and when it was last modified
  /// (nanoseconds).
  func status() -> (size: Int64, linked: Bool, modified: Int64)? {
    guard case .success(let info) = FollowIO.status(fd) else { return nil }
    #if canImport(Glibc)
      let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    #else
      let modified =
        Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
    #endif
    return (Int64(info.st_size), info.st_nlink > 0, modified)
  }

  /// Reading goes on from `position` (a line start) as if all before it had been read.
  func move(to position: Int64) {
    offset = position
    pending.removeAll()
    skipping = false
    nextLine = position == 0 ? 1 : nil
    let kept = min(position, Int64(FollowedFile.fingerprintBytes))
    head = FollowedFile.bytes(fd, 0..<kept)
    tail = FollowedFile.bytes(fd, (position - kept)..<position)
  }

  /// Where the line being read starts: `offset`, or the start of the unfinished last line.
  var lineStart: Int64 { offset - Int64(pending.count) }

  /// Whether the last line read has no newline yet.
  var hasUnfinishedLine: Bool { skipping || !pending.isEmpty }

  /// Whether this file begins as `other` did where it was read (as far as this one goes).
  func begins(like other: FollowedFile) -> Bool {
    let first = FollowedFile.bytes(fd, 0..<Int64(other.head.count))
    return !first.isEmpty && other.head.starts(with: first)
  }

  /// Whether this file and `other` begin with the same bytes now (as far as the shorter of their
  /// first ``fingerprintBytes`` goes; not when either is empty).
  func beginsAsNow(_ other: FollowedFile) -> Bool {
    let limit = Int64(FollowedFile.fingerprintBytes)
    let mine = FollowedFile.bytes(fd, 0..<limit)
    let theirs = FollowedFile.bytes(other.fd, 0..<limit)
    let common = min(mine.count, theirs.count)
    return common > 0 && mine.prefix(common) == theirs.prefix(common)
  }

  /// Whether this file holds what was read of `other` (itself, or the file it may be a copy
  /// of) up to `other`'s offset: the same first bytes, and the same bytes before that offset.
  func holds(whatWasReadOf other: FollowedFile) -> Bool {
    FollowedFile.bytes(fd, 0..<Int64(other.head.count)) == other.head
      && FollowedFile.bytes(fd, (other.offset - Int64(other.tail.count))..<other.offset)
        == other.tail
  }

  /// Whether the file still begins as it did when the `count` bytes at `bytes` were read at
  /// `offset` (its first bytes read, or the first of these): otherwise it was truncated and
  /// written again meanwhile, and they may be of the new content, in the middle of it. They
  /// are left for the next poll, which finds the file rewritten.
  private func stillBegins(as bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
    var first = head
    let limit = FollowedFile.fingerprintBytes
    if offset < Int64(limit) {
      first.append(
        contentsOf: UnsafeBufferPointer(start: bytes, count: min(count, limit - Int(offset))))
    }
    return FollowedFile.bytes(fd, 0..<Int64(first.count)) == first
  }

  /// Consumes the `count` bytes at `bytes`, read at `offset`.
  private func consume(_ bytes: UnsafePointer<UInt8>, count: Int) {
    let read = UnsafeBufferPointer(start: bytes, count: count)
    let limit = FollowedFile.fingerprintBytes
    if offset < Int64(limit) { head.append(contentsOf: read.prefix(limit - Int(offset))) }
    if count >= limit { tail.removeAll(keepingCapacity: true) }
    tail.append(contentsOf: read.suffix(limit))
    if tail.count > limit { tail.removeFirst(tail.count - limit) }
    offset += Int64(count)
    if count > 0 { grewAt = .now }
  }

  /// Reads `[offset, end)` and hands each complete line's event or malformation to `body`;
  /// an unfinished last line waits for the rest (or for ``finishLastLine(maxLineBytes:classifier:_:)``).
  /// - Returns: `false` when `body` did.
  func read(
    upTo end: Int64, maxLineBytes: Int, scratch: UnsafeMutableRawBufferPointer,
    classifier: inout LineClassifier, _ body: (FileFollower.Item) -> Bool
  ) -> Bool {
    guard let base = scratch.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return true }
    while offset < end {
      let want = Int(min(Int64(scratch.count), end - offset))
      guard case .success(let got) = FollowIO.readAt(fd, into: base, count: want, at: offset),
        got > 0, stillBegins(as: base, count: got)
      else { return true }
      var start = 0
      while start < got, let found = memchr(base + start, 0x0a, got - start) {
        let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        let lineStart = offset + Int64(start) - Int64(pending.count)
        let kind: LineClass
        if skipping || pending.count + (newline - start) > maxLineBytes {
          kind = .malformed("line longer than \(maxLineBytes) bytes")
        } else if pending.isEmpty {
          kind = classifier.classify(
            UnsafeBufferPointer(start: base + start, count: newline - start))
        } else {
          pending.append(
            contentsOf: UnsafeBufferPointer(start: base + start, count: newline - start))
          kind = pending.withUnsafeBufferPointer { classifier.classify($0) }
        }
        pending.removeAll(keepingCapacity: true)
        skipping = false
        start = newline + 1
        guard deliver(kind, lineStart: lineStart, body) else {
          consume(base, count: start)
          return false
        }
      }
      if !skipping {
        pending.append(contentsOf: UnsafeBufferPointer(start: base + start, count: got - start))
        if pending.count > maxLineBytes {
          skipping = true
          pending.removeAll()
        }
      }
      consume(base, count: got)
    }
    return true
  }

  /// Hands over the unfinished last line, if any, as the file's last line, as `summary` reads
  /// it: its event, or its malformation (a line longer than `maxLineBytes` included). For a
  /// file no writer will finish a line of: rotated away, deleted, or at the end of following.
  /// Bytes appended after it are read as a new line.
  /// - Returns: `false` when `body` did.
  func finishLastLine(
    maxLineBytes: Int, classifier: inout LineClassifier, _ body: (FileFollower.Item) -> Bool
  ) -> Bool {
    guard skipping || !pending.isEmpty else { return true }
    // No newline lies between the line's start and `offset`: counting the lines before
    // either gives the same number, and `pending` is empty once the line was too long.
    let lineStart = offset - Int64(pending.count)
    let kind: LineClass
    if skipping {
      kind = .malformed("line longer than \(maxLineBytes) bytes")
    } else {
      kind = pending.withUnsafeBufferPointer { classifier.classify($0) }
    }
    pending.removeAll(keepingCapacity: true)
    skipping = false
    return deliver(kind, lineStart: lineStart, body)
  }

  private func deliver(
    _ kind: LineClass, lineStart: Int64, _ body: (FileFollower.Item) -> Bool
  ) -> Bool {
    defer { nextLine = nextLine.map { $0 + 1 } }
    switch kind {
    case .event(let event):
      return body(.event(event))
    case .malformed(let reason):
      let line = nextLine ?? countLines(before: lineStart) + 1
      nextLine = line
      return body(.malformed(source: name, line: line, reason: reason.text))
    case .other, .blank:
      return true
    }
  }

  private func countLines(before end: Int64) -> Int {
    var buffer = [UInt8](repeating: 0, count: FollowedFile.chunkBytes)
    var position: Int64 = 0
    var lines = 0
    while position < end {
      let want = Int(min(Int64(buffer.count), end - position))
      let result = buffer.withUnsafeMutableBytes {
        FollowIO.readAt(fd, into: $0.baseAddress!, count: want, at: position)
      }
      guard case .success(let got) = result, got > 0 else { break }
      lines += buffer[..<got].reduce(0) { $0 + ($1 == 0x0a ? 1 : 0) }
      position += Int64(got)
    }
    return lines
  }

  /// Where the last complete line before `end` ends: a record still being written is read
  /// whole once it is finished, never from its middle.
  func lineBoundary(atOrBefore end: Int64) -> Int64 {
    var reader = BackwardReader(fd: fd, end: end)
    return reader.newline(before: end).map { $0 + 1 } ?? 0
  }

  /// Walks the complete lines before `end` from the last one back, counting the events
  /// `filter` accepts that `follow` prints: run records (`run-heartbeat`, `run-end`) are never
  /// printed, so they are not counted.
  /// - Parameters:
  ///   - wanted: How many events are still wanted; lowered by those found.
  ///   - end: A line boundary.
  /// - Returns: Where the line holding the `wanted`-th last event starts, or `nil` when the
  ///   file has fewer (then all of it is wanted).
  func startOfLastEvents(
    _ wanted: inout Int, before end: Int64, filter: EventFilter, maxLineBytes: Int,
    classifier: inout LineClassifier
  ) -> Int64? {
    guard wanted > 0 else { return end }
    var reader = BackwardReader(fd: fd, end: end)
    var lineEnd = end - 1
    while lineEnd >= 0 {
      let previous = reader.newline(before: lineEnd)
      let lineStart = previous.map { $0 + 1 } ?? 0
      if lineEnd - lineStart <= Int64(maxLineBytes) {
        let bytes = reader.bytes(lineStart..<lineEnd)
        if case .event(let event) = bytes.withUnsafeBufferPointer({ classifier.classify($0) }),
          !event.isRunRecord, filter.accepts(event)
        {
          wanted -= 1
          if wanted == 0 { return lineStart }
        }
      }
      guard let previous else { break }
      lineEnd = previous
    }
    return nil
  }

  /// Reads a file backwards in chunks, for finding line starts from the end.
  private struct BackwardReader {
    let fd: Int32
    /// The bytes at `[cacheStart, cacheStart + cache.count)`.
    var cache: [UInt8] = []
    var cacheStart: Int64

    init(fd: Int32, end: Int64) {
      self.fd = fd
      cacheStart = end
    }

    /// The offset of the last `\n` before `upper`, or `nil` when there is none.
    mutating func newline(before upper: Int64) -> Int64? {
      var upper = upper
      while true {
        if upper > cacheStart {
          var index = Int(upper - cacheStart) - 1
          while index >= 0 {
            if cache[index] == 0x0a { return cacheStart + Int64(index) }
            index -= 1
          }
          upper = cacheStart
        }
        guard upper > 0 else { return nil }
        let start = max(0, upper - Int64(FollowedFile.chunkBytes))
        let want = Int(upper - start)
        var got = 0
        let fd = self.fd
        cache = [UInt8](unsafeUninitializedCapacity: want) { storage, count in
          if case .success(let read) = FollowIO.readAt(
            fd, into: storage.baseAddress!, count: want, at: start)
          {
            got = read
          }
          count = got
        }
        // Shorter than asked: the file shrank under us; treat what is missing as its start.
        guard got == want else { return nil }
        cacheStart = start
      }
    }

    /// The bytes at `range`, from the cache when it holds them.
    func bytes(_ range: Range<Int64>) -> [UInt8] {
      if range.lowerBound >= cacheStart && range.upperBound <= cacheStart + Int64(cache.count) {
        return Array(cache[Int(range.lowerBound - cacheStart)..<Int(range.upperBound - cacheStart)])
      }
      return FollowedFile.bytes(fd, range)
    }
  }

  /// The bytes of `fd` at `range` (fewer past its end), with one `pread(2)`.
  private static func bytes(_ fd: Int32, _ range: Range<Int64>) -> [UInt8] {
    let count = Int(range.count)
    return [UInt8](unsafeUninitializedCapacity: count) { storage, initialized in
      var got = 0
      if count > 0,
        case .success(let read) = FollowIO.readAt(
          fd, into: storage.baseAddress!, count: count, at: range.lowerBound)
      {
        got = read
      }
      initialized = got
    }
  }
}
