import BindingDiagnostics
import Foundation

/// One CSV row per group (RFC 4180 quoting), with a header row. Grouped only by `host` and
/// `process` (fields a whole run shares), each row also has its runs' `lost` records and
/// `runs_ended`, `runs_running` and `runs_stale`.
package struct CSVRenderer: Sendable {
  /// At most this many groups (all when `nil`).
  package var top: Int?

  /// A renderer.
  /// - Parameter top: The group limit, or `nil` for all.
  package init(top: Int? = nil) {
    self.top = top
  }

  /// The CSV text, lines ending in CRLF as RFC 4180 says.
  /// - Parameter summary: The summary.
  package func render(_ summary: Summary) -> String {
    var rows: [[String]] = []
    let runLevel = summary.groups.first?.lost != nil
    // Run groups are keyed by the grouping's fields, then host: one per group, or, grouped by
    // process alone, one per process and host.
    var runs: [[String]: Summary.RunStates] = [:]
    var lost: [[String]: Int] = [:]
    if runLevel {
      let positions = summary.groupBy.map { summary.runFields.firstIndex(of: $0)! }
      for group in summary.runGroups {
        let key = positions.map { group.key[$0] }
        var states = runs[key] ?? Summary.RunStates()
        for state in Summary.RunState.allCases { states[state] += group.states[state] }
        runs[key] = states
        lost[key, default: 0] += group.lost
      }
    }
    rows.append(
      ["events", "records"]
        + (runLevel ? ["lost", "runs_ended", "runs_running", "runs_stale"] : [])
        + summary.groupBy.map(\.rawValue)
        + ["first", "last", "processes", "hosts", "value_types", "labels"]
        + MisuseLevel.allCases.reversed().map(\.rawValue))
    for group in summary.groups.prefix(top ?? Int.max) {
      var row = [String(group.events), String(group.records)]
      if runLevel {
        let states = runs[group.key.map(\.description)] ?? Summary.RunStates()
        row += [String(group.lost ?? 0)] + Summary.RunState.allCases.map { String(states[$0]) }
      }
      row += group.key.map(\.description)
      row += [
        group.first.rfc3339, group.last.rfc3339, group.processes.joined(separator: ";"),
        group.hosts.joined(separator: ";"), group.valueTypes.joined(separator: ";"),
        group.labels.joined(separator: ";"),
      ]
      row += MisuseLevel.allCases.reversed().map { String(group.levels[$0] ?? 0) }
      rows.append(row)
    }
    return rows.map { $0.map(CSVRenderer.quote).joined(separator: ",") + "\r\n" }.joined()
  }

  /// A field with control and bidirectional characters other than TAB, CR and LF escaped
  /// (`\u001b`, …), quoted when it holds `,`, `"`, CR or LF (quotes doubled); a leading `=`, `+`,
  /// `-`, `@`, TAB or CR is prefixed with `'` so spreadsheets never run a value as a formula
  /// (OWASP's list), unless the field is a whole number (`-1`). The first Unicode scalar is
  /// what counts: a combining mark after `=` does not hide it.
  static func quote(_ field: String) -> String {
    var field = CSVRenderer.escapingTerminalControls(field)
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

  /// Escapes what could drive a terminal the CSV is printed on (escape sequences, C1 controls,
  /// bidirectional overrides) with the shared escaping; TAB, CR and LF stay, as CSV quoting and
  /// the formula guard handle them.
  static func escapingTerminalControls(_ field: String) -> String {
    var out = ""
    var segment = ""
    for scalar in field.unicodeScalars {
      if scalar == "\t" || scalar == "\r" || scalar == "\n" {
        out += DisplayText.escapingControls(segment)
        out.unicodeScalars.append(scalar)
        segment = ""
      } else {
        segment.unicodeScalars.append(scalar)
      }
    }
    return out + DisplayText.escapingControls(segment)
  }
}

extension CSVRenderer: SummaryRenderer {
  /// Every group unless `--top` says otherwise.
  package init(for summary: Summary, context: RenderContext) {
    self.init(top: context.top)
  }
}
