import Foundation

/// A Markdown summary for CI job summaries: a heading, totals, and a table of groups.
public struct MarkdownRenderer: Sendable {
  /// At most this many groups (all when `nil`).
  public var top: Int?

  /// A renderer.
  /// - Parameter top: The group limit (20 by default), or `nil` for all.
  public init(top: Int? = 20) {
    self.top = top
  }

  /// The Markdown text.
  /// - Parameter summary: The summary.
  public func render(_ summary: Summary) -> String {
    var lines = ["## Binding misuse summary", ""]
    lines.append(
      "**\(TableRenderer.number(summary.events))** events in \(TableRenderer.number(summary.records)) records "
        + "from \(summary.runs) runs · lost records: \(summary.lost) · duplicates: \(summary.duplicates) "
        + "· malformed lines: \(summary.malformed) · other lines: \(summary.other)")
    lines.append("")
    if summary.groups.isEmpty {
      lines.append("No misuse events found.")
      return lines.joined(separator: "\n") + "\n"
    }
    let columns = TableRenderer.columns(summary.groupBy)
    let header =
      ["Events", "Records"] + columns.map { $0.title.capitalized } + [
        "First seen", "Last seen", "Processes",
      ]
    lines.append("| " + header.joined(separator: " | ") + " |")
    lines.append(
      "|" + header.enumerated().map { $0.offset < 2 ? " ---: " : " --- " }.joined(separator: "|")
        + "|")
    let shown = summary.groups.prefix(top ?? Int.max)
    for group in shown {
      var cells = [String(group.events), String(group.records)]
      cells += columns.map { "`" + MarkdownRenderer.escape($0.value(group)) + "`" }
      cells += [
        TableRenderer.short(group.first), TableRenderer.short(group.last),
        MarkdownRenderer.escape(group.processes.joined(separator: ", ")),
      ]
      lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    if summary.groups.count > shown.count {
      lines.append("")
      lines.append("_\(summary.groups.count - shown.count) more groups not shown._")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Escapes what would break a table cell: `|`, backticks and line breaks.
  static func escape(_ text: String) -> String {
    var out = ""
    for character in DisplayText.escapingControls(text) {
      switch character {
      case "|": out += "\\|"
      case "`": out += "'"
      case "\n", "\r", "\r\n": out += " "
      default: out.append(character)
      }
    }
    return out
  }
}
