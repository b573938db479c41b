import BindingDiagnostics

/// The fast path for lines exactly as the JSON Lines sink writes them: keys in contract order,
/// no blanks, no escapes. It reads the bytes once, builds strings only when a field changes
/// from the previous line, and gives up (`nil`) at the first deviation, leaving the line to
/// the exact parser. Whatever it accepts, the exact parser accepts identically (tested).
struct ContractFastParser: Sendable {
  private var kind = StringCache()
  private var messageID = StringCache()
  private var message = StringCache()
  private var file = StringCache()
  private var function = StringCache()
  private var valueType = StringCache()
  private var value = StringCache()
  private var label = StringCache()
  private var process = StringCache()
  private var host = StringCache()
  private var run = StringCache()
  private var lastKind: MisuseKind?

  /// The event on `line`, or `nil` to defer to the exact parser (including for lines the exact
  /// parser will call malformed).
  mutating func parse(_ line: UnsafeBufferPointer<UInt8>) -> MisuseEvent? {
    var cursor = Cursor(bytes: line)
    var value: String?
    var label: String?
    guard cursor.literal(#"{"v":"#), let schema = cursor.integer(), cursor.literal(#","ts":""#),
      let timestamp = cursor.timestamp(), cursor.literal(#"","level":""#),
      let level = cursor.level(),
      cursor.literal(#"","kind":"#), let kind = cursor.string(&kind),
      cursor.literal(#","message_id":"#), let messageID = cursor.string(&messageID),
      cursor.literal(#","msg":"#), let message = cursor.string(&message),
      cursor.literal(#","file":"#), let file = cursor.string(&file),
      cursor.literal(#","line":"#), let lineNumber = cursor.integer(),
      cursor.literal(#","function":"#), let function = cursor.string(&function),
      cursor.literal(#","value_type":"#), let valueType = cursor.string(&valueType),
      cursor.literal(#","value_present":"#), let valuePresent = cursor.boolean()
    else { return nil }
    if cursor.literal(#","value":"#) {
      guard let text = cursor.string(&self.value) else { return nil }
      value = text
    }
    if cursor.literal(#","label":"#) {
      guard let text = cursor.string(&self.label) else { return nil }
      label = text
    }
    guard cursor.literal(#","process":"#), let process = cursor.string(&process),
      cursor.literal(#","pid":"#), let pid = cursor.integer(),
      cursor.literal(#","host":"#), let host = cursor.string(&host),
      cursor.literal(#","run":"#), let run = cursor.string(&run),
      cursor.literal(#","seq":"#), let seq = cursor.integer(),
      cursor.literal(#","suppressed":"#), let suppressed = cursor.integer(),
      cursor.literal("}"), cursor.atEndAfterBlanks()
    else { return nil }
    // The checks of `EventDecoder.validate`, on values already typed; anything out of range
    // goes to the exact parser, which says why.
    guard schema == 1, (0...EventDecoder.maxInteger).contains(lineNumber),
      (1...EventDecoder.maxInteger).contains(seq),
      (0...EventDecoder.maxSuppressed).contains(suppressed)
    else { return nil }
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
      schema: schema, timestamp: timestamp, level: level, kind: resolved, message: message,
      file: file, line: lineNumber, function: function, valueType: valueType,
      valuePresent: valuePresent, value: value, label: label, process: process, pid: pid,
      host: host, run: run, seq: seq, suppressed: suppressed)
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
    /// Eight bytes are checked at a time (SWAR) for a quote, a backslash, a control character
    /// or a non-ASCII byte; only a word holding one is looked at byte by byte.
    mutating func string(_ cache: inout StringCache) -> String? {
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
      index += 1
      let start = index
      let base = bytes.baseAddress!
      var ascii = true
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highs: UInt64 = 0x8080_8080_8080_8080
      while index + 8 <= bytes.count {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        let quote = word ^ (ones &* 0x22)
        let slash = word ^ (ones &* 0x5c)
        let special =
          ((word &- ones &* 0x20) & ~word) | ((quote &- ones) & ~quote) | ((slash &- ones) & ~slash)
          | word
        if special & highs == 0 {
          index += 8
          continue
        }
        break
      }
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
          index += 1
          return cache.string(slice, ascii: ascii)
        }
        if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
        if byte >= 0x80 { ascii = false }
        index += 1
      }
      return nil
    }

    /// `YYYY-MM-DDTHH:MM:SS.ffffffZ` exactly, then the closing quote is left for the caller.
    mutating func timestamp() -> Timestamp? {
      guard index + 27 <= bytes.count, bytes[index + 26] == UInt8(ascii: "Z") else { return nil }
      let slice = UnsafeBufferPointer(rebasing: bytes[index..<(index + 27)])
      guard let timestamp = Timestamp(contractBytes: slice) else { return nil }
      index += 27
      return timestamp
    }

    mutating func level() -> MisuseLevel? {
      let start = index
      while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += 1 }
      switch index - start {
      case 5:
        if memcmp(bytes.baseAddress! + start, "error", 5) == 0 { return .error }
        if memcmp(bytes.baseAddress! + start, "trace", 5) == 0 { return .trace }
        if memcmp(bytes.baseAddress! + start, "debug", 5) == 0 { return .debug }
      case 7:
        if memcmp(bytes.baseAddress! + start, "warning", 7) == 0 { return .warning }
      default:
        break
      }
      return MisuseLevel(
        rawValue: String(
          decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
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

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Timestamp {
  /// Parses the contract's exact 27-byte form without allocating; `nil` for anything else.
  init?(contractBytes b: UnsafeBufferPointer<UInt8>) {
    guard b.count == 27, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
      b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
      b[19] == UInt8(ascii: "."), b[26] == UInt8(ascii: "Z")
    else { return nil }
    // Every digit position at once: any byte that is not 0-9 makes `bad` non-zero.
    var bad: UInt8 = 0
    @inline(__always) func digit(_ offset: Int) -> Int64 {
      let value = b[offset] &- UInt8(ascii: "0")
      bad |= value > 9 ? 1 : 0
      return Int64(value)
    }
    let year = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3)
    let month = digit(5) * 10 + digit(6)
    let day = digit(8) * 10 + digit(9)
    let hour = digit(11) * 10 + digit(12)
    let minute = digit(14) * 10 + digit(15)
    let second = digit(17) * 10 + digit(18)
    var fraction: Int64 = 0
    for offset in 20..<26 { fraction = fraction * 10 + digit(offset) }
    guard bad == 0, (1...12).contains(month), day >= 1,
      day <= Timestamp.daysIn(month: month, year: year), hour < 24, minute < 60, second < 61
    else { return nil }
    let days = Timestamp.days(fromCivil: year, month, day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59)
    self.init(microsecondsSinceEpoch: seconds * 1_000_000 + fraction)
  }
}
