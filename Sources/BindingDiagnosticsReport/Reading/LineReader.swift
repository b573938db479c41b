import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a descriptor line by line in large chunks, with memory bounded by the longest line
/// allowed: a longer line is skipped as it streams past and reported as too long.
struct LineReader {
  /// One line handed to the caller.
  enum Line {
    /// The line's bytes, without `\n`, valid only during the call.
    case text(UnsafeBufferPointer<UInt8>)
    /// A line longer than the limit; its bytes were not kept.
    case tooLong
  }

  private let fd: Int32
  private let maxLineBytes: Int
  private static let chunk = 1 << 20

  init(fd: Int32, maxLineBytes: Int) {
    self.fd = fd
    self.maxLineBytes = maxLineBytes
  }

  /// Calls `body` with each line and its 1-based number until the end of input. `body`
  /// returns `false` to stop early. Returns the number of lines read, or the read error.
  func forEachLine(
    startingAt firstLine: Int = 1, _ body: (Line, Int) -> Bool
  ) -> Result<Int, SystemError> {
    // The buffer grows with the longest line seen, up to the limit: a large limit costs
    // nothing until a line needs it.
    let limit = min(max(maxLineBytes, 0), Int.max / 2 - LineReader.chunk) + LineReader.chunk
    var capacity = min(limit, 2 * LineReader.chunk)
    var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    defer { buffer.deallocate() }
    var used = 0
    var lineNumber = firstLine - 1
    var skipping = false
    while true {
      if capacity - used < LineReader.chunk, capacity < limit {
        let grown = min(limit, capacity * 2)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        bigger.update(from: buffer, count: used)
        buffer.deallocate()
        buffer = bigger
        capacity = grown
      }
      let room = UnsafeMutableRawBufferPointer(
        start: buffer + used, count: min(LineReader.chunk, capacity - used))
      let count: Int
      switch FileDescriptorIO.read(fd, into: room) {
      case .success(let got): count = got
      case .failure(let error): return .failure(error)
      }
      if count == 0 {
        if used > 0 || skipping {
          lineNumber += 1
          let line: Line =
            skipping ? .tooLong : .text(UnsafeBufferPointer(start: buffer, count: used))
          _ = body(line, lineNumber)
        }
        return .success(lineNumber - firstLine + 1)
      }
      let end = used + count
      var start = 0
      var scan = used
      while scan < end, let newline = memchr(buffer + scan, 0x0a, end - scan) {
        let position = buffer.distance(to: newline.assumingMemoryBound(to: UInt8.self))
        lineNumber += 1
        let line: Line =
          skipping || position - start > maxLineBytes
          ? .tooLong : .text(UnsafeBufferPointer(start: buffer + start, count: position - start))
        skipping = false
        guard body(line, lineNumber) else { return .success(lineNumber - firstLine + 1) }
        start = position + 1
        scan = start
      }
      // Keep the unfinished line; once it is over the limit, drop its bytes and skip to its end.
      let rest = end - start
      if skipping || rest > maxLineBytes {
        skipping = true
        used = 0
      } else {
        if start > 0 && rest > 0 { memmove(buffer, buffer + start, rest) }
        used = rest
      }
    }
  }
}
