import BindingDiagnostics

/// `--format prometheus`: the summary in Prometheus's text exposition format (version 0.0.4),
/// for node_exporter's textfile collector, with `# HELP` and `# TYPE` lines for every metric:
///
/// - `bindiag_events_total`: events per group, labelled by the grouping's fields (`bindiag`
///   adds `host` to them for this format, so every series names its host);
/// - `bindiag_lost_records_total`, `bindiag_sink_dropped_records_total`, `bindiag_runs{state}`
///   and `bindiag_last_record_timestamp_seconds` (the newest record of the runs, heartbeats
///   included, so `time() - …` finds a silent host), labelled by ``Summary/runFields``: the
///   grouping's `process` when it has it, and `host`;
/// - `bindiag_forged_entries_total`, unlabelled.
///
/// Label values escape `\`, `"` and line feeds as the format says, so no value can add a line.
package struct PrometheusRenderer: Sendable {
  /// A renderer.
  package init() {}

  /// The exposition text, ending in a newline.
  /// - Parameter summary: The summary (grouped by fields that include `host`).
  package func render(_ summary: Summary) -> String {
    var out = ""
    func family(_ name: String, _ type: String, _ help: String) {
      out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }
    func sample(_ name: String, _ labels: [(String, String)], _ value: String) {
      out += name
      if !labels.isEmpty {
        out +=
          "{"
          + labels.map { "\($0.0)=\"\(PrometheusRenderer.escape($0.1))\"" }
          .joined(separator: ",") + "}"
      }
      out += " \(value)\n"
    }
    family(
      "bindiag_events_total", "counter",
      "Binding misuse events read (a record counts 1 + suppressed), by group and host.")
    for group in summary.groups {
      let labels = zip(summary.groupBy, group.key).map { ($0.0.rawValue, $0.1.description) }
      sample("bindiag_events_total", labels, String(group.events))
    }
    func runLabels(_ group: Summary.RunGroup) -> [(String, String)] {
      zip(summary.runFields, group.key).map { ($0.0.rawValue, $0.1) }
    }
    family(
      "bindiag_lost_records_total", "counter",
      "Records runs handed to their sinks that were never read (seq gaps and tails).")
    for group in summary.runGroups {
      sample("bindiag_lost_records_total", runLabels(group), String(group.lost))
    }
    family(
      "bindiag_sink_dropped_records_total", "counter",
      "Records the sinks said they dropped (run_dropped of the runs' run records).")
    for group in summary.runGroups {
      sample("bindiag_sink_dropped_records_total", runLabels(group), String(group.dropped))
    }
    family(
      "bindiag_forged_entries_total", "counter",
      "Journal entries whose trusted uid, pid or boot is not that of the run they claim.")
    sample("bindiag_forged_entries_total", [], String(summary.forged))
    family(
      "bindiag_runs", "gauge",
      "Runs by state: ended (run-end read), running, stale (silent over twice the heartbeat).")
    for group in summary.runGroups {
      for state in Summary.RunState.allCases {
        sample(
          "bindiag_runs", runLabels(group) + [("state", state.rawValue)],
          String(group.states[state]))
      }
    }
    family(
      "bindiag_last_record_timestamp_seconds", "gauge",
      "Time of the newest record of the runs (heartbeats included), in seconds since the epoch.")
    for group in summary.runGroups {
      guard let last = group.last else { continue }
      sample(
        "bindiag_last_record_timestamp_seconds", runLabels(group),
        PrometheusRenderer.seconds(last))
    }
    return out
  }

  /// `1796000000.123456`: seconds since the epoch with the microseconds.
  static func seconds(_ timestamp: Timestamp) -> String {
    let micros = timestamp.microsecondsSinceEpoch
    var seconds = micros / 1_000_000
    var fraction = micros % 1_000_000
    if fraction < 0 {
      seconds -= 1
      fraction += 1_000_000
    }
    let digits = String(fraction)
    return "\(seconds)." + String(repeating: "0", count: 6 - digits.count) + digits
  }

  /// A label value escaped as the text format says: `\` as `\\`, `"` as `\"`, a line feed as
  /// `\n`. Its other control characters and bidirectional controls are shown as the other
  /// formats show them (``DisplayText/escapingControls(_:)``: ESC as the text `\u001b`), so
  /// that neither a terminal nor `cat` of a `.prom` file runs them.
  static func escape(_ value: String) -> String {
    var out = ""
    out.reserveCapacity(value.utf8.count)
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      case "\n": out += "\\n"
      case " "..."~": out.unicodeScalars.append(scalar)
      default:
        // Shown as `\u001b`: its backslash escaped in turn, so a parser reads that text.
        for shown in DisplayText.escapingControls(String(scalar)).unicodeScalars {
          if shown == "\\" { out += "\\\\" } else { out.unicodeScalars.append(shown) }
        }
      }
    }
    return out
  }

}

extension PrometheusRenderer: SummaryRenderer {
  /// `for node_exporter's textfile collector` in `--format` help.
  package static var formatNote: String? { "for node_exporter's textfile collector" }
  /// Every series names its host.
  package static var groupFields: [GroupField] { [.host] }

  /// Every series, each naming its host.
  package init(for summary: Summary, context: RenderContext) {
    self.init()
  }
}
