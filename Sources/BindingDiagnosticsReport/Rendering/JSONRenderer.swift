import BindingDiagnostics

/// The `--format json` summary of bindiag's contract: one object, stable key names. Each group
/// lists its `labels` like its `processes`; each of `lost_runs` says how many of its lost
/// records are its `head` (before the lowest `seq` seen); each group has `histogram`: its events (folded ones included) in ``Summary/histogramBins``
/// equal bins spanning the summary's `first` to `last`.
///
/// Runs: `runs` counts the runs by state (`ended`, `running`, `stale`), `run_dropped` what their
/// sinks said they dropped; each of `lost_runs` names its `host` and says how many of its lost
/// records are its `tail` (after its last misuse record read, known from its run records) and what
/// its sink `dropped`; `stale_runs` names each stale run with its host and newest record;
/// `run_groups` gives lost records, drops and runs by state per value of `run_fields` (the
/// grouping's `host` and `process`, and always `host`). Grouped only by `host` and `process`,
/// each group carries its own `lost`.
package struct JSONRenderer: Sendable {
  /// At most this many groups (all when `nil`).
  package var top: Int?

  /// A renderer.
  /// - Parameter top: The group limit, or `nil` for all.
  package init(top: Int? = nil) {
    self.top = top
  }

  /// Bytes gathered before they are handed on by ``render(_:to:)``.
  static let pieceBytes = 1 << 16

  /// The summary as one JSON object and a newline.
  /// - Parameter summary: The summary.
  package func render(_ summary: Summary) -> String {
    var text = ""
    render(summary) { text += $0 }
    return text
  }

  /// The summary as one JSON object and a newline, handed to `write` in pieces of whole groups
  /// (about ``pieceBytes`` each), so the JSON of a million groups is never held at once.
  /// - Parameters:
  ///   - summary: The summary.
  ///   - write: Called with each piece, in order.
  package func render(_ summary: Summary, to write: (String) -> Void) {
    var out = [UInt8]()
    out.reserveCapacity(JSONRenderer.pieceBytes + 4096)
    func flush() {
      write(String(decoding: out, as: UTF8.self))
      out.removeAll(keepingCapacity: true)
    }
    out.append(contentsOf: #"{"schema":1,"events":"#.utf8)
    out.appendDecimal(summary.events)
    out.append(contentsOf: #","records":"#.utf8)
    out.appendDecimal(summary.records)
    out.append(contentsOf: #","malformed":"#.utf8)
    out.appendDecimal(summary.malformed)
    out.append(contentsOf: #","other":"#.utf8)
    out.appendDecimal(summary.other)
    out.append(contentsOf: #","lost":"#.utf8)
    out.appendDecimal(summary.lost)
    out.append(contentsOf: #","duplicates":"#.utf8)
    out.appendDecimal(summary.duplicates)
    out.append(contentsOf: #","runs":"#.utf8)
    appendStates(summary.runStates, &out)
    out.append(contentsOf: #","run_dropped":"#.utf8)
    out.appendDecimal(summary.runDropped)
    // Only when there are any, so summaries without the journal keep their exact form.
    if summary.forged > 0 {
      out.append(contentsOf: #","forged":"#.utf8)
      out.appendDecimal(summary.forged)
    }
    // `--journal`: other users' runs' lost records, counted apart from `lost` (never gated).
    if summary.otherUsersLost > 0 {
      out.append(contentsOf: #","other_users_lost":"#.utf8)
      out.appendDecimal(summary.otherUsersLost)
    }
    out.append(contentsOf: #","first":"#.utf8)
    appendTimestamp(summary.first, &out)
    out.append(contentsOf: #","last":"#.utf8)
    appendTimestamp(summary.last, &out)
    out.append(contentsOf: #","group_by":["#.utf8)
    for (index, field) in summary.groupBy.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      out.appendJSONString(field.rawValue)
    }
    out.append(contentsOf: #"],"groups":["#.utf8)
    for (index, group) in summary.groups.prefix(top ?? Int.max).enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      out.append(contentsOf: #"{"key":{"#.utf8)
      for (position, field) in summary.groupBy.enumerated() {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        out.appendJSONString(field.rawValue)
        out.append(UInt8(ascii: ":"))
        switch group.key[position] {
        case .text(let text): out.appendJSONString(text)
        case .number(let number): out.appendDecimal(number)
        }
      }
      out.append(contentsOf: #"},"events":"#.utf8)
      out.appendDecimal(group.events)
      out.append(contentsOf: #","records":"#.utf8)
      out.appendDecimal(group.records)
      if let lost = group.lost {
        out.append(contentsOf: #","lost":"#.utf8)
        out.appendDecimal(lost)
      }
      out.append(contentsOf: #","first":"#.utf8)
      appendTimestamp(group.first, &out)
      out.append(contentsOf: #","last":"#.utf8)
      appendTimestamp(group.last, &out)
      appendStrings("processes", group.processes, &out)
      appendStrings("hosts", group.hosts, &out)
      appendStrings("value_types", group.valueTypes, &out)
      appendStrings("labels", group.labels, &out)
      out.append(contentsOf: #","levels":{"#.utf8)
      var firstLevel = true
      for level in MisuseLevel.allCases.reversed() {
        guard let count = group.levels[level] else { continue }
        if !firstLevel { out.append(UInt8(ascii: ",")) }
        firstLevel = false
        out.appendJSONString(level.rawValue)
        out.append(UInt8(ascii: ":"))
        out.appendDecimal(count)
      }
      // Events (folded ones included) in equal bins from the summary's `first` to its `last`.
      out.append(contentsOf: #"},"histogram":["#.utf8)
      for (bin, count) in group.histogram.enumerated() {
        if bin > 0 { out.append(UInt8(ascii: ",")) }
        out.appendDecimal(count)
      }
      out.append(contentsOf: "]}".utf8)
      if out.count >= JSONRenderer.pieceBytes { flush() }
    }
    out.append(contentsOf: #"],"lost_runs":["#.utf8)
    for (index, run) in summary.lostRuns.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      appendRunOpening(run: run.run, process: run.process, host: run.host, &out)
      out.append(contentsOf: #","lost":"#.utf8)
      out.appendDecimal(run.lost)
      out.append(contentsOf: #","head":"#.utf8)
      out.appendDecimal(run.head)
      out.append(contentsOf: #","tail":"#.utf8)
      out.appendDecimal(run.tail)
      out.append(contentsOf: #","dropped":"#.utf8)
      out.appendDecimal(run.dropped)
      out.append(UInt8(ascii: "}"))
      if out.count >= JSONRenderer.pieceBytes { flush() }
    }
    out.append(contentsOf: #"],"stale_runs":["#.utf8)
    for (index, run) in summary.staleRuns.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      appendRunOpening(run: run.run, process: run.process, host: run.host, &out)
      out.append(contentsOf: #","last":"#.utf8)
      appendTimestamp(run.last, &out)
      out.append(UInt8(ascii: "}"))
      if out.count >= JSONRenderer.pieceBytes { flush() }
    }
    out.append(contentsOf: #"],"run_fields":["#.utf8)
    for (index, field) in summary.runFields.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      out.appendJSONString(field.rawValue)
    }
    out.append(contentsOf: #"],"run_groups":["#.utf8)
    for (index, group) in summary.runGroups.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      out.append(contentsOf: #"{"key":{"#.utf8)
      for (position, field) in summary.runFields.enumerated() {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        out.appendJSONString(field.rawValue)
        out.append(UInt8(ascii: ":"))
        out.appendJSONString(group.key[position])
      }
      out.append(contentsOf: #"},"lost":"#.utf8)
      out.appendDecimal(group.lost)
      out.append(contentsOf: #","dropped":"#.utf8)
      out.appendDecimal(group.dropped)
      out.append(contentsOf: #","runs":"#.utf8)
      appendStates(group.states, &out)
      out.append(contentsOf: #","last":"#.utf8)
      appendTimestamp(group.last, &out)
      out.append(UInt8(ascii: "}"))
      if out.count >= JSONRenderer.pieceBytes { flush() }
    }
    out.append(contentsOf: "]}\n".utf8)
    flush()
  }

  /// `{"run":…,"process":…,"host":…`: how a lost and a stale run begin.
  private func appendRunOpening(
    run: String, process: String, host: String, _ out: inout [UInt8]
  ) {
    out.append(contentsOf: #"{"run":"#.utf8)
    out.appendJSONString(run)
    out.append(contentsOf: #","process":"#.utf8)
    out.appendJSONString(process)
    out.append(contentsOf: #","host":"#.utf8)
    out.appendJSONString(host)
  }

  private func appendStates(_ states: Summary.RunStates, _ out: inout [UInt8]) {
    out.append(contentsOf: #"{"ended":"#.utf8)
    out.appendDecimal(states.ended)
    out.append(contentsOf: #","running":"#.utf8)
    out.appendDecimal(states.running)
    out.append(contentsOf: #","stale":"#.utf8)
    out.appendDecimal(states.stale)
    out.append(UInt8(ascii: "}"))
  }

  private func appendTimestamp(_ timestamp: Timestamp?, _ out: inout [UInt8]) {
    guard let timestamp else {
      out.append(contentsOf: "null".utf8)
      return
    }
    out.append(UInt8(ascii: "\""))
    timestamp.appendRFC3339(to: &out)
    out.append(UInt8(ascii: "\""))
  }

  private func appendStrings(_ key: String, _ values: [String], _ out: inout [UInt8]) {
    out.append(UInt8(ascii: ","))
    out.appendJSONString(key)
    out.append(contentsOf: ":[".utf8)
    for (index, value) in values.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      out.appendJSONString(value)
    }
    out.append(UInt8(ascii: "]"))
  }
}

extension JSONRenderer: SummaryRenderer {
  /// Every group unless `--top` says otherwise; streamed whole groups at a time.
  package init(for summary: Summary, context: RenderContext) {
    self.init(top: context.top)
  }
}
