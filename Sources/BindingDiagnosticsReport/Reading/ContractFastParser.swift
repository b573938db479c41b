import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The fast path for lines exactly as the JSON Lines sink writes them: keys in contract order,
/// no blanks, no escapes. It reads the bytes once and gives up (`nil`) at the first deviation,
/// leaving the line to the exact parser. Whatever it accepts, the exact parser accepts
/// identically (tested). ``scan(_:)`` types the numbers and leaves text as byte ranges of the
/// line; ``parse(_:)`` builds an event from them, making strings only when a field changes from
/// the previous line; the summary path interns the ranges instead (``ContractRecordParser``).
struct ContractFastParser: Sendable {
  /// A text field: its bytes' range in the line (quotes excluded), whether all are ASCII,
  /// and its ``StringTable`` hash when the scan could take it on the way.
  struct Text: Sendable {
    var start: Int
    var end: Int
    var ascii: Bool
    var hash: UInt64?

    /// The field's bytes in `line`.
    @inline(__always)
    func bytes(in line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
      UnsafeBufferPointer(rebasing: line[start..<end])
    }
  }

  /// A contract line's fields, numbers range-checked, text unchecked beyond the JSON string
  /// rules (no escapes, no control characters).
  struct Fields: Sendable {
    var timestamp: Timestamp
    var level: MisuseLevel
    var kind: Text
    var messageID: Text
    var message: Text
    var file: Text
    var line: Int
    var function: Text
    var valueType: Text
    var valuePresent: Bool
    var value: Text?
    var label: Text?
    var test: Text?
    var writer: Text?
    var process: Text
    var pid: Int
    var host: Text
    var run: Text
    var seq: Int
    var suppressed: Int
    /// A run record's counts (`run_records`, `run_events`, `run_dropped`), `nil` when absent.
    var runRecords: Int?
    var runEvents: Int?
    var runDropped: Int?
    /// The structural scan's hashes of the sets of fields (``ContractFieldSets``): a call
    /// site's (kind, file, function, type), a run's (run) and a record's (label, test, writer),
    /// each of the fields' bytes and lengths in order; 0 from ``scan(_:day:)``, which takes no
    /// set. Set only for a set the parser looks up: not for a span found in a
    /// ``ContractSpanMemo``, nor the record's set when it has no label, test or writer.
    var siteHash: UInt64 = 0
    var runHash: UInt64 = 0
    var extraHash: UInt64 = 0
    /// The structural scan's entry of the call site's span in its ``ContractSpanMemo``, or -1
    /// when the span was walked: then ``siteSpan`` is where it lies in the line (and the text
    /// fields above the call site's).
    var siteEntry = -1
    var siteSpan = 0..<0
    /// ``siteEntry`` and ``siteSpan`` of the run's span (process, pid, host, run).
    var runEntry = -1
    var runSpan = 0..<0
  }

  private var kind = StringCache()
  private var messageID = StringCache()
  private var message = StringCache()
  private var file = StringCache()
  private var function = StringCache()
  private var valueType = StringCache()
  private var value = StringCache()
  private var label = StringCache()
  private var test = StringCache()
  private var writer = StringCache()
  private var process = StringCache()
  private var host = StringCache()
  private var run = StringCache()
  private var lastKind: MisuseKind?
  private var day = ContractDay()

