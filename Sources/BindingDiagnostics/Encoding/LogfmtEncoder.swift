/// Encodes events as contract logfmt, the standard-error text form.
///
/// The contract's keys in the contract's order, `key=value` separated by one space. A value is
/// quoted when it is empty or holds a space, `=`, `"`, `\` or a control character; inside quotes
/// `\"` `\\` `\n` `\r` `\t` and `\u00XX` escape. C1 controls, DEL and the Unicode line and
/// paragraph separators are escaped too, so no value can start a new line in any viewer.
public struct LogfmtEncoder: Sendable {
  /// An encoder; it has no settings, the contract fixes the form.
  public init() {}

  /// The line for `event`, ending in `\n`.
  /// - Parameter event: The event to encode.
  public func encode(_ event: MisuseEvent) -> [UInt8] {
    var out = [UInt8]()
    out.reserveCapacity(320 + event.message.utf8.count + (event.value?.utf8.count ?? 0))
    encode(event, into: &out)
    return out
  }

  /// Appends the line for `event`, `\n` included, to `out`.
  /// - Parameters:
  ///   - event: The event to encode.
  ///   - out: The buffer to append to.
  public func encode(_ event: MisuseEvent, into out: inout [UInt8]) {
    var first = true
    for field in ContractField.all {
      guard let value = field.value(of: event) else { continue }
      if !first { out.append(UInt8(ascii: " ")) }
      first = false
      out.append(contentsOf: field.key.utf8)
      out.append(UInt8(ascii: "="))
      switch value {
      case .integer(let number): out.appendDecimal(number)
      case .boolean(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
      case .text(let text): out.appendLogfmtValue(text)
      }
    }
    out.append(UInt8(ascii: "\n"))
  }
}

extension Array where Element == UInt8 {
  /// Appends `text` as a logfmt value: bare when safe, else quoted and escaped. Works on the
  /// UTF-8 bytes: C1 controls are `C2 80`…`C2 9F`, U+2028/U+2029 are `E2 80 A8`/`E2 80 A9`.
  package mutating func appendLogfmtValue(_ text: String) {
    var text = text
    text.withUTF8 { utf8 in
      var needsQuotes = utf8.isEmpty
      var index = 0
      while !needsQuotes && index < utf8.count {
        needsQuotes =
          LogfmtEscaping.specialLength(utf8, at: index) != nil
          || utf8[index] == UInt8(ascii: " ") || utf8[index] == UInt8(ascii: "=")
        index += 1
      }
      guard needsQuotes else {
        append(contentsOf: utf8)
        return
      }
      append(UInt8(ascii: "\""))
      var runStart = 0
      index = 0
      while index < utf8.count {
        guard let length = LogfmtEscaping.specialLength(utf8, at: index) else {
          index += 1
          continue
        }
        append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
        switch utf8[index] {
        case UInt8(ascii: "\""): append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): append(contentsOf: #"\\"#.utf8)
        case 0x0a: append(contentsOf: #"\n"#.utf8)
        case 0x0d: append(contentsOf: #"\r"#.utf8)
        case 0x09: append(contentsOf: #"\t"#.utf8)
        case 0xc2: appendUnicodeEscape(UInt32(utf8[index + 1]))
        case 0xe2: appendUnicodeEscape(UInt32(0x2000) | UInt32(utf8[index + 2] & 0x3f))
        default: appendUnicodeEscape(UInt32(utf8[index]))
        }
        index += length
        runStart = index
      }
      append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
      append(UInt8(ascii: "\""))
    }
  }
}

/// The character classes of the logfmt form.
package enum LogfmtEscaping {
  /// `text` with every control character (``isControl(_:)``) and bidirectional control
  /// (``isBidiControl(_:)``) written as a `\uXXXX` escape, so it can neither break a line,
  /// nor reach a terminal as an escape sequence, nor reorder what is shown around it. For
  /// human output only: the logfmt wire form escapes what the contract says.
  package static func escapingControls(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { isControl($0) || isBidiControl($0) }) else {
      return text
    }
    var out = ""
    for scalar in text.unicodeScalars {
      if isControl(scalar) || isBidiControl(scalar) {
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// C0 and C1 controls, DEL, and U+2028/U+2029: never written raw.
  package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    return value < 0x20 || (0x7f...0x9f).contains(value) || value == 0x2028 || value == 0x2029
  }

  /// The explicit bidirectional formatting characters (embeddings and overrides U+202A–U+202E,
  /// isolates U+2066–U+2069), which make a terminal show text in another order than it is
  /// (as in "Trojan Source").
  package static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
    (0x202a...0x202e).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
  }

  /// The byte length of an escaped sequence at `index` (a quote, a backslash, a C0 control or
  /// DEL, a C1 control, U+2028 or U+2029), or `nil` for a byte written as it is.
  @inline(__always)
  package static func specialLength(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
    let byte = utf8[index]
    if byte < 0x20 || byte == 0x7f || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
      return 1
    }
    if byte == 0xc2, index + 1 < utf8.count, (0x80...0x9f).contains(utf8[index + 1]) { return 2 }
    if byte == 0xe2, index + 2 < utf8.count, utf8[index + 1] == 0x80,
      utf8[index + 2] == 0xa8 || utf8[index + 2] == 0xa9
    {
      return 3
    }
    return nil
  }
}
