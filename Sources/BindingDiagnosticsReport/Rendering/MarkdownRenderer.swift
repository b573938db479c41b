import BindingDiagnostics
import Foundation

/// A Markdown summary for CI job summaries: a heading, totals, and a table of groups.
package struct MarkdownRenderer: Sendable {
  /// At most this many groups (all when `nil`).
  package var top: Int?

  /// A renderer.
  /// - Parameter top: The group limit (20 by default), or `nil` for all.
  package init(top: Int? = 20) {
    self.top = top
  }

  /// The Markdown text.
  /// - Parameter summary: The summary.
  package func render(_ summary: Summary) -> String {
    var lines = ["## Binding misuse summary", ""]
    lines.append(
      "**\(HumanText.number(summary.events))** \(summary.events == 1 ? "event" : "events") in "
        + "\(HumanText.count(summary.records, "record")) from \(HumanText.count(summary.runs, "run")) "
        + "· lost records: \(HumanText.number(summary.lost)) "
        + (summary.lostHead > 0
          ? "(\(HumanText.number(summary.lostHead)) before the oldest record seen) " : "")
        + (summary.runDropped > 0
          ? "· dropped by the sinks: \(HumanText.number(summary.runDropped)) " : "")
        + "· runs: \(HumanText.number(summary.runStates.ended)) ended, "
        + "\(HumanText.number(summary.runStates.running)) running, "
        + "\(HumanText.number(summary.runStates.stale)) stale "
        + "· duplicates: \(HumanText.number(summary.duplicates)) "
        + "· malformed lines: \(HumanText.number(summary.malformed)) "
        + "· other lines: \(HumanText.number(summary.other))")
    lines.append("")
    func run(_ process: String, _ run: String, _ host: String) -> String {
      "`\(MarkdownRenderer.escape(process))` run `\(MarkdownRenderer.escape(run))` on "
        + "`\(MarkdownRenderer.escape(host))`"
    }
    if !summary.lostRuns.isEmpty {
      let shown = summary.lostRuns.prefix(top ?? Int.max)
      lines.append(
        "Lost records in "
          + shown.map { "\(run($0.process, $0.run, $0.host)): \(HumanText.number($0.lost))" }
          .joined(separator: ", ")
          + (summary.lostRuns.count > shown.count ? ", …" : ""))
      lines.append("")
    }
    if !summary.staleRuns.isEmpty {
      let shown = summary.staleRuns.prefix(top ?? Int.max)
      lines.append(
        "Stale runs (no run-end, silent over twice the heartbeat): "
          + shown.map {
            "\(run($0.process, $0.run, $0.host)), last \(MarkdownRenderer.iso8601($0.last))"
          }
          .joined(separator: ", ")
          + (summary.staleRuns.count > shown.count ? ", …" : ""))
      lines.append("")
    }
    if summary.groups.isEmpty {
      lines.append("No misuse events found.")
      return lines.joined(separator: "\n") + "\n"
    }
    let columns = TableRenderer.keyColumns(summary.groupBy)
    let lost = summary.groups.first?.lost != nil
    let header =
      ["Events", "Records"] + (lost ? ["Lost"] : []) + columns.map { $0.title.capitalized } + [
        "First seen", "Last seen", "Processes", "Labels",
      ]
    lines.append("| " + header.joined(separator: " | ") + " |")
    lines.append(
      "|"
        + header.enumerated().map { $0.offset < (lost ? 3 : 2) ? " ---: " : " --- " }.joined(
          separator: "|")
        + "|")
    let shown = summary.groups.prefix(top ?? Int.max)
    for group in shown {
      var cells = [HumanText.number(group.events), HumanText.number(group.records)]
      if lost { cells.append(HumanText.number(group.lost ?? 0)) }
      cells += columns.map { "`" + MarkdownRenderer.escape($0.value(group)) + "`" }
      cells += [
        MarkdownRenderer.iso8601(group.first), MarkdownRenderer.iso8601(group.last),
        "`" + MarkdownRenderer.escape(group.processes.joined(separator: ", ")) + "`",
        group.labels.isEmpty
          ? "" : "`" + MarkdownRenderer.escape(group.labels.joined(separator: ", ")) + "`",
      ]
      lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    if summary.groups.count > shown.count {
      lines.append("")
      lines.append(
        "_\(HumanText.count(summary.groups.count - shown.count, "more group")) not shown._")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// ISO 8601 in UTC to the second, `2026-11-30T04:12:33Z`: a CI summary is read in many zones.
  static func iso8601(_ timestamp: Timestamp) -> String {
    String(timestamp.rfc3339.prefix(19)) + "Z"
  }

  /// Escapes what would break a table cell: `|`, backticks and line breaks. Every cell holding
  /// text from the input is also a code span, where Markdown renders no HTML, link or emphasis.
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

extension MarkdownRenderer: SummaryRenderer {
  /// 20 groups unless `--top` says otherwise.
  package init(for summary: Summary, context: RenderContext) {
    self.init(top: context.top ?? 20)
  }
}