  /// The fields of `line`, or `nil` to defer to the exact parser (including for lines the
  /// exact parser will call malformed). The formats of `kind`, `message_id` and `run` and the
  /// UTF-8 of non-ASCII text are left to the caller, which can check each distinct value once.
  @inline(__always)
  static func scan(_ line: UnsafeBufferPointer<UInt8>, day: inout ContractDay) -> Fields? {
    var cursor = Cursor(bytes: line)
    var value: Text?
    var label: Text?
    var test: Text?
    var writer: Text?
    guard cursor.literal(#"{"v":"#), let schema = cursor.integer(), cursor.literal(#","ts":""#),
      let timestamp = cursor.timestamp(&day), cursor.literal(#"","level":""#),
      let level = cursor.level(),
      cursor.literal(#"","kind":"#), let kind = cursor.text(),
      cursor.literal(#","message_id":"#), let messageID = cursor.text(),
      cursor.literal(#","msg":"#), let message = cursor.text(),
      cursor.literal(#","file":"#), let file = cursor.text(),
      cursor.literal(#","line":"#), let lineNumber = cursor.integer(),
      cursor.literal(#","function":"#), let function = cursor.text(),
      cursor.literal(#","value_type":"#), let valueType = cursor.text(),
      cursor.literal(#","value_present":"#), let valuePresent = cursor.boolean()
    else { return nil }
    if cursor.literal(#","value":"#) {
      guard let text = cursor.text() else { return nil }
      value = text
    }
    if cursor.literal(#","label":"#) {
      guard let text = cursor.text() else { return nil }
      label = text
    }
    if cursor.literal(#","test":"#) {
      guard let text = cursor.text() else { return nil }
      test = text
    }
    if cursor.literal(#","writer":"#) {
      guard let text = cursor.text() else { return nil }
      writer = text
    }
    guard cursor.literal(#","process":"#), let process = cursor.text(),
      cursor.literal(#","pid":"#), let pid = cursor.integer(),
      cursor.literal(#","host":"#), let host = cursor.text(),
      cursor.literal(#","run":"#), let run = cursor.text(),
      cursor.literal(#","seq":"#), let seq = cursor.integer(),
      cursor.literal(#","suppressed":"#), let suppressed = cursor.integer()
    else { return nil }
    // A run record's counts, in contract order, each optional.
    var runRecords: Int?
    var runEvents: Int?
    var runDropped: Int?
    if cursor.literal(#","run_records":"#) {
      guard let count = cursor.count() else { return nil }
      runRecords = count
    }
    if cursor.literal(#","run_events":"#) {
      guard let count = cursor.count() else { return nil }
      runEvents = count
    }
    if cursor.literal(#","run_dropped":"#) {
      guard let count = cursor.count() else { return nil }
      runDropped = count
    }
    guard cursor.literal("}"), cursor.atEndAfterBlanks() else { return nil }
    // The checks of `EventDecoder.validate`, on values already typed; anything out of range
    // goes to the exact parser, which says why.
    guard schema == 1, (0...EventDecoder.maxInteger).contains(lineNumber),
      (1...EventDecoder.maxInteger).contains(seq),
      (0...EventDecoder.maxSuppressed).contains(suppressed)
    else { return nil }
    return Fields(
      timestamp: timestamp, level: level, kind: kind, messageID: messageID, message: message,
      file: file, line: lineNumber, function: function, valueType: valueType,
      valuePresent: valuePresent, value: value, label: label, test: test, writer: writer,
      process: process, pid: pid, host: host, run: run, seq: seq, suppressed: suppressed,
      runRecords: runRecords, runEvents: runEvents, runDropped: runDropped)
  }

  /// The event on `line`, or `nil` to defer to the exact parser (including for lines the exact
  /// parser will call malformed).
  mutating func parse(_ line: UnsafeBufferPointer<UInt8>) -> MisuseEvent? {
    guard let fields = ContractFastParser.scan(line, day: &day),
      let kind = kind.string(fields.kind, in: line),
      let messageID = messageID.string(fields.messageID, in: line),
      let message = message.string(fields.message, in: line),
      let file = file.string(fields.file, in: line),
      let function = function.string(fields.function, in: line),
      let valueType = valueType.string(fields.valueType, in: line),
      let process = process.string(fields.process, in: line),
      let host = host.string(fields.host, in: line),
      let run = run.string(fields.run, in: line)
    else { return nil }
    var value: String?
    if let text = fields.value {
      guard let decoded = self.value.string(text, in: line) else { return nil }
      value = decoded
    }
    var label: String?
    if let text = fields.label {
      guard let decoded = self.label.string(text, in: line) else { return nil }
      label = decoded
    }
    var test: String?
    if let text = fields.test {
      guard let decoded = self.test.string(text, in: line) else { return nil }
      test = decoded
    }
    var writer: String?
    if let text = fields.writer {
      guard let decoded = self.writer.string(text, in: line) else { return nil }
      writer = decoded
    }
    // Formats are checked once per distinct string; the caches remember the verdict.
    if !(self.kind.checked && self.messageID.checked && self.run.checked) {
      guard MisuseKind.isKebabCase(kind), Hex.isLowercase(messageID, count: 32),
        Hex.isLowercase(run, count: 16)
      else { return nil }
      self.kind.checked = true
      self.messageID.checked = true
      self.run.checked = true
    }
    let resolved: MisuseKind
    if let lastKind, lastKind.code == kind, lastKind.messageID == messageID {
      resolved = lastKind
    } else {
      resolved = MisuseKind(
        code: kind, messageID: messageID, defaultLevel: EventDecoder.defaultLevel(of: kind))
      lastKind = resolved
    }
    return MisuseEvent(
      schema: 1, timestamp: fields.timestamp, level: fields.level, kind: resolved,
      message: message, file: file, line: fields.line, function: function,
      valueType: valueType, valuePresent: fields.valuePresent, value: value, label: label,
      test: test, writer: writer, process: process, pid: fields.pid, host: host, run: run,
      seq: fields.seq, suppressed: fields.suppressed, runRecords: fields.runRecords,
      runEvents: fields.runEvents, runDropped: fields.runDropped)
  }

  /// The level a contract `level` value names, its 4 to 8 bytes read as one little-endian word
  /// (`error` is `0x72_6f72_7265`), or `nil` for any other word.
  @inline(__always)
  static func level(word: UInt64) -> MisuseLevel? {
    switch word {
    case 0x72_6f72_7265: return .error
    case 0x67_6e69_6e72_6177: return .warning
    case 0x6f66_6e69: return .info
    case 0x6563_6974_6f6e: return .notice
    case 0x6c61_6369_7469_7263: return .critical
    case 0x65_6361_7274: return .trace
    case 0x67_7562_6564: return .debug
    default: return nil
    }
  }

  private struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
      self.bytes = bytes
    }

    /// Matches `text` at the cursor. Keys are short: up to 16 bytes are compared as two
    /// (possibly overlapping) 8-byte words instead of calling `memcmp`.
    @inline(__always)
    /// A non-negative integer no larger than ``EventDecoder/maxInteger`` (a run record's count).
    mutating func count() -> Int? {
      guard let value = integer(), (0...EventDecoder.maxInteger).contains(value) else { return nil }
      return value
    }

    mutating func literal(_ text: StaticString) -> Bool {
      let count = text.utf8CodeUnitCount
      guard index + count <= bytes.count else { return false }
      let here = UnsafeRawPointer(bytes.baseAddress! + index)
      let want = UnsafeRawPointer(text.utf8Start)
      let same: Bool
      if count >= 8 && count <= 16 {
        same =
          here.loadUnaligned(as: UInt64.self) == want.loadUnaligned(as: UInt64.self)
          && here.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            == want.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
      } else {
        same = memcmp(here, want, count) == 0
      }
      guard same else { return false }
      index += count
      return true
    }

    /// A plain JSON integer: `-`? digits, no leading zero, at most 18 digits; a fraction or
    /// exponent gives up.
    mutating func integer() -> Int? {
      var negative = false
      if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
        negative = true
        index += 1
      }
      let start = index
      var value = 0
      while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
        value = value &* 10 &+ Int(bytes[index] &- UInt8(ascii: "0"))
        index += 1
      }
      let digits = index - start
      guard digits > 0, digits <= 18, !(digits > 1 && bytes[start] == UInt8(ascii: "0")) else {
        return nil
      }
      if index < bytes.count,
        bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "e")
          || bytes[index] == UInt8(ascii: "E")
      {
        return nil
      }
      return negative ? -value : value
    }

    mutating func boolean() -> Bool? {
      if literal("true") { return true }
      if literal("false") { return false }
      return nil
    }

    /// A string with no escapes and no control characters; the opening quote is at `index`.
    /// Sixteen bytes are checked at a time, as two words (SWAR), for a quote, a backslash, a
    /// control character or a non-ASCII byte, and an ASCII string's ``StringTable`` hash is
    /// taken from the same loads; a non-ASCII byte or the line's last bytes go byte by byte,
    /// unhashed.
    @inline(__always)
    mutating func text() -> Text? {
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
      index += 1
      let start = index
      let base = UnsafeRawPointer(bytes.baseAddress!)
      var hasher = StringTable.Hasher()
      while index + 16 <= bytes.count {
        let low = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        let high = base.loadUnaligned(fromByteOffset: index &+ 8, as: UInt64.self)
        let lowSpecial = Cursor.special(low)
        let highSpecial = Cursor.special(high)
        if lowSpecial | highSpecial == 0 {
          hasher.combine(low)
          hasher.combine(high)
          index += 16
          continue
        }
        // The lowest flagged byte is exact (borrows only reach bytes above a real one).
        let at =
          lowSpecial != 0
          ? lowSpecial.trailingZeroBitCount &>> 3 : 8 &+ highSpecial.trailingZeroBitCount &>> 3
        let byte = bytes[index &+ at]
        guard byte == UInt8(ascii: "\"") else {
          if byte < 0x80 { return nil }
          // Non-ASCII: checked byte by byte from here, and hashed later.
          index += at
          return rest(from: start)
        }
        if at >= 8 {
          hasher.combine(low)
          hasher.combinePartial(high, count: at &- 8)
        } else {
          hasher.combinePartial(low, count: at)
        }
        let end = index &+ at
        index = end &+ 1
        return Text(start: start, end: end, ascii: true, hash: hasher.finish(count: end &- start))
      }
      return rest(from: start)
    }

    /// The high bit of each byte of `word` below 0x20, equal to a quote or a backslash, or
    /// non-ASCII.
    @inline(__always)
    static func special(_ word: UInt64) -> UInt64 {
      let ones: UInt64 = 0x0101_0101_0101_0101
      let quote = word ^ (ones &* 0x22)
      let slash = word ^ (ones &* 0x5c)
      return
        (((word &- ones &* 0x20) & ~word) | ((quote &- ones) & ~quote)
        | ((slash &- ones) & ~slash) | word) & 0x8080_8080_8080_8080
    }

    /// The rest of a string byte by byte, without its hash; the bytes from `start` to `index`
    /// were checked and are ASCII.
    private mutating func rest(from start: Int) -> Text? {
      var ascii = true
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          let end = index
          index += 1
          return Text(start: start, end: end, ascii: ascii, hash: nil)
        }
        if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
        if byte >= 0x80 { ascii = false }
        index += 1
      }
      return nil
    }

    /// `YYYY-MM-DDTHH:MM:SS.ffffffZ` exactly, then the closing quote is left for the caller.
    mutating func timestamp(_ day: inout ContractDay) -> Timestamp? {
      guard index + 27 <= bytes.count, bytes[index + 26] == UInt8(ascii: "Z") else { return nil }
      let slice = UnsafeBufferPointer(rebasing: bytes[index..<(index + 27)])
      guard let timestamp = Timestamp(contractBytes: slice, day: &day) else { return nil }
      index += 27
      return timestamp
    }

    /// A level name up to its closing quote (left for the caller), read as one little-endian
    /// word and compared with each name's.
    mutating func level() -> MisuseLevel? {
      let start = index
      while index < bytes.count, bytes[index] != UInt8(ascii: "\""), index - start <= 8 {
        index += 1
      }
      let length = index - start
      guard (4...8).contains(length) else { return nil }
      var word: UInt64 = 0
      for offset in 0..<length { word |= UInt64(bytes[start + offset]) << (8 * offset) }
      return ContractFastParser.level(word: word)
    }

    mutating func atEndAfterBlanks() -> Bool {
      while index < bytes.count,
        bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0d
      {
        index += 1
      }
      return index == bytes.count
    }
  }
}
