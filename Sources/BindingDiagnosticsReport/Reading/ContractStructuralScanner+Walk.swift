import BindingDiagnostics

#if arch(x86_64)
  import CStructuralScan
#endif

extension ContractStructuralScanner {
  /// The fields of a line whose quotes are known, in contract key order.
  struct Walk {
    let base: UnsafePointer<UInt8>
    let count: Int
    let quotes: UnsafePointer<UInt64>
    let words: Int
    /// ``StringTable/Hasher/seed``, loaded once per line.
    let seed = StringTable.Hasher.seed
    var index = 0

    init(line: UnsafeBufferPointer<UInt8>, quotes: UnsafePointer<UInt64>) {
      base = line.baseAddress!
      count = line.count
      self.quotes = quotes
      words = (line.count &+ 63) &>> 6
    }

    /// The checks and order of ``ContractFastParser/scan(_:day:)``.
    @inline(__always)
    mutating func fields(
      _ day: inout ContractDay, sites: inout ContractSpanMemo, runs: inout ContractSpanMemo,
      into out: inout ContractFastParser.Fields
    ) -> Bool {
      // Each field goes to `out` as soon as it is read: held until the end, the fields were
      // spilled to the stack and copied again.
      // One hash per set of fields (``ContractFieldSets``), fed the fields that tell sets apart.
      var site = StringTable.Hasher(seed: seed)
      var runHash = StringTable.Hasher(seed: seed)
      var extra = StringTable.Hasher(seed: seed)
      // `{"v":` then the integer 1 then `,"ts":"`, at once: no other bytes read so.
      guard literal(#"{"v":1,"ts":""#),
        let timestamp = timestamp(&day), literal(#"","level":""#), let level = level()
      else { return false }
      out.timestamp = timestamp
      out.level = level
      out.siteEntry = -1
      if let end = span(in: &sites) {
        out.siteEntry = end.entry
        out.line = sites.entry(end.entry).line
        index = end.index
      } else {
        let start = index
        guard siteFields(hashing: &site, into: &out) else { return false }
        out.siteSpan = start..<index
      }
      guard literal(#","value_present":"#) else { return false }
      out.value = nil
      // Most records: `false`, then a value (as the boolean and the key would be read).
      if literal(#"false,"value":"#) {
        out.valuePresent = false
        guard let text = text() else { return false }
        out.value = text
      } else {
        guard let valuePresent = boolean() else { return false }
        out.valuePresent = valuePresent
        if literal(#","value":"#) {
          guard let text = text() else { return false }
          out.value = text
        }
      }
      out.label = nil
      out.test = nil
      out.writer = nil
      // Most records have no label, test or writer: the run's process follows at once, and one
      // word tells.
      if !startsWith(#","proces"#) {
        if literal(#","label":"#) {
          guard let text = text(hashing: &extra) else { return false }
          out.label = text
        }
        if literal(#","test":"#) {
          guard let text = text(hashing: &extra) else { return false }
          out.test = text
        }
        if literal(#","writer":"#) {
          guard let text = text(hashing: &extra) else { return false }
          out.writer = text
        }
      }
      out.runEntry = -1
      if let end = span(in: &runs) {
        out.runEntry = end.entry
        index = end.index
      } else {
        let start = index
        guard literal(#","process":"#), let process = text() else { return false }
        out.process = process
        guard literal(#","pid":"#), let pid = integer() else { return false }
        out.pid = pid
        guard literal(#","host":"#), let host = text() else { return false }
        out.host = host
        guard literal(#","run":"#), let run = text(hashing: &runHash) else { return false }
        out.run = run
        out.runSpan = start..<index
      }
      guard literal(#","seq":"#), let seq = integer(), (1...EventDecoder.maxInteger).contains(seq)
      else { return false }
      out.seq = seq
      out.runRecords = nil
      out.runEvents = nil
      out.runDropped = nil
      // Most records: nothing suppressed and no run counts, the record's end (`0` then `}` read
      // as the integer and the closing brace would be).
      if literal(#","suppressed":0}"#) {
        out.suppressed = 0
        guard atEndAfterBlanks() else { return false }
      } else {
        guard literal(#","suppressed":"#), let suppressed = integer(),
          (0...EventDecoder.maxSuppressed).contains(suppressed)
        else { return false }
        out.suppressed = suppressed
        // Only run records go on past `suppressed`.
        if index < count, base[index] != UInt8(ascii: "}") {
          if literal(#","run_records":"#) {
            guard let count = runCount() else { return false }
            out.runRecords = count
          }
          if literal(#","run_events":"#) {
            guard let count = runCount() else { return false }
            out.runEvents = count
          }
          if literal(#","run_dropped":"#) {
            guard let count = runCount() else { return false }
            out.runDropped = count
          }
        }
        guard literal("}"), atEndAfterBlanks() else { return false }
      }
      // Each set's hash only when its set is looked up (``ContractRecordParser``): a span
      // found kept has its ids, and a record with no label, test or writer no such set.
      if out.siteEntry < 0 { out.siteHash = site.finish(count: 0) }
      if out.runEntry < 0 { out.runHash = runHash.finish(count: 0) }
      if out.label != nil || out.test != nil || out.writer != nil {
        out.extraHash = extra.finish(count: 0)
      }
      return true
    }

    /// A call site's fields, from the quote closing the level through the one closing the
    /// type; the ones that key its set fed to `site`.
    @inline(__always)
    mutating func siteFields(
      hashing site: inout StringTable.Hasher, into out: inout ContractFastParser.Fields
    ) -> Bool {
      guard literal(#"","kind":"#), let kind = text(hashing: &site) else { return false }
      out.kind = kind
      // The message id (one per kind), the process and the host (one per run) are not hashed:
      // their sets (``ContractFieldSets``) are told apart by the kind and the run, and their
      // bytes are compared.
      guard literal(#","message_id":"#), let messageID = text() else { return false }
      out.messageID = messageID
      guard literal(#","msg":"#), let message = text() else { return false }
      out.message = message
      guard literal(#","file":"#), let file = text(hashing: &site) else { return false }
      out.file = file
      guard literal(#","line":"#), let lineNumber = integer(),
        (0...EventDecoder.maxInteger).contains(lineNumber)
      else { return false }
      out.line = lineNumber
      guard literal(#","function":"#), let function = text(hashing: &site) else { return false }
      out.function = function
      guard literal(#","value_type":"#), let valueType = text(hashing: &site) else {
        return false
      }
      out.valueType = valueType
      return true
    }

    /// The span of `memo` starting at the index (ending at its ``ContractSpanMemo/quotes``th
    /// quote), when `memo` keeps one equal to it: its entry, and the index after it.
    @inline(__always)
    func span(in memo: inout ContractSpanMemo) -> (entry: Int, index: Int)? {
      guard memo.pay, let last = quote(memo.quotes, from: index) else { return nil }
      let end = last &+ 1
      // A contract span is longer; `find` hashes 24 bytes or more.
      guard end &- index >= 24 else { return nil }
      let entry = memo.find(base + index, count: end &- index)
      return entry < 0 ? nil : (entry, end)
    }

    /// The `n`th quote (`n` ≥ 1) at or after `position`, or `nil`: on x86-64 `CStructuralScan`'s,
    /// with the CPU's `popcnt` (Swift's `nonzeroBitCount` compiles to a dozen instructions for
    /// x86-64's baseline, which lacks it).
    @inline(__always)
    func quote(_ n: Int, from position: Int) -> Int? {
      #if arch(x86_64)
        let found = bd_quote_select(quotes, words, position, UInt32(truncatingIfNeeded: n))
        return found < 0 ? nil : found
      #else
        return portableQuote(n, from: position)
      #endif
    }

    /// ``quote(_:from:)`` in Swift alone.
    @inline(__always)
    func portableQuote(_ n: Int, from position: Int) -> Int? {
      var word = position &>> 6
      guard word < words else { return nil }
      var bits = quotes[word] & (~0 &<< UInt64(position & 63))
      var left = n
      while true {
        let here = bits.nonzeroBitCount
        if here >= left { break }
        left &-= here
        word &+= 1
        guard word < words else { return nil }
        bits = quotes[word]
      }
      while left > 1 {
        bits &= bits &- 1
        left &-= 1
      }
      return word &<< 6 | bits.trailingZeroBitCount
    }

    /// The first quote at or after `position`, or `nil`.
    @inline(__always)
    func quote(from position: Int) -> Int? {
      var word = position &>> 6
      guard word < words else { return nil }
      var bits = quotes[word] & (~0 &<< UInt64(position & 63))
      while bits == 0 {
        word &+= 1
        guard word < words else { return nil }
        bits = quotes[word]
      }
      return word &<< 6 | bits.trailingZeroBitCount
    }

    @inline(__always)
    func load(_ offset: Int) -> UInt64 {
      UnsafeRawPointer(base).loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }

    /// Matches `text` at the index with overlapping word loads (no `memcmp`).
    @inline(__always)
    mutating func literal(_ text: StaticString) -> Bool {
      let length = text.utf8CodeUnitCount
      guard index &+ length <= count else { return false }
      let here = UnsafeRawPointer(base + index)
      let want = UnsafeRawPointer(text.utf8Start)
      func same<Word: FixedWidthInteger>(_ type: Word.Type, _ offset: Int) -> Bool {
        here.loadUnaligned(fromByteOffset: offset, as: type)
          == want.loadUnaligned(fromByteOffset: offset, as: type)
      }
      let matches: Bool
      switch length {
      case 1: matches = here.load(as: UInt8.self) == want.load(as: UInt8.self)
      case 4...7: matches = same(UInt32.self, 0) && same(UInt32.self, length &- 4)
      case 8...16: matches = same(UInt64.self, 0) && same(UInt64.self, length &- 8)
      case 17...24:
        matches = same(UInt64.self, 0) && same(UInt64.self, 8) && same(UInt64.self, length &- 8)
      default:
        matches = (0..<length).allSatisfy {
          here.load(fromByteOffset: $0, as: UInt8.self)
            == want.load(fromByteOffset: $0, as: UInt8.self)
        }
      }
      guard matches else { return false }
      index &+= length
      return true
    }

    /// Whether the 8 bytes at the index are `word`'s (the index unmoved).
    @inline(__always)
    func startsWith(_ word: StaticString) -> Bool {
      assert(word.utf8CodeUnitCount == 8)
      return index &+ 8 <= count
        && load(index) == UnsafeRawPointer(word.utf8Start).loadUnaligned(as: UInt64.self)
    }

    /// A string whose opening quote is at the index: it ends at the next quote.
    @inline(__always)
    mutating func text() -> ContractFastParser.Text? {
      guard index < count, base[index] == UInt8(ascii: "\""), let end = quote(from: index &+ 1)
      else { return nil }
      let start = index &+ 1
      index = end &+ 1
      return ContractFastParser.Text(start: start, end: end, ascii: true, hash: nil)
    }

    /// ``text()``, its bytes and then its length fed to `hasher`, the last partial word taken
    /// from one load ending at its end (a string starts well past the line's eighth byte).
    @inline(__always)
    mutating func text(hashing hasher: inout StringTable.Hasher) -> ContractFastParser.Text? {
      guard let text = text() else { return nil }
      var offset = text.start
      let end = text.end
      // Two words a step: half the loop's overhead, for strings of a few words.
      while offset &+ 16 <= end {
        hasher.combine(load(offset))
        hasher.combine(load(offset &+ 8))
        offset &+= 16
      }
      if offset &+ 8 <= end {
        hasher.combine(load(offset))
        offset &+= 8
      }
      let rest = end &- offset
      if rest > 0 { hasher.combinePartial(load(end &- 8) &>> UInt64(64 &- 8 &* rest), count: rest) }
      hasher.combine(UInt64(truncatingIfNeeded: end &- text.start))
      return text
    }

    /// A plain JSON integer as ``ContractFastParser``'s cursor reads it; up to seven digits
    /// from one 8-byte load (the digits' count from the first byte that is not one, the value
    /// by three multiplications; near the line's end, from the load ending there), anything
    /// longer or signed byte by byte.
    @inline(__always)
    mutating func integer() -> Int? {
      // Near the line's end (the last integer, before `}`), the load that ends at the line's
      // end, shifted so the index's byte comes first and zeros (not digits) follow.
      let near = index &+ 8 > count
      if index < count {
        let digits =
          (near ? load(count &- 8) &>> UInt64(8 &* (index &+ 8 &- count)) : load(index))
          ^ 0x3030_3030_3030_3030
        let notDigit =
          (digits & 0xf0f0_f0f0_f0f0_f0f0)
          | (((digits & 0x0f0f_0f0f_0f0f_0f0f) &+ 0x0606_0606_0606_0606) & 0x1010_1010_1010_1010)
        let width = notDigit.trailingZeroBitCount &>> 3
        if width > 0, width < 8, index &+ width < count {
          let after = base[index &+ width]
          guard !(width > 1 && base[index] == UInt8(ascii: "0")), after != UInt8(ascii: "."),
            after != UInt8(ascii: "e"), after != UInt8(ascii: "E")
          else { return nil }
          var value = digits &<< UInt64(8 &* (8 &- width))
          value = ((value &* 10) &+ (value &>> 8)) & 0x00ff_00ff_00ff_00ff
          value = ((value &* 100) &+ (value &>> 16)) & 0x0000_ffff_0000_ffff
          value = (value &* 10000) &+ (value &>> 32)
          index &+= width
          return Int(truncatingIfNeeded: value & 0xffff_ffff)
        }
      }
      return slowInteger()
    }

    /// ``integer()`` byte by byte.
    mutating func slowInteger() -> Int? {
      var negative = false
      if index < count, base[index] == UInt8(ascii: "-") {
        negative = true
        index &+= 1
      }
      let start = index
      var value = 0
      while index < count, base[index] &- UInt8(ascii: "0") < 10 {
        value = value &* 10 &+ Int(base[index] &- UInt8(ascii: "0"))
        index &+= 1
      }
      let digits = index &- start
      guard digits > 0, digits <= 18, !(digits > 1 && base[start] == UInt8(ascii: "0")) else {
        return nil
      }
      if index < count,
        base[index] == UInt8(ascii: ".") || base[index] == UInt8(ascii: "e")
          || base[index] == UInt8(ascii: "E")
      {
        return nil
      }
      return negative ? -value : value
    }

    /// A non-negative integer no larger than ``EventDecoder/maxInteger``.
    mutating func runCount() -> Int? {
      guard let value = integer(), (0...EventDecoder.maxInteger).contains(value) else { return nil }
      return value
    }

    mutating func boolean() -> Bool? {
      if literal("true") { return true }
      if literal("false") { return false }
      return nil
    }

    /// `YYYY-MM-DDTHH:MM:SS.ffffffZ` exactly; the closing quote is left for the caller.
    @inline(__always)
    mutating func timestamp(_ day: inout ContractDay) -> Timestamp? {
      guard index &+ 27 <= count, base[index &+ 26] == UInt8(ascii: "Z"),
        let timestamp = Timestamp(
          contractBytes: UnsafeBufferPointer(start: base + index, count: 27), day: &day)
      else { return nil }
      index &+= 27
      return timestamp
    }

    /// A level name up to the next quote (left for the caller), as one masked word.
    @inline(__always)
    mutating func level() -> MisuseLevel? {
      guard index &+ 8 <= count, let end = quote(from: index) else { return nil }
      let length = end &- index
      guard length >= 4, length <= 8 else { return nil }
      let word = load(index) & (length == 8 ? ~0 : (1 &<< UInt64(8 &* length)) &- 1)
      index = end
      return ContractFastParser.level(word: word)
    }

    mutating func atEndAfterBlanks() -> Bool {
      while index < count, base[index] == 0x20 { index &+= 1 }
      return index == count
    }
  }
}
