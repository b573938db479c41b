import BindingDiagnostics

#if arch(x86_64)
  import CStructuralScan
#endif

/// The summary path's first stage for contract lines, as simdjson's: one pass over the line sets
/// a bit per quote in 64-bit words and notes whether any byte needs care (a backslash, a control
/// character, a non-ASCII byte). On x86-64 the pass is `CStructuralScan`'s, in the widest
/// vectors the CPU has (AVX-512BW, AVX2 or SSE2, chosen when the program loads: Swift compiles a
/// function for one target only); elsewhere ``structure(_:quotes:)``'s, 16 bytes at a time
/// (`SIMD16<UInt8>`, what every ARM64 CPU has; wider generic vectors compile to loops). A line with none holds only plain
/// ASCII strings, so each string ends at the next quote bit, an integer's width is found from one
/// 8-byte load, and the fields are taken in contract key order with no loop over their bytes.
/// Anything else, and lines over ``maxBytes``, is left to ``ContractFastParser/scan(_:day:)``.
/// The fields this scan gives equal what that one returns for the same line (fuzzed), plus one
/// hash per set of fields (``ContractFieldSets``), of the bytes of the fields that key the set.
enum ContractStructuralScanner {
  /// The longest line scanned here (its quote bits are 16 words on the stack, 17 for
  /// `bd_line_structure`); longer ones go to the byte-by-byte scan.
  static let maxBytes = 1024

