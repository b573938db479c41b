import BindingDiagnostics

/// The human summary for a terminal: a headline, an aligned table of groups (level, events,
/// key, label, hosts when several, times, a small histogram), then lost, duplicated, malformed
/// and other lines called out. Fits a width by dropping the least useful columns and
/// shortening paths (at slashes) and labels (with `…`), never kinds; caps every cell of text
/// from the input (``cellLimit``); colours levels with journalctl's palette when asked.
package struct TableRenderer: Sendable {
  /// At most this many groups (all when `nil`).
  package var top: Int?
  /// The terminal's width in columns, or `nil` for no limit (output to a pipe or file).
  package var width: Int?
  /// Whether to colour levels and headings (ANSI escape sequences).
  package var color: Bool
  /// The zone times are shown in.
  package var timeZone: DisplayTimeZone
  /// The most columns one cell of text from the input (path, label, host, name) takes, or
  /// `nil` for no cap: paths are cut at slashes, other text with `…`.
  package var cellLimit: Int?

  /// The cell cap `bindiag` uses off a terminal when `--max-columns` is not given.
  package static let defaultCellLimit = 100

  /// A renderer.
  /// - Parameters:
  ///   - top: The group limit (20 by default), or `nil` for all.
  ///   - width: The width to fit, or `nil` for none.
  ///   - color: Whether to write colours.
  ///   - timeZone: The zone for times, UTC by default.
  ///   - cellLimit: The most columns a cell of text from the input takes, or `nil` for no cap.
  package init(
    top: Int? = 20, width: Int? = nil, color: Bool = false, timeZone: DisplayTimeZone = .utc,
    cellLimit: Int? = nil
  ) {
    self.top = top
    self.width = width
    self.color = color
    self.timeZone = timeZone
    self.cellLimit = cellLimit
  }

  /// The table and notes, ending in a newline.
  /// - Parameter summary: The summary.
  package func render(_ summary: Summary) -> String {
    let paint = TerminalColor(enabled: color)
    let limit = width ?? Int.max
    var lines = headline(summary, limit: limit)
    lines.append("")
    if summary.groups.isEmpty {
      lines.append("No misuse events found.")
    } else {
      let shown = Array(summary.groups.prefix(top ?? Int.max))
      var table = Table(
        summary: summary, groups: shown, timeZone: timeZone, cellLimit: cellLimit)
      table.fit(limit)
      lines += table.lines(paint)
      if summary.groups.count > shown.count {
        let hidden = summary.groups.count - shown.count
        lines.append("… \(HumanText.count(hidden, "more group")) (--top 0 shows all)")
      }
    }
    lines.append("")
    lines += notes(summary, limit: limit, paint: paint)
    return lines.joined(separator: "\n") + "\n"
  }

  /// `12 events in 3 records from 1 run, 2026-11-30 04:12:33 to 05:00:00 UTC`; the time span
  /// goes on a line of its own when both do not fit.
  private func headline(_ summary: Summary, limit: Int) -> [String] {
    let counts =
      "\(HumanText.count(summary.events, "event")) in \(HumanText.count(summary.records, "record")) "
      + "from \(HumanText.count(summary.runs, "run"))"
    guard let first = summary.first, let last = summary.last else { return [counts] }
    let from = timeZone.wallClock(first)
    let to = timeZone.wallClock(last)
    let end = from.date == to.date ? to.time : "\(to.date) \(to.time)"
    let span = "\(from.date) \(from.time) to \(end) \(to.zone)"
    let line = counts + ", " + span
    return TextFitting.width(line) <= limit ? [line] : [counts, span]
  }

  private func notes(_ summary: Summary, limit: Int, paint: TerminalColor) -> [String] {
    var lines: [String] = []
    if summary.lost > 0 {
      let runs = summary.lostRuns.map {
        "\(runName($0.process, $0.run, $0.host)): \(HumanText.number($0.lost))"
      }
      let head =
        "Lost records: \(HumanText.number(summary.lost)) in "
        + HumanText.count(summary.lostRuns.count, "run")
      let listed = runs.prefix(5).joined(separator: ", ") + (runs.count > 5 ? ", …" : "")
      let line = head + " (" + listed + ")"
      if TextFitting.width(line) <= limit {
        lines.append(paint.paint(line, .error))
      } else {
        lines.append(paint.paint(head + ":", .error))
        for run in runs.prefix(5) { lines.append("  " + TextFitting.keepingStart(run, limit - 2)) }
        if runs.count > 5 { lines.append("  …") }
      }
      if summary.lostHead > 0 {
        lines.append(
          "  of them \(HumanText.number(summary.lostHead)) before the first record seen "
            + "(rotated away, or not read)")
      }
      let tail = summary.lostRuns.reduce(0) { $0.addingReportingOverflow($1.tail).partialValue }
      if tail > 0 {
        lines.append(
          "  of them \(HumanText.number(tail)) after the last misuse record read "
            + "(known from its run records)")
      }
    } else {
      lines.append("Lost records: 0")
    }
    if summary.runDropped > 0 {
      lines.append(
        "Dropped by the sinks: \(HumanText.number(summary.runDropped)) (as their run records say)")
    }
    if summary.otherUsersLost > 0 {
      lines.append(
        "Lost records of other users' runs: \(HumanText.number(summary.otherUsersLost)) "
          + "(not gated; --all-users counts them)")
    }
    lines += runLines(summary, limit: limit, paint: paint)
    if summary.duplicates > 0 {
      lines.append("Duplicated records: \(HumanText.number(summary.duplicates)) (counted once)")
    }
    if summary.forged > 0 {
      lines.append(
        paint.paint(
          "Forged journal entries: \(HumanText.number(summary.forged)) (another uid, pid or boot "
            + "than the run they claim; not counted)", .error))
    }
    if summary.malformed > 0 {
      lines.append(
        paint.paint(
          "Malformed lines: \(HumanText.number(summary.malformed)) (see standard error)", .warning))
    }
    if summary.other > 0 {
      lines.append("Other lines: \(HumanText.number(summary.other)) (not events, ignored)")
    }
    return lines
  }

  /// `MailSync run 5c0ffee5c0ffee42 on web-07`, text from the input escaped and capped.
  private func runName(_ process: String, _ run: String, _ host: String) -> String {
    func capped(_ text: String) -> String {
      let escaped = DisplayText.escapingControls(text)
      return cellLimit.map { TextFitting.keepingStart(escaped, $0) } ?? escaped
    }
    return "\(capped(process)) run \(DisplayText.escapingControls(run)) on \(capped(host))"
  }

  /// `Runs: 3 ended, 1 running, 2 stale`, then the stale runs named with their host.
  private func runLines(_ summary: Summary, limit: Int, paint: TerminalColor) -> [String] {
    let states = summary.runStates
    let head =
      "Runs: \(HumanText.number(states.ended)) ended, \(HumanText.number(states.running)) "
      + "running, \(HumanText.number(states.stale)) stale"
    guard states.stale > 0 else { return [head] }
    let runs = summary.staleRuns.map {
      let clock = timeZone.wallClock($0.last)
      return "\(runName($0.process, $0.run, $0.host)), last \(clock.date) \(clock.time)"
    }
    var lines = [paint.paint(head + " (no run-end, silent over twice the heartbeat):", .warning)]
    for run in runs.prefix(5) { lines.append("  " + TextFitting.keepingStart(run, limit - 2)) }
    if runs.count > 5 { lines.append("  … \(HumanText.count(runs.count - 5, "more stale run"))") }
    return lines
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

  /// A column of the group's key: one per grouping field, `file` and `line` shown together as
  /// `SITE` (field `nil`).
  struct KeyColumn {
    let field: GroupField?
    let title: String
    let value: (Summary.Group) -> String
  }

  /// The key's columns for `fields`, in order.
  static func keyColumns(_ fields: [GroupField]) -> [KeyColumn] {
    var columns: [KeyColumn] = []
    let combined = fields.contains(.file) && fields.contains(.line)
    for (index, field) in fields.enumerated() {
      switch field {
      case .line where combined:
        continue
      case .file where combined:
        let line = fields.firstIndex(of: .line)!
        columns.append(KeyColumn(field: nil, title: "SITE") { "\($0.key[index]):\($0.key[line])" })
      default:
        let title = field == .valueType ? "VALUE TYPE" : field.rawValue.uppercased()
        columns.append(KeyColumn(field: field, title: title) { $0.key[index].description })
      }
    }
    return columns
  }

  /// The most severe level among a group's events.
  static func worstLevel(_ group: Summary.Group) -> MisuseLevel {
    group.levels.keys.max() ?? .info
  }
}

extension TableRenderer: SummaryRenderer {
  /// The table fitted to the terminal, 20 groups unless `--top` says otherwise.
  package init(for summary: Summary, context: RenderContext) {
    self.init(
      top: context.top ?? 20, width: context.width, color: context.color,
      timeZone: context.timeZone, cellLimit: context.cellLimit)
  }
}
