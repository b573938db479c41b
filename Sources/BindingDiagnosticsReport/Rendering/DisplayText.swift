/// Text from the input made safe for a terminal or a one-line report: control characters
/// (C0, DEL, C1) and line separators become `\u00XX`-style escapes, so a hostile file name or
/// message can neither break a line nor send terminal escape sequences.
public enum DisplayText {
  /// `text` with every control character and line separator escaped.
  /// - Parameter text: Text that came from the input.
  public static func escapingControls(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      if isControl(scalar) {
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    return value < 0x20 || (0x7f...0x9f).contains(value) || value == 0x2028 || value == 0x2029
  }
}
