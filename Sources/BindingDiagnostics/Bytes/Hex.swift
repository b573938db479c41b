/// Lowercase hexadecimal helpers.
package enum Hex {
  static let digits: [UInt8] = Array("0123456789abcdef".utf8)

  /// The 8 bytes of `value` in little-endian order (SipHash's output order) as 16 hex digits.
  static func littleEndianBytes(_ value: UInt64) -> String {
    var out = [UInt8]()
    out.reserveCapacity(16)
    for index in 0..<8 {
      let byte = UInt8(truncatingIfNeeded: value >> (UInt64(index) * 8))
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0xf)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// `value` as exactly 16 hex digits, most significant first.
  static func fixed64(_ value: UInt64) -> String {
    var out = [UInt8](repeating: UInt8(ascii: "0"), count: 16)
    var rest = value
    for index in stride(from: 15, through: 0, by: -1) {
      out[index] = digits[Int(rest & 0xf)]
      rest >>= 4
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Parses exactly `2 * count` hex digits into bytes; `nil` on any other input.
  static func bytes(_ text: String, count: Int) -> [UInt8]? {
    let utf8 = Array(text.utf8)
    guard utf8.count == count * 2 else { return nil }
    var out = [UInt8]()
    out.reserveCapacity(count)
    var index = 0
    while index < utf8.count {
      guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
      out.append(high << 4 | low)
      index += 2
    }
    return out
  }

  /// Whether `text` is exactly `count` lowercase hex digits.
  package static func isLowercase(_ text: String, count: Int) -> Bool {
    var seen = 0
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): seen += 1
      default: return false
      }
    }
    return seen == count
  }

  private static func nibble(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
