import BindingDiagnostics

#if arch(x86_64)
  import CStructuralScan
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension ChunkedFileReader {
  /// Lines of the file from an offset on, through a buffer, read a piece at a time.
  struct PieceReader {
    enum Line {
      case line(UnsafeBufferPointer<UInt8>)
      case tooLong
      case end
    }

    let fd: Int32
    /// Grows to hold a line longer than itself.
    var buffer: UnsafeMutableRawBufferPointer
    let maxLineBytes: Int
    /// The file offset of the buffer's first byte.
    var offset = 0
    /// Bytes of the buffer holding file data.
    var filled = 0
    /// The start of the next line in the buffer.
    var position = 0
    /// The `errno` of a failed read.
    var error: Int32 = 0

    init(fd: Int32, buffer: UnsafeMutableRawBufferPointer, maxLineBytes: Int) {
      self.fd = fd
      self.buffer = buffer
      self.maxLineBytes = maxLineBytes
    }

    /// Moves past the next `\n`; `false` at the end of the file, or when none is found
    /// before the file offset `end`.
    mutating func skipPastNewline(before end: Int = .max) -> Bool {
      while true {
        if let newline = find(from: position) {
          position = newline + 1
          return true
        }
        position = filled
        guard offset + filled < end, refill() else { return false }
      }
    }

    #if arch(x86_64)
      /// The next line when it lies whole in the buffer, is at most
      /// ``ContractStructuralScanner/maxBytes`` long and no longer than ``maxLineBytes``,
      /// found and scanned in one pass (`bd_line_structure`): its bytes (without the `\n`), and
      /// whether it is plain, its quote bits then in `quotes`. Otherwise `nil`, the reader
      /// unmoved, for ``nextLine(before:)``.
      @inline(__always)
      mutating func nextScannedLine(quotes: UnsafeMutablePointer<UInt64>)
        -> (bytes: UnsafeBufferPointer<UInt8>, plain: Bool)?
      {
        guard position < filled else { return nil }
        let start = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + position
        var length = 0
        let verdict = bd_line_structure(
          start, filled &- position, min(ContractStructuralScanner.maxBytes, maxLineBytes), quotes,
          &length)
        guard verdict >= 0 else { return nil }
        position &+= length &+ 1
        return (UnsafeBufferPointer(start: start, count: length), verdict == 1)
      }
    #endif

    /// The next line (without its `\n`; the last one may lack it). A line too long is skipped
    /// no further than the file offset `end`, where the lines of the next chunk start.
    mutating func nextLine(before end: Int) -> Line {
      var searched = position
      while true {
        if let newline = find(from: searched) {
          let start = position
          position = newline + 1
          return newline - start > maxLineBytes ? .tooLong : .line(bytes(start..<newline))
        }
        if filled - position > maxLineBytes {
          // Too long to keep: skip to its end, or to the chunk's.
          position = filled
          _ = skipPastNewline(before: end)
          return .tooLong
        }
        let scanned = filled - position
        guard refill() else {
          guard filled > position else { return .end }
          let start = position
          position = filled
          return filled - start > maxLineBytes ? .tooLong : .line(bytes(start..<filled))
        }
        searched = position + scanned
      }
    }

    private func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
      UnsafeBufferPointer(
        start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + range.lowerBound,
        count: range.count)
    }

    private func find(from index: Int) -> Int? {
      guard index < filled, let base = buffer.baseAddress,
        let found = memchr(base + index, 0x0a, filled - index)
      else { return nil }
      return base.distance(to: UnsafeMutableRawPointer(found))
    }

    /// Keeps the bytes from `position` on (moved to the buffer's start, which grows when they
    /// fill it), reads more after them; `false` at the end of the file or on an error.
    private mutating func refill() -> Bool {
      let kept = filled - position
      if position > 0 {
        if kept > 0 {
          buffer.baseAddress!.copyMemory(
            from: buffer.baseAddress! + position, byteCount: kept)
        }
        offset += position
        filled = kept
        position = 0
      }
      if filled == buffer.count {
        let larger = UnsafeMutableRawBufferPointer.allocate(
          byteCount: buffer.count * 2, alignment: 64)
        larger.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: filled)
        buffer.deallocate()
        buffer = larger
      }
      // A piece at most, even into a buffer grown for a long line: a chunk reads little past
      // its end.
      let room = UnsafeMutableRawBufferPointer(
        start: buffer.baseAddress! + filled,
        count: min(buffer.count - filled, ChunkedFileReader.pieceBytes))
      switch FileDescriptorIO.read(fd, into: room, at: offset + filled) {
      case .success(let got) where got > 0:
        filled += got
        return true
      case .success: return false
      case .failure(let failure):
        error = failure.code
        return false
      }
    }
  }
}
