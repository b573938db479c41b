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

  /// A quoted JSON string: `"` and `\` escaped, control characters as `\u00XX`. Eight bytes
  /// at a time are checked at once (SWAR); each run of bytes that needs no escape is copied
  /// with one copy.
  package mutating func jsonString(_ text: String) {
    byte(UInt8(ascii: "\""))
    let done: Bool? = text.utf8.withContiguousStorageIfAvailable { utf8 in
      guard let base = utf8.baseAddress else { return true }
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
        jsonByte(base[index])
        index += 1
        run = index
      }
      bytes(UnsafeBufferPointer(start: base + run, count: count - run))
      return true
    }
    if done == nil {
      for value in text.utf8 { jsonByte(value) }
    }
    byte(UInt8(ascii: "\""))
  }

  /// Whether `value` is below 0x20, a `"` or a `\`.
  @inline(__always) static func needsEscape(_ value: UInt8) -> Bool {
    value < 0x20 || value == UInt8(ascii: "\"") || value == UInt8(ascii: "\\")
  }

  @inline(__always) private mutating func jsonByte(_ value: UInt8) {
    switch value {
    case UInt8(ascii: "\""): literal(#"\""#)
    case UInt8(ascii: "\\"): literal(#"\\"#)
    case ..<0x20: unicodeEscape(UInt32(value))
    default: byte(value)
    }
  }

  /// Whether any byte of `word` is below 0x20, a `"` or a `\`.
  @inline(__always) static func needsEscape(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    func hasZero(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
    let below = (word &- ones &* 0x20) & ~word & highs != 0
    return below || hasZero(word ^ (ones &* 0x22)) || hasZero(word ^ (ones &* 0x5c))
  }

  /// The most bytes `jsonString` writes for `text`: every byte escaped as `\u00XX`, plus quotes.
  package static func jsonBound(_ text: String) -> Int { text.utf8.count * 6 + 2 }
}