  /// Writes the fields of `line` into `fields` and returns `true`, or returns `false` (having
  /// written any of them) to leave the line to ``ContractFastParser/scan(_:day:)``. The fields
  /// are written in place: they are a few hundred bytes, and a returned value was copied several
  /// times per line.
  ///
  /// A call site's and a run's spans found in `sites` and `runs` (``ContractSpanMemo``) are
  /// not walked: their entries go to ``ContractFastParser/Fields/siteEntry`` and
  /// ``ContractFastParser/Fields/runEntry``; a span walked goes to ``ContractFastParser/Fields/siteSpan``
  /// or ``ContractFastParser/Fields/runSpan``, for the caller to keep once its ids are known.
  @inline(__always)
  static func scan(
    _ line: UnsafeBufferPointer<UInt8>, day: inout ContractDay,
    sites: inout ContractSpanMemo, runs: inout ContractSpanMemo,
    into fields: inout ContractFastParser.Fields
  ) -> Bool {
    guard line.count >= 16, line.count <= maxBytes else { return false }
    return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: (maxBytes + 63) / 64) {
      quotes in
      #if arch(x86_64)
        guard bd_structure(line.baseAddress!, line.count, quotes.baseAddress!) == 1 else {
          return false
        }
      #else
        guard structure(line, quotes: quotes) else { return false }
      #endif
      var walk = Walk(line: line, quotes: UnsafePointer(quotes.baseAddress!))
      return walk.fields(&day, sites: &sites, runs: &runs, into: &fields)
    }
  }

  /// ``scan(_:day:sites:runs:into:)`` for a plain line whose quote bits the caller has (from
  /// `CStructuralScan`'s `bd_line_structure`, which found the line and scanned it in one pass).
  @inline(__always)
  static func scan(
    _ line: UnsafeBufferPointer<UInt8>, quotes: UnsafePointer<UInt64>, day: inout ContractDay,
    sites: inout ContractSpanMemo, runs: inout ContractSpanMemo,
    into fields: inout ContractFastParser.Fields
  ) -> Bool {
    guard line.count >= 16, line.count <= maxBytes else { return false }
    var walk = Walk(line: line, quotes: quotes)
    return walk.fields(&day, sites: &sites, runs: &runs, into: &fields)
  }

  /// ``scan(_:day:sites:runs:into:)`` with no span kept: every field walked.
  static func scan(
    _ line: UnsafeBufferPointer<UInt8>, day: inout ContractDay,
    into fields: inout ContractFastParser.Fields
  ) -> Bool {
    var sites = ContractSpanMemo(quotes: ContractSpanMemo.siteQuotes)
    var runs = ContractSpanMemo(quotes: ContractSpanMemo.runQuotes)
    return scan(line, day: &day, sites: &sites, runs: &runs, into: &fields)
  }

  /// Fields to write over (``scan(_:day:into:)``).
  static var blank: ContractFastParser.Fields {
    let none = ContractFastParser.Text(start: 0, end: 0, ascii: true, hash: nil)
    return ContractFastParser.Fields(
      timestamp: Timestamp(microsecondsSinceEpoch: 0), level: .error, kind: none,
      messageID: none, message: none, file: none, line: 0, function: none, valueType: none,
      valuePresent: false, value: nil, label: nil, test: nil, writer: nil, process: none, pid: 0,
      host: none, run: none, seq: 0, suppressed: 0, runRecords: nil, runEvents: nil,
      runDropped: nil)
  }

  /// Sets bit `i` of `quotes[w]` when byte `64 w + i` of `line` (at least 16 bytes) is a quote;
  /// `true` when the line has no backslash, no control character and no non-ASCII byte. A word
  /// of quote bits per 64 bytes, from four vectors.
  @inline(__always)
  static func structure(
    _ line: UnsafeBufferPointer<UInt8>, quotes: UnsafeMutableBufferPointer<UInt64>
  ) -> Bool {
    let base = UnsafeRawPointer(line.baseAddress!)
    let count = line.count
    var bytes = Bytes()
    var offset = 0
    while offset &+ 64 <= count {
      let pointer = base + offset
      quotes[offset &>> 6] =
        bytes.vector(pointer.loadUnaligned(as: SIMD16<UInt8>.self))
        | bytes.vector(pointer.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self)) &<< 16
        | bytes.vector(pointer.loadUnaligned(fromByteOffset: 32, as: SIMD16<UInt8>.self)) &<< 32
        | bytes.vector(pointer.loadUnaligned(fromByteOffset: 48, as: SIMD16<UInt8>.self)) &<< 48
      offset &+= 64
    }
    if offset < count {
      // The last 1 to 63 bytes: 16 at a time, then a load ending at the line's end with the
      // lanes already seen dropped.
      var word: UInt64 = 0
      var at = offset
      while at &+ 16 <= count {
        word |=
          bytes.vector(base.loadUnaligned(fromByteOffset: at, as: SIMD16<UInt8>.self))
          &<< UInt64(at & 63)
        at &+= 16
      }
      if at < count {
        let last = bytes.vector(
          base.loadUnaligned(fromByteOffset: count &- 16, as: SIMD16<UInt8>.self))
        word |= (last &>> UInt64(16 &- (count &- at))) &<< UInt64(at & 63)
      }
      quotes[offset &>> 6] = word
    }
    return bytes.plain
  }

  /// What the vectors of a line have shown so far about the bytes that need care. Comparisons
  /// are those of the concrete `SIMD16<UInt8>` (one instruction each); their masks are read as
  /// bytes (0xff or 0), never through the generic mask operations, which compile to loops.
  private struct Bytes {
    /// 0xff in a lane where a backslash, a control character or a non-ASCII byte was.
    var care = SIMD16<UInt8>()

    /// The quote bits of 16 bytes: each quote lane's 0x80 gathered into one byte per 8 lanes
    /// by a multiplication (portable Swift has no mask extraction).
    @inline(__always)
    mutating func vector(_ bytes: SIMD16<UInt8>) -> UInt64 {
      // Read as signed, a control character and a non-ASCII byte are both below 0x20: one
      // comparison for the two.
      let signed = unsafeBitCast(bytes, to: SIMD16<Int8>.self)
      care |=
        Bytes.lanes(bytes .== SIMD16(repeating: 0x5c))
        | Bytes.lanes(signed .< SIMD16(repeating: 0x20))
      let quotes = Bytes.lanes(bytes .== SIMD16(repeating: 0x22))
      let marks = quotes & SIMD16(repeating: 0x80)
      let words = unsafeBitCast(marks, to: SIMD2<UInt64>.self)
      let gather: UInt64 = 0x0002_0408_1020_4081
      return (words[0] &* gather) &>> 56 | ((words[1] &* gather) &>> 56) &<< 8
    }

    /// A mask as bytes: 0xff where it holds, else 0.
    @inline(__always)
    private static func lanes(_ mask: SIMDMask<SIMD16<Int8>>) -> SIMD16<UInt8> {
      unsafeBitCast(mask, to: SIMD16<UInt8>.self)
    }

    /// Whether no byte seen needs care.
    var plain: Bool {
      let words = unsafeBitCast(care, to: SIMD2<UInt64>.self)
      return words[0] | words[1] == 0
    }
  }
}
