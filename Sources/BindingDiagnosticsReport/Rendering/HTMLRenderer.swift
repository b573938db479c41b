import BindingDiagnostics

/// `--format html`: one self-contained page (inline CSS, SVG and script; no network, which its
/// Content-Security-Policy enforces) with the totals, lost records called out, a timeline of
/// all misuses and one per group (events, so folded counts are included), and the group table,
/// sortable by any column and filterable by text and level without a server.
///
/// The page's state lives in its fragment: `#sort=events&order=asc&filter=Detail&level=warning`
/// opens it sorted and filtered that way, and sorting or filtering by hand updates it, so a
/// view can be shared as a link.
package struct HTMLRenderer: Sendable {
  /// At most this many groups (all when `nil`).
  package var top: Int?
  /// The zone times are shown in (every time also carries its UTC form in `datetime`).
  package var timeZone: DisplayTimeZone

  /// A renderer.
  /// - Parameters:
  ///   - top: The group limit, or `nil` for all.
  ///   - timeZone: The zone for times, UTC by default.
  package init(top: Int? = nil, timeZone: DisplayTimeZone = .utc) {
    self.top = top
    self.timeZone = timeZone
  }

  /// The page.
  /// - Parameter summary: The summary.
  package func render(_ summary: Summary) -> String {
    var html = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
      <title>Binding misuse report</title>
      <style>
      \(HTMLRenderer.style)</style>
      </head>
      <body>
      <header>
      <h1>Binding misuse report</h1>
      <p class="span">\(headline(summary))</p>
      </header>
      <main>

      """
    html += totals(summary)
    if summary.lost > 0 { html += lostRecords(summary) }
    if !summary.staleRuns.isEmpty { html += staleRuns(summary) }
    if !summary.groups.isEmpty { html += overallTimeline(summary) }
    html += groupTable(summary)
    html += """
      </main>
      <footer>Times in \(HTMLRenderer.escape(zoneName(summary))). Events count every misuse: \
      a record folded by rate limiting stands for 1 + its <code>suppressed</code> events.</footer>
      <script>
      \(HTMLRenderer.script)</script>
      </body>
      </html>

      """
    return html
  }

  private func zoneName(_ summary: Summary) -> String {
    summary.last.map { timeZone.wallClock($0).zone } ?? (timeZone == .utc ? "UTC" : "local time")
  }

  private func headline(_ summary: Summary) -> String {
    var text =
      "\(HumanText.count(summary.events, "event")) in \(HumanText.count(summary.records, "record")) "
      + "from \(HumanText.count(summary.runs, "run"))"
    if let first = summary.first, let last = summary.last {
      text += ", \(time(first)) to \(time(last)) \(HTMLRenderer.escape(zoneName(summary)))"
    }
    return text
  }

  /// `<time datetime="2026-11-30T04:12:33.123456Z">2026-11-30 04:12:33</time>`, or shown
  /// as `format` writes it.
  func time(_ timestamp: Timestamp, _ format: ((Timestamp) -> String)? = nil) -> String {
    "<time datetime=\"\(timestamp.rfc3339)\">\(format?(timestamp) ?? plain(timestamp))</time>"
  }

  private func totals(_ summary: Summary) -> String {
    func total(
      _ id: String, _ value: Int, _ singular: String, _ plural: String, alert: Bool = false
    )
      -> String
    {
      "<div class=\"total\(alert ? " alert" : "")\" id=\"total-\(id)\"><b>\(HumanText.number(value))</b> "
        + "\(value == 1 ? singular : plural)</div>\n"
    }
    var html = "<section class=\"totals\" aria-label=\"Totals\">\n"
    html += total("events", summary.events, "event", "events")
    html += total("records", summary.records, "record", "records")
    html += total("runs", summary.runs, "run", "runs")
    html += total("groups", summary.groups.count, "group", "groups")
    html += total(
      "lost", summary.lost, "lost record", "lost records", alert: summary.lost > 0)
    if summary.runDropped > 0 {
      html += total("dropped", summary.runDropped, "dropped by a sink", "dropped by the sinks")
    }
    html += total("ended", summary.runStates.ended, "run ended", "runs ended")
    html += total("running", summary.runStates.running, "run running", "runs running")
    html += total(
      "stale", summary.runStates.stale, "run stale", "runs stale",
      alert: summary.runStates.stale > 0)
    html += total("duplicates", summary.duplicates, "duplicate", "duplicates")
    html += total("malformed", summary.malformed, "malformed line", "malformed lines")
    html += total("other", summary.other, "other line", "other lines")
    return html + "</section>\n"
  }

  private func lostRecords(_ summary: Summary) -> String {
    var html = """
      <section class="lost" id="lost" role="alert">
      <h2>\(HumanText.count(summary.lost, "lost record")) in \(HumanText.count(summary.lostRuns.count, "run"))</h2>
      <p>Records missing between the lowest and highest <code>seq</code> of a run: a sink \
      dropped them (a full queue, a failing disk) or a file was cut. The misuses they stood for \
      are not in the counts below.</p>
      <table><thead><tr><th>Process</th><th>Host</th><th>Run</th><th class="num">Lost records</th><th class="num">Of them after the last misuse record</th></tr></thead>
      <tbody>

      """
    for run in summary.lostRuns {
      html +=
        "<tr><td>\(HTMLRenderer.escape(TextFitting.keepingStart(run.process, HTMLRenderer.cellLimit)))</td>"
        + "<td>\(HTMLRenderer.escape(TextFitting.keepingStart(run.host, HTMLRenderer.cellLimit)))</td><td><code>\(HTMLRenderer.escape(run.run))</code></td>"
        + "<td class=\"num\">\(HumanText.number(run.lost))</td><td class=\"num\">\(HumanText.number(run.tail))</td></tr>\n"
    }
    return html + "</tbody></table>\n</section>\n"
  }

  private func staleRuns(_ summary: Summary) -> String {
    var html = """
      <section class="lost" id="stale" role="alert">
      <h2>\(HumanText.count(summary.staleRuns.count, "stale run"))</h2>
      <p>Runs with no <code>run-end</code> whose newest record is older than twice their \
      heartbeat interval: a dead host, a dead uploader, a full collector, or a writer that \
      predates run records.</p>
      <table><thead><tr><th>Process</th><th>Host</th><th>Run</th><th>Last record</th></tr></thead>
      <tbody>

      """
    for run in summary.staleRuns {
      html +=
        "<tr><td>\(HTMLRenderer.escape(TextFitting.keepingStart(run.process, HTMLRenderer.cellLimit)))</td>"
        + "<td>\(HTMLRenderer.escape(TextFitting.keepingStart(run.host, HTMLRenderer.cellLimit)))</td><td><code>\(HTMLRenderer.escape(run.run))</code></td>"
        + "<td>\(time(run.last))</td></tr>\n"
    }
    return html + "</tbody></table>\n</section>\n"
  }

  private func overallTimeline(_ summary: Summary) -> String {
    var bins = [Int](repeating: 0, count: Summary.histogramBins)
    for group in summary.groups {
      for (index, count) in group.histogram.enumerated() where index < bins.count {
        bins[index] += count
      }
    }
    return """
      <section id="overview">
      <h2>Misuses over time</h2>
      \(timeline(bins, summary: summary, large: true))
      </section>

      """
  }

  private func groupTable(_ summary: Summary) -> String {
    let shown = summary.groups.prefix(top ?? Int.max)
    let keys = TableRenderer.keyColumns(summary.groupBy)
    let short = TableRenderer.Table.timeFormat(summary, timeZone)
    var html = """
      <section id="groups-section">
      <h2>Groups</h2>

      """
    if summary.groups.isEmpty {
      return html + "<p class=\"empty\">No misuse events found.</p>\n</section>\n"
    }
    let levels = MisuseLevel.allCases.reversed().map {
      "<option value=\"\($0.rawValue)\">\($0.rawValue) or worse</option>"
    }.joined()
    html += """
      <div class="controls" hidden>
      <label>Filter <input id="filter" type="search" placeholder="kind, file, label, process…" autocomplete="off"></label>
      <label>Level <select id="level"><option value="">any</option>\(levels)</select></label>
      <span id="shown" aria-live="polite">\(shown.count) of \(HumanText.count(shown.count, "group"))</span>
      </div>
      <table id="groups">
      <thead><tr>
      <th data-sort="level" data-type="number">Level</th>
      <th data-sort="events" data-type="number" class="num" aria-sort="descending">Events</th>
      <th data-sort="records" data-type="number" class="num">Records</th>

      """
    let lost = summary.groups.first?.lost != nil
    if lost { html += "<th data-sort=\"lost\" data-type=\"number\" class=\"num\">Lost</th>\n" }
    for key in keys {
      let name = key.field?.rawValue ?? "site"
      html +=
        "<th data-sort=\"\(name)\">\(HTMLRenderer.escape(key.title.prefix(1) + key.title.dropFirst().lowercased()))</th>\n"
    }
    html += """
      <th data-sort="label">Label</th>
      <th data-sort="processes">Processes</th>
      <th data-sort="hosts">Hosts</th>
      <th data-sort="first" data-type="number">First seen</th>
      <th data-sort="last" data-type="number">Last seen</th>
      <th>Timeline</th>
      </tr></thead>
      <tbody>

      """
    for (index, group) in shown.enumerated() {
      let level = TableRenderer.worstLevel(group)
      html +=
        "<tr data-index=\"\(index)\" data-level=\"\(level.rawValue)\" data-rank=\"\(level.rank)\">"
      html +=
        "<td class=\"level level-\(level.rawValue)\" data-value=\"\(level.rank)\">\(level.rawValue)</td>"
      html +=
        "<td class=\"num\" data-value=\"\(group.events)\">\(HumanText.number(group.events))</td>"
      html +=
        "<td class=\"num\" data-value=\"\(group.records)\">\(HumanText.number(group.records))</td>"
      if let groupLost = group.lost, lost {
        html += "<td class=\"num\" data-value=\"\(groupLost)\">\(HumanText.number(groupLost))</td>"
      }
      for key in keys {
        let isPath = key.field == nil || key.field == .file
        let text =
          isPath
          ? TextFitting.keepingPathEnd(key.value(group), HTMLRenderer.cellLimit)
          : TextFitting.keepingStart(key.value(group), HTMLRenderer.cellLimit)
        let name = key.field?.rawValue ?? "site"
        // Long paths wrap after a `/`: each part is a span, cut inside only when wider than a cell.
        let parts = isPath ? HTMLRenderer.pathParts(text) : [text]
        let value = parts.map { "<span>\(HTMLRenderer.escape($0))</span>" }.joined()
        let kind = key.field == .kind ? " level-\(level.rawValue)" : ""
        html += "<td class=\"key \(name)\(kind)\"><code>\(value)</code></td>"
      }
      html += "<td class=\"list\">\(HTMLRenderer.items(group.labels))</td>"
      html += "<td class=\"list\">\(HTMLRenderer.items(group.processes))</td>"
      html += "<td class=\"list\">\(HTMLRenderer.items(group.hosts))</td>"
      html +=
        "<td data-value=\"\(group.first.microsecondsSinceEpoch)\">\(time(group.first, short))</td>"
      html +=
        "<td data-value=\"\(group.last.microsecondsSinceEpoch)\">\(time(group.last, short))</td>"
      html +=
        "<td class=\"timeline\">\(timeline(group.histogram, summary: summary, large: false))</td>"
      html += "</tr>\n"
    }
    html += "</tbody>\n</table>\n"
    if summary.groups.count > shown.count {
      html +=
        "<p class=\"more\">\(HumanText.count(summary.groups.count - shown.count, "more group")) "
        + "not shown (--top 0 shows all).</p>\n"
    }
    return html + "</section>\n"
  }

  /// Events per bin as an SVG bar chart, each bar titled with its time range and count; the
  /// large one has its start, end and peak written on it.
  func timeline(_ bins: [Int], summary: Summary, large: Bool) -> String {
    let peak = max(bins.max() ?? 0, 1)
    let (width, height, top, bottom) = large ? (800, 160, 16, 22) : (96, 24, 2, 2)
    let slot = Double(width) / Double(max(bins.count, 1))
    let start = summary.first?.microsecondsSinceEpoch ?? 0
    let end = summary.last?.microsecondsSinceEpoch ?? 0
    let span = Double(end) - Double(start)
    let total = bins.reduce(0, +)
    var svg =
      "<svg class=\"chart\(large ? " large" : "")\" viewBox=\"0 0 \(width) \(height)\" "
      + "width=\"\(width)\" height=\"\(height)\" role=\"img\" "
      + "aria-label=\"\(HumanText.count(total, "event")) over time\">"
    let plot = Double(height - top - bottom)
    for (index, count) in bins.enumerated() {
      let barHeight = count == 0 ? 0 : max(1, Double(count) / Double(peak) * plot)
      let x = Double(index) * slot + 1
      let y = Double(height - bottom) - barHeight
      let from = Timestamp(
        microsecondsSinceEpoch: start + Int64(span * Double(index) / Double(bins.count)))
      let to = Timestamp(
        microsecondsSinceEpoch: start + Int64(span * Double(index + 1) / Double(bins.count)))
      svg +=
        "<rect x=\"\(HTMLRenderer.decimal(x))\" y=\"\(HTMLRenderer.decimal(y))\" "
        + "width=\"\(HTMLRenderer.decimal(slot - 2))\" height=\"\(HTMLRenderer.decimal(barHeight))\" "
        + "data-count=\"\(count)\"><title>\(plain(from)) to \(plain(to)): "
        + "\(HumanText.count(count, "event"))</title></rect>"
    }
    svg +=
      "<line x1=\"0\" y1=\"\(height - bottom)\" x2=\"\(width)\" y2=\"\(height - bottom)\"></line>"
    if large, let first = summary.first, let last = summary.last {
      svg +=
        "<text x=\"0\" y=\"\(height - 6)\">\(plain(first))</text>"
        + "<text x=\"\(width)\" y=\"\(height - 6)\" text-anchor=\"end\">\(plain(last))</text>"
        + "<text x=\"0\" y=\"11\">peak \(HumanText.count(peak, "event")) per bin</text>"
    }
    return svg + "</svg>"
  }

  private func plain(_ timestamp: Timestamp) -> String {
    let clock = timeZone.wallClock(timestamp)
    return "\(clock.date) \(clock.time)"
  }

  /// `MailApp/Views/ComposeView.swift:118` as `MailApp/`, `Views/`, `ComposeView.swift:118`.
  static func pathParts(_ path: String) -> [String] {
    var parts: [String] = []
    var current = ""
    for character in path {
      current.append(character)
      if character == "/" {
        parts.append(current)
        current = ""
      }
    }
    if !current.isEmpty || parts.isEmpty { parts.append(current) }
    return parts
  }

  /// The most characters a cell shows of one value from the input (the JSON keeps it whole):
  /// one hostile value must not make a page of megabytes.
  static let cellLimit = 500

  /// Names as spans, each but the last with its comma.
  static func items(_ values: [String]) -> String {
    values.enumerated().map { index, value in
      let shown = escape(TextFitting.keepingStart(value, cellLimit))
      return "<span>\(shown)\(index < values.count - 1 ? "," : "")</span>"
    }.joined(separator: " ")
  }

  /// A coordinate with at most two decimals.
  static func decimal(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let whole = hundredths / 100
    let fraction = abs(hundredths % 100)
    if fraction == 0 { return String(whole) }
    return "\(whole)." + (fraction < 10 ? "0\(fraction)" : String(fraction))
  }

  /// Text from the input made safe inside HTML text and attribute values: control characters
  /// escaped as `\u00XX`, then `&`, `<`, `>`, `"` and `'` as entities.
  /// - Parameter text: Text that came from the input.
  static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in DisplayText.escapingControls(text) {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.append(character)
      }
    }
    return out
  }
}

extension HTMLRenderer: SummaryRenderer {
  /// `one self-contained page` in `--format` help.
  package static var formatNote: String? { "one self-contained page" }

  /// Every group unless `--top` says otherwise, times in the context's zone.
  package init(for summary: Summary, context: RenderContext) {
    self.init(top: context.top, timeZone: context.timeZone)
  }
}
