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
    out.append(contentsOf: "v=".utf8)
    out.appendDecimal(event.schema)
    out.append(contentsOf: " ts=".utf8)
    event.timestamp.appendRFC3339(to: &out)
    out.append(contentsOf: " level=".utf8)
    out.append(contentsOf: event.level.rawValue.utf8)
    field(" kind=", event.kind.code, &out)
    field(" message_id=", event.kind.messageID, &out)
    field(" msg=", event.message, &out)
    field(" file=", event.file, &out)
    out.append(contentsOf: " line=".utf8)
    out.appendDecimal(event.line)
    field(" function=", event.function, &out)
    field(" value_type=", event.valueType, &out)
    out.append(contentsOf: (event.valuePresent ? " value_present=true" : " value_present=false").utf8)
    if let value = event.value { field(" value=", value, &out) }
    if let label = event.label { field(" label=", label, &out) }
    field(" process=", event.process, &out)
    out.append(contentsOf: " pid=".utf8)
    out.appendDecimal(event.pid)
    field(" host=", event.host, &out)
    field(" run=", event.run, &out)
    out.append(contentsOf: " seq=".utf8)
    out.appendDecimal(event.seq)
    out.append(contentsOf: " suppressed=".utf8)
    out.appendDecimal(event.suppressed)
    out.append(UInt8(ascii: "\n"))
  }

  private func field(_ key: StaticString, _ value: String, _ out: inout [UInt8]) {
    out.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
    out.appendLogfmtValue(value)
  }
}

extension Array where Element == UInt8 {
  /// Appends `text` as a logfmt value: bare when safe, else quoted and escaped.
  package mutating func appendLogfmtValue(_ text: String) {
    var needsQuotes = text.isEmpty
    if !needsQuotes {
      for scalar in text.unicodeScalars where LogfmtEscaping.needsQuoting(scalar) {
        needsQuotes = true
        break
      }
    }
    guard needsQuotes else {
      append(contentsOf: text.utf8)
      return
    }
    append(UInt8(ascii: "\""))
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": append(contentsOf: #"\""#.utf8)
      case "\\": append(contentsOf: #"\\"#.utf8)
      case "\n": append(contentsOf: #"\n"#.utf8)
      case "\r": append(contentsOf: #"\r"#.utf8)
      case "\t": append(contentsOf: #"\t"#.utf8)
      default:
        if LogfmtEscaping.isControl(scalar) {
          appendUnicodeEscape(scalar.value)
        } else {
          append(contentsOf: String(scalar).utf8)
        }
      }
    }
    append(UInt8(ascii: "\""))
  }
}

/// The character classes of the logfmt form.
package enum LogfmtEscaping {
  /// C0 and C1 controls, DEL, and U+2028/U+2029: never written raw.
  package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    return value < 0x20 || (0x7f...0x9f).contains(value) || value == 0x2028 || value == 0x2029
  }

  /// Whether a value holding `scalar` must be quoted.
  package static func needsQuoting(_ scalar: Unicode.Scalar) -> Bool {
    scalar == " " || scalar == "=" || scalar == "\"" || scalar == "\\" || isControl(scalar)
  }
}
