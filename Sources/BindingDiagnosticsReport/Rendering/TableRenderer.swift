import BindingDiagnostics
import Foundation

/// The human summary: an aligned table of groups with a small histogram each, then lost,
/// duplicated, malformed and other lines called out.
public struct TableRenderer: Sendable {
  /// At most this many groups (all when `nil`).
  public var top: Int?

  /// A renderer.
  /// - Parameter top: The group limit (20 by default), or `nil` for all.
  public init(top: Int? = 20) {
    self.top = top
  }

  /// The table and notes, ending in a newline.
  /// - Parameter summary: The summary.
  public func render(_ summary: Summary) -> String {
    var lines: [String] = []
    let span: String
    if let first = summary.first, let last = summary.last {
      span = ", \(TableRenderer.short(first)) to \(TableRenderer.short(last)) UTC"
    } else {
      span = ""
    }
    lines.append(
      "\(TableRenderer.number(summary.events)) \(summary.events == 1 ? "event" : "events") in "
        + "\(TableRenderer.number(summary.records)) \(summary.records == 1 ? "record" : "records") "
        + "from \(summary.runs) \(summary.runs == 1 ? "run" : "runs")\(span)")
    if summary.groups.isEmpty {
      lines.append("")
      lines.append("No misuse events found.")
    } else {
      lines.append("")
      let columns = TableRenderer.columns(summary.groupBy)
      var header =
        ["EVENTS", "RECORDS"] + columns.map(\.title) + [
          "FIRST SEEN", "LAST SEEN", "PROCS", "OVER TIME",
        ]
      var rows: [[String]] = []
      let shown = summary.groups.prefix(top ?? Int.max)
      for group in shown {
        var row = [TableRenderer.number(group.events), TableRenderer.number(group.records)]
        row += columns.map { DisplayText.escapingControls($0.value(group)) }
        row += [
          TableRenderer.short(group.first), TableRenderer.short(group.last),
          String(group.processes.count),
          TableRenderer.sparkline(group.histogram),
        ]
        rows.append(row)
      }
      let rightAligned: Set<Int> = [0, 1, header.count - 2]
      var widths = header.map(\.count)
      for row in rows {
        for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
      }
      func format(_ row: [String]) -> String {
        var parts: [String] = []
        for (index, cell) in row.enumerated() {
          let padding = String(repeating: " ", count: widths[index] - cell.count)
          parts.append(rightAligned.contains(index) ? padding + cell : cell + padding)
        }
        return parts.joined(separator: "  ").trimmingTrailingSpaces()
      }
      header = header.enumerated().map { $0.element }
      lines.append(format(header))
      for row in rows { lines.append(format(row)) }
      if summary.groups.count > shown.count {
        let hidden = summary.groups.count - shown.count
        lines.append("… \(hidden) more \(hidden == 1 ? "group" : "groups") (--top 0 shows all)")
      }
    }
    lines.append("")
    if summary.lost > 0 {
      let worst = summary.lostRuns.prefix(5).map {
        "\(DisplayText.escapingControls($0.process)) run \($0.run): \($0.lost)"
      }
      let more = summary.lostRuns.count > 5 ? ", …" : ""
      lines.append(
        "Lost records: \(TableRenderer.number(summary.lost)) in \(summary.lostRuns.count) "
          + "\(summary.lostRuns.count == 1 ? "run" : "runs") (\(worst.joined(separator: ", "))\(more))"
      )
    } else {
      lines.append("Lost records: 0")
    }
    if summary.duplicates > 0 {
      lines.append("Duplicated records: \(TableRenderer.number(summary.duplicates)) (counted once)")
    }
    if summary.malformed > 0 {
      lines.append(
        "Malformed lines: \(TableRenderer.number(summary.malformed)) (see standard error)")
    }
    if summary.other > 0 {
      lines.append("Other lines: \(TableRenderer.number(summary.other)) (not events, ignored)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  struct Column {
    let title: String
    let value: (Summary.Group) -> String
  }

  /// One column per grouping field, with `file` and `line` shown together as `SITE`.
  static func columns(_ fields: [GroupField]) -> [Column] {
    var columns: [Column] = []
    let combined = fields.contains(.file) && fields.contains(.line)
    for (index, field) in fields.enumerated() {
      switch field {
      case .line where combined:
        continue
      case .file where combined:
        let lineIndex = fields.firstIndex(of: .line)!
        columns.append(Column(title: "SITE") { "\($0.key[index]):\($0.key[lineIndex])" })
      default:
        let title = field == .valueType ? "VALUE TYPE" : field.rawValue.uppercased()
        columns.append(Column(title: title) { $0.key[index].description })
      }
    }
    return columns
  }

  /// `2026-11-30 04:12:33`.
  static func short(_ timestamp: Timestamp) -> String {
    String(timestamp.rfc3339.prefix(19)).replacingOccurrences(of: "T", with: " ")
  }

  /// `1,234,567`.
  static func number(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var out = ""
    for (index, character) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
      out.append(character)
    }
    return value < 0 ? "-" + out : out
  }

  /// Eight bars scaled to the busiest bin: ` ▁▂▃▄▅▆▇█`.
  static func sparkline(_ bins: [Int]) -> String {
    let bars = Array(" ▁▂▃▄▅▆▇█")
    let peak = bins.max() ?? 0
    guard peak > 0 else { return String(repeating: " ", count: bins.count) }
    return String(
      bins.map { count in
        count == 0 ? bars[0] : bars[max(1, Int((Double(count) / Double(peak) * 8).rounded(.up)))]
      })
  }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var result = self
    while result.last == " " { result.removeLast() }
    return result
  }
}
