/// Writes bytes through a raw pointer into memory the caller sized with an upper bound: the
/// encoders' hot path, free of per-append capacity checks.
package struct ByteWriter {
  private(set) var pointer: UnsafeMutablePointer<UInt8>
  private let start: UnsafeMutablePointer<UInt8>

  package init(_ start: UnsafeMutablePointer<UInt8>) {
    self.start = start
    self.pointer = start
  }

  /// Bytes written so far.
  package var count: Int { start.distance(to: pointer) }

  @inline(__always) package mutating func byte(_ value: UInt8) {
    pointer.initialize(to: value)
    pointer += 1
  }

  @inline(__always) package mutating func literal(_ text: StaticString) {
    let count = text.utf8CodeUnitCount
    pointer.update(from: text.utf8Start, count: count)
    pointer += count
  }

  @inline(__always) package mutating func bytes(_ source: UnsafeBufferPointer<UInt8>) {
    guard let base = source.baseAddress else { return }
    pointer.update(from: base, count: source.count)
    pointer += source.count
  }

  package mutating func string(_ text: String) {
    if text.utf8.withContiguousStorageIfAvailable({ bytes($0) }) == nil {
      for value in text.utf8 { byte(value) }
    }
  }

  /// Decimal digits of `value`, two at a time from the right.
  package mutating func decimal(_ value: Int) {
    var magnitude = value.magnitude
    if value < 0 { byte(UInt8(ascii: "-")) }
    // How many digits: compared with powers of ten, no division.
    var digits = 1
    var power: UInt = 10
    while digits < 20, magnitude >= power {
      digits += 1
      power = power &* 10
    }
    var position = pointer + digits
    let pairs = ByteWriter.digitPairs.utf8Start
    while magnitude >= 100 {
      let pair = Int(truncatingIfNeeded: magnitude % 100) &* 2
      magnitude /= 100
      position -= 2
      position[0] = pairs[pair]
      position[1] = pairs[pair &+ 1]
    }
    if magnitude >= 10 {
      let pair = Int(truncatingIfNeeded: magnitude) &* 2
      position[-2] = pairs[pair]
      position[-1] = pairs[pair &+ 1]
    } else {
      position[-1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)
    }
    pointer += digits
  }

  /// "00" to "99", each two digits.
  private static let digitPairs: StaticString = """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """

  /// Exactly two digits of `value` (0…99).
  @inline(__always) mutating func twoDigits(_ value: Int64) {
    byte(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10))
    byte(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
  }

  /// `\u` and four hex digits.
  mutating func unicodeEscape(_ scalar: UInt32) {
    literal(#"\u"#)
    for shift in stride(from: 12, through: 0, by: -4) {
      byte(Hex.digits[Int((scalar >> UInt32(shift)) & 0xf)])
    }
  }

  /// A quoted JSON string: `"` and `\` escaped, control characters as `\u00XX`, and the
  /// characters that readers other than JSON parsers take for line breaks (C1 controls, NEL
  /// among them, and the line and paragraph separators U+2028 and U+2029) as `\u0085`,
  /// `\u2028` and `\u2029`: RFC 8259 lets them stand raw, but Foundation's line enumeration,
  /// Swift's `Character.isNewline` and Python's `splitlines()` would split a record there.
  /// Eight bytes at a time are checked at once (SWAR); each run of bytes that needs no escape is
  /// copied with one copy.
  package mutating func jsonString(_ text: String) {
    byte(UInt8(ascii: "\""))
    if text.utf8.withContiguousStorageIfAvailable({ jsonBytes($0) }) == nil {
      var copy = text
      copy.makeContiguousUTF8()
      copy.utf8.withContiguousStorageIfAvailable { jsonBytes($0) }
    }
    byte(UInt8(ascii: "\""))
  }

  /// The escaped bytes of a JSON string, without its quotes.
  private mutating func jsonBytes(_ utf8: UnsafeBufferPointer<UInt8>) {
    guard let base = utf8.baseAddress else { return }
    let count = utf8.count
    var run = 0  // where the bytes not yet written start; none of them needs an escape
    var index = 0
    while index < count {
      while index + 8 <= count,
        !ByteWriter.needsEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
      {
        index += 8
      }
      let limit = min(index + 8, count)
      while index < limit, !ByteWriter.needsEscape(base[index]) { index += 1 }
      guard index < limit else { continue }
      bytes(UnsafeBufferPointer(start: base + run, count: index - run))
      index += jsonEscape(base + index, available: count - index)
      run = index
    }
    bytes(UnsafeBufferPointer(start: base + run, count: count - run))
  }

  /// Whether `value` is below 0x20, a `"` or a `\`, or the lead byte of a C1 control (0xC2) or
  /// of U+2028/U+2029 (0xE2): a byte the escape loop looks at.
  @inline(__always) static func needsEscape(_ value: UInt8) -> Bool {
    value < 0x20 || value == UInt8(ascii: "\"") || value == UInt8(ascii: "\\") || value == 0xc2
      || value == 0xe2
  }

  /// Writes the byte at `start`, escaped if it needs it, or the escape of the sequence it starts
  /// (a C1 control, U+2028, U+2029); returns how many bytes it took.
  @inline(__always) private mutating func jsonEscape(
    _ start: UnsafePointer<UInt8>, available: Int
  ) -> Int {
    let value = start[0]
    switch value {
    case UInt8(ascii: "\""): literal(#"\""#)
    case UInt8(ascii: "\\"): literal(#"\\"#)
    case ..<0x20: unicodeEscape(UInt32(value))
    case 0xc2 where available >= 2 && (0x80...0x9f).contains(start[1]):
      unicodeEscape(UInt32(start[1]))
      return 2
    case 0xe2 where available >= 3 && start[1] == 0x80 && (start[2] == 0xa8 || start[2] == 0xa9):
      unicodeEscape(0x2000 | UInt32(start[2] & 0x3f))
      return 3
    default: byte(value)
    }
    return 1
  }

  /// Whether any byte of `word` is below 0x20, a `"`, a `\`, 0xC2 or 0xE2.
  @inline(__always) static func needsEscape(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    func hasZero(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
    let below = (word &- ones &* 0x20) & ~word & highs != 0
    return below || hasZero(word ^ (ones &* 0x22)) || hasZero(word ^ (ones &* 0x5c))
      || hasZero(word ^ (ones &* 0xc2)) || hasZero(word ^ (ones &* 0xe2))
  }

  /// The most bytes `jsonString` writes for `text`: every byte escaped as `\u00XX`, plus quotes.
  package static func jsonBound(_ text: String) -> Int { text.utf8.count * 6 + 2 }
}
