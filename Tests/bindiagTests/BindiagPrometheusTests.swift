import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// Whether Python has `prometheus_client` (PyPI `prometheus-client`), the Prometheus project's
/// own reader of the text exposition format.
let prometheusClientAvailable: Bool = {
  guard let python = executableInPath("python3") else { return false }
  return (try? runProduct(python, ["-c", "import prometheus_client"]).status) == 0
}()

/// `systemd-analyze`, which checks unit files as systemd loads them.
let systemdAnalyze = executableInPath("systemd-analyze")

/// The repository's root.
private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().path

/// `--format prometheus` read back by the Prometheus project's parser, every number compared
/// with `--format json`; the systemd units that write it every minute.
@Suite struct BindiagPrometheusTests {
  /// The run-record fixture, plus a hostile label value: a host whose name holds a quote, a
  /// backslash and a line feed.
  func fixture() throws -> String {
    var events = BindiagRunRecordTests.events
    events.append(
      fixtureEvent(
        seq: 1, kind: .unwrappedWriteAfterNil, file: "App/Detail.swift", line: 7,
        at: "2026-11-30T04:05:00.000000Z", process: "Evil", host: "h\"o\\s\nt\n# TYPE x counter",
        run: "f000000000000001"))
    events.append(
      fixtureEvent(
        seq: 3, kind: .unwrappedWriteAfterNil, file: "App/Detail.swift", line: 7,
        at: "2026-11-30T04:05:01.000000Z", suppressed: 4, process: "Evil",
        host: "h\"o\\s\nt\n# TYPE x counter", run: "f000000000000001"))
    return try writeFixture(jsonLines(events))
  }

