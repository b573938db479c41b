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
  /// Lines of the file from an offset on, through windows of it mapped (``FileMapping``) while
  /// they lie below ``mapLimit``, else through a buffer read a piece at a time.
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
    /// The bytes at ``offset``: the mapped window's, or the buffer's.
    private var data: UnsafeRawPointer
    /// The window of the file mapped, when reading through one.
    private var window: UnsafeRawBufferPointer?
    /// The file offset below which windows are mapped (its size when the read began); 0: none.
    private var mapLimit = 0
    /// The file offset of the first byte of ``data``.
    var offset = 0
    /// Bytes of ``data`` holding file data.
    var filled = 0
    /// The start of the next line in ``data``.
    var position = 0
    /// The `errno` of a failed read.
    var error: Int32 = 0
    /// Bytes of a window past ``filled`` that are mapped but not served: the scanners may load
    /// a few bytes past a line's end (never past a buffer's), and a window's end may be a page
    /// boundary. The bytes come again at the start of the next window, or by `pread`.
    static let windowSlack = 64

    init(fd: Int32, buffer: UnsafeMutableRawBufferPointer, maxLineBytes: Int) {
      self.fd = fd
      self.buffer = buffer
      self.maxLineBytes = maxLineBytes
      data = UnsafeRawPointer(buffer.baseAddress!)
    }

    /// Starts at the file offset `start`, through windows of the file below `mapLimit` (0:
    /// `pread(2)` alone).
    mutating func start(at start: Int, mappingBelow mapLimit: Int) {
      offset = start
      filled = 0
      position = 0
      self.mapLimit = mapLimit
      if mapLimit > 0 { _ = mapWindow(from: start) }
    }

    /// The file offset past the last byte served from a window, 0 when none was: a file now
    /// shorter than that may have served zeroes (the part past its new end of the page holding
    /// it never faults).
    private(set) var mappedEnd = 0

    /// Whether a window was read (its pages may have faulted: see ``BusFaultGuard``).
    var mapped: Bool { mappedEnd > 0 }

    /// Unmaps the window, if any.
    mutating func close() {
      if let window { FileMapping.unmap(window) }
      window = nil
      data = UnsafeRawPointer(buffer.baseAddress!)
    }

    /// Maps the window holding the file offset `start` (the next line's) and serving bytes past
    /// the file offset ``offset`` + ``filled`` (what is served already), in place of the current
    /// one; `false`, nothing changed, when no such window fits below ``mapLimit`` or the mapping
    /// fails.
    private mutating func mapWindow(from start: Int) -> Bool {
      let first = start & ~(FileMapping.pageBytes &- 1)
      let end = min(mapLimit, first &+ FileMapping.windowBytes)
      let served = end &- PieceReader.windowSlack
      guard served > offset &+ filled, served > start,
        case .success(let next) = FileMapping.map(fd, at: first, count: end &- first)
      else { return false }
      if let window { FileMapping.unmap(window) }
      window = next
      data = next.baseAddress!
      position = start &- first
      offset = first
      filled = served &- first
      mappedEnd = max(mappedEnd, served)
      return true
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
        let start = data.assumingMemoryBound(to: UInt8.self) + position
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
        start: data.assumingMemoryBound(to: UInt8.self) + range.lowerBound, count: range.count)
    }

    private func find(from index: Int) -> Int? {
      guard index < filled, let found = memchr(data + index, 0x0a, filled - index) else {
        return nil
      }
      return data.distance(to: UnsafeRawPointer(found))
    }

    /// Keeps the bytes from `position` on (moved to the buffer's start, which grows when they
    /// fill it), reads more after them; `false` at the end of the file or on an error. Through
    /// windows, the next window starts at the page holding `position`; past the last one, the
    /// bytes kept go to the buffer and `pread(2)` goes on.
    private mutating func refill() -> Bool {
      if window != nil {
        if mapWindow(from: offset &+ position) { return true }
        let kept = filled &- position
        if buffer.count <= kept {
          var size = buffer.count
          while size <= kept { size &*= 2 }
          buffer.deallocate()
          buffer = .allocate(byteCount: size, alignment: 64)
        }
        if kept > 0 { buffer.baseAddress!.copyMemory(from: data + position, byteCount: kept) }
        offset &+= position
        filled = kept
        position = 0
        mapLimit = 0
        close()
      }
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
        data = UnsafeRawPointer(buffer.baseAddress!)
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
