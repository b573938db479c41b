/// Cutting text at a UTF-8 byte budget without splitting a scalar.
enum Truncation {
  /// `text` if it fits in `maxBytes` UTF-8 bytes; otherwise its longest scalar-aligned prefix
  /// that fits together with `…` (3 bytes), followed by `…`.
  static func cut(_ text: String, maxBytes: Int) -> String {
    guard text.utf8.count > maxBytes else { return text }
    let budget = max(0, maxBytes - 3)
    var used = 0
    var end = text.unicodeScalars.startIndex
    for scalar in text.unicodeScalars {
      let size = UTF8.width(scalar)
      if used + size > budget { break }
      used += size
      end = text.unicodeScalars.index(after: end)
    }
    return String(text.unicodeScalars[..<end]) + "…"
  }
}