  /// Checks every run group of `summary` (its `run_groups`) against the Prometheus `samples`
  /// read back: lost records, sink drops, runs by state and the newest record, each labelled by
  /// the group's key; and the lost records' total.
  static func expectRunGroups(
    _ samples: [String: [([String: String], Double)]], match summary: [String: Any]
  ) throws {
    let runGroups = try #require(summary["run_groups"] as? [[String: Any]])
    #expect(samples["bindiag_runs"]?.count == runGroups.count * 3)
    for group in runGroups {
      let key = try #require(group["key"] as? [String: String])
      func value(_ name: String, _ extra: [String: String] = [:]) -> Double? {
        samples[name]?.first { $0.0 == key.merging(extra) { $1 } }?.1
      }
      #expect(value("bindiag_lost_records_total") == Double(try #require(group["lost"] as? Int)))
      #expect(
        value("bindiag_sink_dropped_records_total")
          == Double(try #require(group["dropped"] as? Int)))
      let runs = try #require(group["runs"] as? [String: Int])
      for state in ["ended", "running", "stale"] {
        #expect(value("bindiag_runs", ["state": state]) == Double(runs[state]!), "\(key) \(state)")
      }
      let lastText = try #require(group["last"] as? String)
      let last = try #require(Timestamp(rfc3339: lastText))
      #expect(
        value("bindiag_last_record_timestamp_seconds")
          == Double(last.microsecondsSinceEpoch) / 1_000_000)
    }
    #expect(
      (samples["bindiag_lost_records_total"] ?? []).reduce(0) { $0 + $1.1 }
        == Double(try #require(summary["lost"] as? Int)))
  }

  /// Reads the exposition text with `text_string_to_metric_families` and prints one line per
  /// sample, `NAME TYPE {"label": "value", …} VALUE`, labels as JSON (sorted), so the test can
  /// compare them with bindiag's JSON.
  static let reader = """
    import json, sys
    from prometheus_client.parser import text_string_to_metric_families
    text = open(sys.argv[1], encoding="utf-8").read()
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            print(json.dumps([sample.name, family.type, family.documentation != "", sample.labels,
                              sample.value], sort_keys=True))
    """

  /// Control characters and bidirectional controls of a value reach neither the terminal nor
  /// a `.prom` file raw (ESC, BEL, CR, U+202E were written as they came): they are shown as the
  /// other formats show them, and the format's own escapes still hold.
  @Test func labelValuesCarryNoTerminalEscapes() throws {
    var event = fixtureEvent(seq: 1, process: "P\u{1B}]0;title\u{07}", host: "h\u{202E}x")
    event.label = "L\u{1B}[31mRED\r\"q\\"
    let result = try bindiag(
      "summary", "--format", "prometheus", "--group-by", "label,process",
      writeFixture(jsonLines([event])))
    #expect(result.status == 0)
    #expect(
      !result.stdout.unicodeScalars.contains {
        ($0.value < 0x20 && $0 != "\n") || $0 == "\u{202E}" || $0 == "\u{7F}"
      })
    #expect(
      result.stdout.contains(
        #"bindiag_events_total{label="L\\u001b[31mRED\\u000d\"q\\",process="P\\u001b]0;title\\u0007",host="h\\u202ex"} 1"#
      ), "\(result.stdout)")
  }

  @Test(
    .enabled(
      if: prometheusClientAvailable,
      "Python prometheus_client not installed (pip install prometheus-client)"),
    arguments: [["kind"], ["site"], ["process"], ["host", "kind"]])
  func thePrometheusParserReadsWhatJSONSays(groupBy: [String]) throws {
    let path = try fixture()
    let grouping = groupBy.joined(separator: ",")
    let exposition = try bindiag("summary", "--format", "prometheus", "--group-by", grouping, path)
    #expect(exposition.status == 0)
    #expect(exposition.stderr == "")
    // The same grouping with host, as the Prometheus format adds it.
    let withHost = groupBy.contains("host") ? grouping : grouping + ",host"
    let json = try bindiag("summary", "--format", "json", "--group-by", withHost, path)
    let summary = try #require(
      JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let file = try temporaryFile(exposition.stdout, name: "bindiag.prom")
    let read = try runProduct(
      "/usr/bin/timeout", ["60", executableInPath("python3")!, "-c", Self.reader, file])
    #expect(read.stderr == "")
    #expect(read.status == 0)
    var samples: [String: [([String: String], Double)]] = [:]
    for line in read.stdout.split(separator: "\n") {
      let sample = try #require(
        JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any])
      let name = try #require(sample[0] as? String)
      #expect(sample[2] as? Bool == true, "\(name) has a HELP line")
      let type = try #require(sample[1] as? String)
      #expect(type == (name.hasSuffix("_total") ? "counter" : "gauge"), "\(name)")
      samples[name, default: []].append(
        (try #require(sample[3] as? [String: String]), try #require(sample[4] as? Double)))
    }
    // Events: one sample per JSON group, labelled by its key.
    let groups = try #require(summary["groups"] as? [[String: Any]])
    let events = samples["bindiag_events_total"] ?? []
    #expect(events.count == groups.count)
    for group in groups {
      let key = try #require(group["key"] as? [String: Any]).mapValues { "\($0)" }
      let value = events.first { $0.0 == key }?.1
      #expect(value == Double(try #require(group["events"] as? Int)), "\(key)")
    }
    #expect(events.reduce(0) { $0 + $1.1 } == Double(try #require(summary["events"] as? Int)))
    // Per run group: lost, dropped, runs by state, newest record.
    let runGroups = try #require(summary["run_groups"] as? [[String: Any]])
    for name in [
      "bindiag_lost_records_total", "bindiag_sink_dropped_records_total",
      "bindiag_last_record_timestamp_seconds",
    ] {
      #expect(samples[name]?.count == runGroups.count, "\(name)")
    }
    try Self.expectRunGroups(samples, match: summary)
    let totals = try #require(summary["runs"] as? [String: Int])
    for state in ["ended", "running", "stale"] {
      #expect(
        (samples["bindiag_runs"] ?? []).filter { $0.0["state"] == state }.reduce(0) { $0 + $1.1 }
          == Double(totals[state]!))
    }
    #expect(samples["bindiag_forged_entries_total"]?.map(\.1) == [0])
    // The hostile host is one label value, its line feeds escaped: no line of the text starts
    // with anything but a metric or a comment of bindiag's.
    #expect(events.contains { $0.0["host"] == "h\"o\\s\nt\n# TYPE x counter" })
    for line in exposition.stdout.split(separator: "\n") {
      #expect(
        line.hasPrefix("bindiag_") || line.hasPrefix("# HELP bindiag_")
          || line.hasPrefix("# TYPE bindiag_"))
    }
  }

  @Test func theExpositionIsExact() throws {
    let path = try writeFixture(jsonLines(BindiagRunRecordTests.events))
    let result = try bindiag("summary", "--format", "prometheus", "--group-by", "kind", path)
    #expect(result.stderr == "")
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        # HELP bindiag_events_total Binding misuse events read (a record counts 1 + suppressed), by group and host.
        # TYPE bindiag_events_total counter
        bindiag_events_total{kind="mapped-bool-set-true",host="web-02"} 3
        bindiag_events_total{kind="mapped-bool-set-true",host="web-01"} 2
        # HELP bindiag_lost_records_total Records runs handed to their sinks that were never read (seq gaps and tails).
        # TYPE bindiag_lost_records_total counter
        bindiag_lost_records_total{host="web-01"} 3
        bindiag_lost_records_total{host="web-02"} 0
        # HELP bindiag_sink_dropped_records_total Records the sinks said they dropped (run_dropped of the runs' run records).
        # TYPE bindiag_sink_dropped_records_total counter
        bindiag_sink_dropped_records_total{host="web-01"} 3
        bindiag_sink_dropped_records_total{host="web-02"} 0
        # HELP bindiag_forged_entries_total Journal entries whose trusted uid, pid or boot is not that of the run they claim.
        # TYPE bindiag_forged_entries_total counter
        bindiag_forged_entries_total 0
        # HELP bindiag_runs Runs by state: ended (run-end read), running, stale (silent over twice the heartbeat).
        # TYPE bindiag_runs gauge
        bindiag_runs{host="web-01",state="ended"} 1
        bindiag_runs{host="web-01",state="running"} 0
        bindiag_runs{host="web-01",state="stale"} 0
        bindiag_runs{host="web-02",state="ended"} 0
        bindiag_runs{host="web-02",state="running"} 1
        bindiag_runs{host="web-02",state="stale"} 1
        # HELP bindiag_last_record_timestamp_seconds Time of the newest record of the runs (heartbeats included), in seconds since the epoch.
        # TYPE bindiag_last_record_timestamp_seconds gauge
        bindiag_last_record_timestamp_seconds{host="web-01"} 1796011320.000000
        bindiag_last_record_timestamp_seconds{host="web-02"} 1796011800.000000

        """)
  }

  /// The units pass `systemd-analyze verify` (their `Documentation=man:bindiag(1)` found in the
  /// page `bindiag manpage` writes), and the service's command, run against a journal
  /// directory and a textfile directory of the test's, leaves exactly what `--format
  /// prometheus` prints there, and no temporary file.
  @Test(
    .enabled(
      if: systemdAnalyze != nil, "systemd-analyze is not installed (apt-get install systemd)"),
    .enabled(
      if: JournalExportFile.remote != nil,
      "systemd-journal-remote is not installed (apt-get install systemd-journal-remote)"))
  func theSystemdUnitsVerifyAndWriteTheFileWhole() throws {
    let root = try temporaryDirectory()
    let units = root + "/units"
    let manual = root + "/man/man1"
    for directory in [units, manual] {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    try bindiag("manpage").stdout.write(
      toFile: manual + "/bindiag.1", atomically: true, encoding: .utf8)
    var service = ""
    for name in ["bindiag-prometheus.service", "bindiag-prometheus.timer"] {
      let text = try String(
        contentsOfFile: repositoryRoot + "/config/systemd/" + name, encoding: .utf8)
      if name.hasSuffix(".service") { service = text }
      try text.write(toFile: units + "/" + name, atomically: true, encoding: .utf8)
    }
    let verify = try runProduct(
      "/usr/bin/timeout",
      [
        "60", systemdAnalyze!, "verify", units + "/bindiag-prometheus.service",
        units + "/bindiag-prometheus.timer",
      ], environment: ["MANPATH": root + "/man", "SYSTEMD_LOG_LEVEL": "notice"])
    #expect(verify.stderr == "")
    #expect(verify.status == 0)

    // The service's own command, its paths made the test's.
    let journals = root + "/remote"
    let textfiles = root + "/node-exporter"
    for directory in [journals, textfiles] {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    try JournalExportFile.write(BindiagRunRecordTests.events, to: journals + "/remote-web.journal")
    let execStart = try #require(
      service.split(separator: "\n").first { $0.hasPrefix("ExecStart=/bin/sh -c '") })
    let script = String(execStart.dropFirst("ExecStart=/bin/sh -c '".count).dropLast())
      .replacingOccurrences(
        of: "/usr/local/bin/bindiag",
        with: productsDirectory().appendingPathComponent("bindiag").path
      )
      .replacingOccurrences(of: "/var/log/journal/remote", with: journals)
      .replacingOccurrences(of: "/var/lib/prometheus/node-exporter", with: textfiles)
    let run = try runProduct("/usr/bin/timeout", ["60", "/bin/sh", "-c", script])
    #expect(run.stderr == "")
    #expect(run.status == 0)
    let expected = try bindiag(
      "summary", "--journal-dir", journals, "--live", "--format", "prometheus")
    #expect(
      try String(contentsOfFile: textfiles + "/bindiag.prom", encoding: .utf8) == expected.stdout)
    #expect(try FileManager.default.contentsOfDirectory(atPath: textfiles) == ["bindiag.prom"])
    // --live: the fixture's runs are days old, so the one still writing at its end is stale
    // against now too.
    #expect(expected.stdout.contains(#"bindiag_runs{host="web-02",state="stale"} 2"#))
  }
}
