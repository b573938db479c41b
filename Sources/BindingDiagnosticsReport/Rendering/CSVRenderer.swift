import BindingDiagnostics
import Foundation

/// One CSV row per group (RFC 4180 quoting), with a header row.
public struct CSVRenderer: Sendable {
  /// At most this many groups (all when `nil`).
  public var top: Int?

  /// A renderer.
  /// - Parameter top: The group limit, or `nil` for all.
  public init(top: Int? = nil) {
    self.top = top
  }

  /// The CSV text, lines ending in CRLF as RFC 4180 says.
  /// - Parameter summary: The summary.
  public func render(_ summary: Summary) -> String {
    var rows: [[String]] = []
    rows.append(
      ["events", "records"] + summary.groupBy.map(\.rawValue)
        + ["first", "last", "processes", "hosts", "value_types"]
        + MisuseLevel.allCases.reversed().map(\.rawValue))
    for group in summary.groups.prefix(top ?? Int.max) {
      var row = [String(group.events), String(group.records)]
      row += group.key.map(\.description)
      row += [
        group.first.rfc3339, group.last.rfc3339, group.processes.joined(separator: ";"),
        group.hosts.joined(separator: ";"), group.valueTypes.joined(separator: ";"),
      ]
      row += MisuseLevel.allCases.reversed().map { String(group.levels[$0] ?? 0) }
      rows.append(row)
    }
    return rows.map { $0.map(CSVRenderer.quote).joined(separator: ",") + "\r\n" }.joined()
  }

  /// A field with control and bidirectional characters escaped (`\n`, `\u{1B}`, …), quoted when it
  /// holds `,` or `"` (quotes doubled); a leading `=`, `+`,
  /// `-`, `@`, TAB or CR is prefixed with `'` so spreadsheets never run a value as a formula
  /// (OWASP's list). The first Unicode scalar is what counts: a combining mark after `=` does
  /// not hide it.
  static func quote(_ field: String) -> String {
    // Text from the input never carries raw control or bidi characters: the file may well be
    // printed on a terminal (`bindiag summary --format csv`).
    var field = DisplayText.escapingControls(field)
    if let first = field.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first),
      Int(field) == nil
    {
      field = "'" + field
    }
    guard
      field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
    else { return field }
    return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
