/// Encodes events as contract JSON Lines: keys in contract order, no spaces, `\n` at the end.
///
/// Strings are escaped per RFC 8259 with every control character as `\u00XX`, so a record is
/// always exactly one line.
public struct JSONLinesEncoder: Sendable {
  /// An encoder; it has no settings, the contract fixes the form.
  public init() {}

  /// The record for `event`, ending in `\n`.
  /// - Parameter event: The event to encode.
  public func encode(_ event: MisuseEvent) -> [UInt8] {
    var out = [UInt8]()
    out.reserveCapacity(320 + event.message.utf8.count + (event.value?.utf8.count ?? 0))
    encode(event, into: &out)
    return out
  }

  /// Appends the record for `event`, `\n` included, to `out`.
  /// - Parameters:
  ///   - event: The event to encode.
  ///   - out: The buffer to append to.
  public func encode(_ event: MisuseEvent, into out: inout [UInt8]) {
    out.append(contentsOf: #"{"v":"#.utf8)
    out.appendDecimal(event.schema)
    out.append(contentsOf: #","ts":""#.utf8)
    event.timestamp.appendRFC3339(to: &out)
    out.append(contentsOf: #"","level":""#.utf8)
    out.append(contentsOf: event.level.rawValue.utf8)
    out.append(contentsOf: #"","kind":"#.utf8)
    out.appendJSONString(event.kind.code)
    out.append(contentsOf: #","message_id":"#.utf8)
    out.appendJSONString(event.kind.messageID)
    out.append(contentsOf: #","msg":"#.utf8)
    out.appendJSONString(event.message)
    out.append(contentsOf: #","file":"#.utf8)
    out.appendJSONString(event.file)
    out.append(contentsOf: #","line":"#.utf8)
    out.appendDecimal(event.line)
    out.append(contentsOf: #","function":"#.utf8)
    out.appendJSONString(event.function)
    out.append(contentsOf: #","value_type":"#.utf8)
    out.appendJSONString(event.valueType)
    out.append(contentsOf: #","value_present":"#.utf8)
    out.append(contentsOf: (event.valuePresent ? "true" : "false").utf8)
    if let value = event.value {
      out.append(contentsOf: #","value":"#.utf8)
      out.appendJSONString(value)
    }
    if let label = event.label {
      out.append(contentsOf: #","label":"#.utf8)
      out.appendJSONString(label)
    }
    out.append(contentsOf: #","process":"#.utf8)
    out.appendJSONString(event.process)
    out.append(contentsOf: #","pid":"#.utf8)
    out.appendDecimal(event.pid)
    out.append(contentsOf: #","host":"#.utf8)
    out.appendJSONString(event.host)
    out.append(contentsOf: #","run":"#.utf8)
    out.appendJSONString(event.run)
    out.append(contentsOf: #","seq":"#.utf8)
    out.appendDecimal(event.seq)
    out.append(contentsOf: #","suppressed":"#.utf8)
    out.appendDecimal(event.suppressed)
    out.append(contentsOf: "}\n".utf8)
  }
}

extension Array where Element == UInt8 {
  /// Appends the decimal digits of `value`.
  package mutating func appendDecimal(_ value: Int) {
    if value < 0 {
      append(UInt8(ascii: "-"))
      appendDecimal(magnitude: value.magnitude)
    } else {
      appendDecimal(magnitude: UInt(value))
    }
  }

  private mutating func appendDecimal(magnitude: UInt) {
    var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
      UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
      (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    var rest = magnitude
    Swift.withUnsafeMutableBytes(of: &digits) { buffer in
      repeat {
        buffer[19 - count] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
        count += 1
      } while rest > 0
      append(contentsOf: buffer[(20 - count)...])
    }
  }

  /// Appends `text` as a quoted JSON string: `"` and `\` escaped, control characters as `\u00XX`.
  package mutating func appendJSONString(_ text: String) {
    append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { utf8 in
      var runStart = 0
      for index in 0..<utf8.count {
        let byte = utf8[index]
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
          continue
        }
        append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
        runStart = index + 1
        switch byte {
        case UInt8(ascii: "\""): append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): append(contentsOf: #"\\"#.utf8)
        default: appendUnicodeEscape(byte)
        }
      }
      append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
    }
    append(UInt8(ascii: "\""))
  }

  /// Appends `\u00XX` for a byte below 0x80, or `\uXXXX` for a scalar below 0x10000.
  package mutating func appendUnicodeEscape(_ scalar: UInt32) {
    append(contentsOf: #"\u"#.utf8)
    for shift in [UInt32(12), 8, 4, 0] {
      append(Hex.digits[Int((scalar >> shift) & 0xf)])
    }
  }

  package mutating func appendUnicodeEscape(_ byte: UInt8) {
    appendUnicodeEscape(UInt32(byte))
  }
}
