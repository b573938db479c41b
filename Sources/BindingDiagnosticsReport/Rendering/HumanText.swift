/// Numbers and counted nouns as every human format writes them (`1,234 events`, `1 run`), so
/// the table, Markdown, HTML, progress and messages agree. Machine formats write plain digits.
package enum HumanText {
  /// Digits grouped by threes with commas: `1,234,567`.
  /// - Parameter value: The number.
  package static func number(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var out = ""
    out.reserveCapacity(digits.count + digits.count / 3 + 1)
    for (index, character) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
      out.append(character)
    }
    return value < 0 ? "-" + out : out
  }

  /// `value` and the noun, singular for exactly one: `1 run`, `2 runs`, `1,000 events`.
  /// - Parameters:
  ///   - value: The count.
  ///   - singular: The noun for one.
  ///   - plural: The noun for any other count; `singular` + `s` by default.
  package static func count(_ value: Int, _ singular: String, _ plural: String? = nil) -> String {
    number(value) + " " + (value == 1 ? singular : plural ?? singular + "s")
  }

  /// Bytes in MiB with one decimal: `12.3 MiB`.
  /// - Parameter bytes: The byte count.
  package static func mebibytes(_ bytes: Int) -> String {
    let tenths = (bytes * 10 + (1 << 19)) >> 20
    return number(tenths / 10) + "." + String(tenths % 10) + " MiB"
  }
}
