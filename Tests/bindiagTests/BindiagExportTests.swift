import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// Whether Python has `chdb` (PyPI): ClickHouse's engine in process.
let chdbInstalled: Bool = {
  guard let python = executableInPath("python3") else { return false }
  return (try? runProduct(python, ["-c", "import chdb.session"]).status) == 0
}()

/// The repository's root (this file is `Tests/bindiagTests/BindiagExportTests.swift`).
let exportRepositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().path

/// Loads `argv[2]` (rows) into the table of `argv[1]` (schema) in chdb, runs each named query of
/// `argv[3]` (config/clickhouse/summary.sql) and prints their results as one JSON object.
let chdbSummaryQueries = """
  import json, sys
  from chdb import session
  s = session.Session()
  s.query(open(sys.argv[1], encoding="utf-8").read())
  s.query("INSERT INTO bindiag_events SELECT * FROM file('" + sys.argv[2] + "', JSONEachRow)")
  queries = {}
  for part in open(sys.argv[3], encoding="utf-8").read().split("-- name: ")[1:]:
      name, _, text = part.partition("\\n")
      queries[name.strip()] = text
  out = {}
  for name, text in queries.items():
      rows = s.query(text.strip().rstrip(";") + " FORMAT JSONEachRow", "JSONEachRow").bytes()
      out[name] = [json.loads(line) for line in rows.decode().splitlines() if line]
  print(json.dumps(out, sort_keys=True))
  """

/// `bindiag export`: the events themselves for OpenTelemetry and ClickHouse, end to end.
@Suite struct BindiagExportTests {
  static let usage = """
    Usage: bindiag export --format <format> [<options>] [<file> ...]
      See 'bindiag help export' for more information.

    """

  @Test func clickhouseRowsAreTheContractRecordsOfAnyInput() throws {
    let events = summaryFixtureEvents
    let path = try writeFixture(jsonLines(events) + "an app's own line\n")
    let file = try bindiag("export", "--format", "clickhouse", path)
    #expect(file.stdout == jsonLines(events))
    #expect(file.stderr == "")
    #expect(file.status == 0)
    // The standard-error sink's logfmt, from a pipe, gives the same rows.
    let logfmt = events.map { String(decoding: LogfmtEncoder().encode($0), as: UTF8.self) }
    let piped = try bindiag("export", "--format", "clickhouse", stdin: logfmt.joined())
    #expect(piped.stdout == jsonLines(events))
    #expect(piped.stderr == "")
    #expect(piped.status == 0)
  }

  @Test func everyFilterOfSummaryApplies() throws {
    let events = summaryFixtureEvents
    let path = try writeFixture(jsonLines(events))
    let cases: [([String], [MisuseEvent])] = [
      (["--kind", "unwrapped-read-after-nil"], [events[2]]),
      (["--since", "2026-11-30T04:30:00Z"], [events[2]]),
      (["--until", "2026-11-30T04:30:00Z"], [events[0], events[1]]),
      (["--process", "Other"], [events[1]]),
      (["--file", "Detail"], [events[2]]),
      (["--level", "error"], [events[0], events[1]]),
      (["--host", "build-01", "--run", "0123456789abcdef"], events),
    ]
    for (options, expected) in cases {
      let result = try bindiag(arguments: ["export", "--format", "clickhouse"] + options + [path])
      #expect(result.stdout == jsonLines(expected), "\(options)")
      #expect(result.stderr == "", "\(options)")
      #expect(result.status == 0, "\(options)")
    }
  }

  /// A value filter that matches no record (most often a typo) is named on standard error with
  /// the closest value seen, as `summary` names it; the export, empty, still exits 0. From a file
  /// (read by workers, their sightings merged) and from standard input alike.
  @Test func aFilterThatMatchesNothingIsNamedAsSummaryNamesIt() throws {
    let events = summaryFixtureEvents
    let text = jsonLines(events)
    let path = try writeFixture(text)
    let filters = ["--host", "build-1", "--process", "Othr", "--kind", "mapped-bool-set-true"]
    let summary = try bindiag(arguments: ["summary", "--format", "json"] + filters + [path])
    #expect(
      summary.stderr
        == "warning: --host 'build-1' matched no record; hosts seen: 'build-01' (closest)\n"
        + "warning: --process 'Othr' matched no record; processes seen: 'Other' (closest), 'Demo'\n"
    )
    for threads in ["1", "3"] {
      let result = try bindiag(
        arguments: ["export", "--format", "otlp", "--threads", threads] + filters + [path])
      #expect(result.stdout == "")
      #expect(result.stderr == summary.stderr, "\(threads)")
      #expect(result.status == 0)
    }
    let piped = try bindiag(
      arguments: ["export", "--format", "clickhouse"] + filters + ["-"], stdin: Data(text.utf8))
    #expect(piped.stdout == "")
    #expect(piped.stderr == summary.stderr)
    #expect(piped.status == 0)
  }

  /// `--file` is judged on misuse records only, as `summary` judges it: a run record's `file`
  /// is where the app set up the pipeline, not a call site, so it neither matches `--file` nor is
  /// named among the files seen. The run records are still written (they carry each run's tail
  /// for the engines' lost-record counts), whether the set-up file holds the substring or not.
  /// From a file (read by workers, and serially) and from standard input alike.
  @Test func exportsFileFilterIsNotMatchedByARunRecordsFile() throws {
    let misuse = fixtureEvent(seq: 1)
    var end = runRecordEvent(.runEnd, seq: 2, at: "2026-11-30T04:13:00.000000Z")
    end.file = "App/AppDelegate.swift"
    end.line = 12
    end.function = "application(_:didFinishLaunchingWithOptions:)"
    let text = jsonLines([misuse, end])
    let path = try writeFixture(text)
    let unmatched =
      "warning: --file 'AppDelegate' matched no record; files seen: 'App/ContentView.swift' (closest)\n"
    let cases: [([String], String, String)] = [
      (["--file", "AppDelegate"], jsonLines([end]), unmatched),
      (["--file", "ContentView"], jsonLines([misuse, end]), ""),
    ]
    for (filter, rows, warning) in cases {
      for threads in ["1", "3"] {
        let result = try launchedBindiag(
          arguments: ["export", "--format", "clickhouse", "--threads", threads] + filter + [path])
        #expect(result.stdout == rows, "\(filter) \(threads)")
        #expect(result.stderr == warning, "\(filter) \(threads)")
        #expect(result.status == 0)
      }
      let piped = try launchedBindiag(
        arguments: ["export", "--format", "clickhouse"] + filter + ["-"], stdin: Data(text.utf8))
      #expect(piped.stdout == rows, "\(filter)")
      #expect(piped.stderr == warning, "\(filter)")
      #expect(piped.status == 0)
    }
    // OTLP too: the run record is written, flagged, beside the misuse record it matched.
    let otlp = try launchedBindiag("export", "--format", "otlp", "--file", "ContentView", path)
    #expect(otlp.stdout.contains(#""key":"binding.run_record""#), "\(otlp.stdout)")
    #expect(otlp.stdout.contains(#""key":"binding.seq","value":{"intValue":"1"}"#))
    #expect(otlp.stderr == "")
    // A substring of the set-up file only is no match either, and is not offered as one.
    let other = try launchedBindiag("export", "--format", "clickhouse", "--file", "Delegate", path)
    #expect(other.stderr.hasPrefix("warning: --file 'Delegate' matched no record; files seen: "))
    #expect(!other.stderr.contains("AppDelegate"), "\(other.stderr)")
  }

  @Test func otlpIsOneLogsDataObjectPerBatch() throws {
    let event = summaryFixtureEvents[0]
    let path = try writeFixture(jsonLines([event, event, event]))
    let result = try bindiag("export", "--format", "otlp", "--batch", "2", path)
    let record =
      #"{"timeUnixNano":"1796011953123456000","severityNumber":17,"severityText":"error","#
      + #""body":{"stringValue":"A misuse."},"attributes":["#
      + #"{"key":"code.file.path","value":{"stringValue":"App/ContentView.swift"}},"#
      + #"{"key":"code.line.number","value":{"intValue":"42"}},"#
      + #"{"key":"code.function.name","value":{"stringValue":"body"}},"#
      + #"{"key":"binding.kind","value":{"stringValue":"mapped-bool-set-true"}},"#
      + #"{"key":"binding.message_id","value":{"stringValue":"\#(event.kind.messageID)"}},"#
      + #"{"key":"binding.run","value":{"stringValue":"0123456789abcdef"}},"#
      + #"{"key":"binding.seq","value":{"intValue":"1"}},"#
      + #"{"key":"binding.suppressed","value":{"intValue":"0"}},"#
      + #"{"key":"binding.events","value":{"intValue":"1"}},"#
      + #"{"key":"binding.value_type","value":{"stringValue":"Swift.Optional<Swift.String>"}},"#
      + #"{"key":"binding.value_present","value":{"boolValue":true}},"#
      + #"{"key":"binding.value","value":{"stringValue":"<private>"}}],"#
      + #""eventName":"binding.mapped-bool-set-true"}"#
    func line(_ count: Int) -> String {
      #"{"resourceLogs":[{"resource":{"attributes":["#
        + #"{"key":"service.name","value":{"stringValue":"Demo"}},"#
        + #"{"key":"service.instance.id","value":{"stringValue":"0123456789abcdef"}},"#
        + #"{"key":"host.name","value":{"stringValue":"build-01"}},"#
        + #"{"key":"process.pid","value":{"intValue":"4242"}}]},"#
        + #""scopeLogs":[{"scope":{"name":"BindingDiagnostics","version":"3.3.1"},"#
        + #""logRecords":["# + Array(repeating: record, count: count).joined(separator: ",")
        + "]}]}]}\n"
    }
    #expect(result.stdout == line(2) + line(1))
    #expect(result.stderr == "")
    #expect(result.status == 0)
  }

  /// A record at the epoch's first microsecond would be `timeUnixNano` 0, which the logs data
  /// model reads as unknown: its `ts` goes in `binding.ts`, as for the times the field cannot
  /// hold, from a file's contract lines and from logfmt alike. The next microsecond is a time.
  @Test func aRecordAtTheEpochKeepsItsTime() throws {
    let events = [
      fixtureEvent(seq: 1, at: "1970-01-01T00:00:00.000000Z"),
      fixtureEvent(seq: 2, at: "1970-01-01T00:00:00.000001Z"),
    ]
    let path = try writeFixture(jsonLines(events))
    let logfmt = events.map { String(decoding: LogfmtEncoder().encode($0), as: UTF8.self) }
    for result in [
      try launchedBindiag("export", "--format", "otlp", path),
      try launchedBindiag("export", "--format", "otlp", stdin: logfmt.joined()),
    ] {
      #expect(result.stderr == "")
      #expect(result.status == 0)
      let data = try #require(
        JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
      let resources = try #require(data["resourceLogs"] as? [[String: Any]])
      let scopes = try #require(resources.first?["scopeLogs"] as? [[String: Any]])
      let records = try #require(scopes.first?["logRecords"] as? [[String: Any]])
      #expect(records.map { $0["timeUnixNano"] as? String } == ["0", "1000"])
      let times = records.map { record in
        let attributes = record["attributes"] as? [[String: Any]] ?? []
        return attributes.filter { $0["key"] as? String == "binding.ts" }
          .map { ($0["value"] as? [String: String])?["stringValue"] }
      }
      #expect(times == [["1970-01-01T00:00:00.000000Z"], []])
    }
  }

  /// `config/clickhouse/schema.sql` is what `--schema clickhouse` prints, byte for byte.
  @Test func schemaPrintsTheTableOfTheConfigFile() throws {
    let result = try bindiag("export", "--schema", "clickhouse")
    let file = try String(
      contentsOfFile: exportRepositoryRoot + "/config/clickhouse/schema.sql", encoding: .utf8)
    #expect(result.stdout == file)
    #expect(result.stdout.contains("  `ts`            DateTime64(6, 'UTC') CODEC(Delta, ZSTD(1)),\n"))
    #expect(result.stdout.contains("  `kind`          LowCardinality(String),\n"))
    #expect(result.stdout.contains("ENGINE = MergeTree\nPARTITION BY toYYYYMM(`ts`)\nORDER BY (`kind`, `file`, `line`, `ts`);\n"))
    #expect(result.stderr == "")
    #expect(result.status == 0)
  }

  @Test(arguments: [
    (["export"], "'export' needs '--format otlp' or '--format clickhouse' (or '--schema clickhouse')"),
    (["export", "--format", "json"], "The value 'json' is invalid for '--format': expected otlp or clickhouse"),
    (["export", "--schema", "duckdb"], "The value 'duckdb' is invalid for '--schema': expected clickhouse"),
    (["export", "--schema", "clickhouse", "--format", "otlp"], "'--schema' prints the table and reads nothing: give it alone"),
    (["export", "--format", "otlp", "--batch", "0"], "The value '0' is invalid for '--batch': expected a whole number from 1 to 1000000"),
    (["export", "--format", "otlp", "--color", "never"], "Unknown option '--color' (an option of summary, check and follow)"),
    (["export", "--format", "clickhouse", "--batch", "5"], "'--batch' sets OTLP records per line: give it with '--format otlp'"),
  ])
  func usageErrors(arguments: [String], message: String) throws {
    let result = try bindiag(arguments: arguments)
    #expect(result.stdout == "")
    #expect(result.stderr == "Error: \(message)\n" + BindiagExportTests.usage)
    #expect(result.status == 64)
  }

  @Test func batchIsAnOptionOfExportOnly() throws {
    let result = try bindiag("summary", "--batch", "3")
    #expect(result.stderr.hasPrefix("Error: Unknown option '--batch' (an option of export)\n"))
    #expect(result.status == 64)
  }

  @Test func unreadableInputFailsAfterTheRest() throws {
    let path = try writeFixture(jsonLines([summaryFixtureEvents[0]]) + "{\"v\":1,\n")
    let result = try bindiag("export", "--format", "clickhouse", path, path + ".missing")
    #expect(result.stdout == jsonLines([summaryFixtureEvents[0]]))
    #expect(
      result.stderr == """
        warning: \(path):2: malformed: unexpected end of line
        Error: cannot read '\(path).missing': No such file or directory

        """)
    #expect(result.status == 1)
  }

  /// A fixture with what lost-record counting must get right: two runs, a lost head, gaps,
  /// folded records, a record read twice, two hosts and processes.
  static let lossyEvents: [MisuseEvent] = {
    let runA = "00000000000000aa"
    let runB = "00000000000000bb"
    var events: [MisuseEvent] = []
    for seq in [1, 2, 3, 5, 6, 9] {
      events.append(
        fixtureEvent(
          seq: seq, kind: seq % 2 == 0 ? .unwrappedWriteAfterNil : .mappedBoolSetTrue,
          line: seq % 3 == 0 ? 42 : 50, at: "2026-11-30T04:1\(seq):00.000001Z",
          suppressed: seq == 5 ? 40 : 0, run: runA))
    }
    for seq in [3, 4, 7] {
      events.append(
        fixtureEvent(
          seq: seq, kind: .unwrappedReadAfterNil, file: "App/Detail.swift", line: 7,
          at: "2026-11-30T05:0\(seq):00.000000Z", suppressed: seq, process: "Other",
          host: "build-02", run: runB))
    }
    events.append(events[3])  // read twice
    return events
  }()

  @Test(.enabled(if: chdbInstalled, "Python chdb not installed (pip install chdb)"))
  func summaryQueriesInClickHouseGiveSummarysNumbers() throws {
    let path = try writeFixture(jsonLines(BindiagExportTests.lossyEvents))
    let directory = try temporaryDirectory()
    let schema = try bindiag("export", "--schema", "clickhouse")
    try schema.stdout.write(toFile: directory + "/schema.sql", atomically: true, encoding: .utf8)
    let rows = try bindiag("export", "--format", "clickhouse", path)
    #expect(rows.status == 0)
    try rows.stdout.write(toFile: directory + "/rows.jsonl", atomically: true, encoding: .utf8)
    let queries = try runProduct(
      executableInPath("python3")!,
      [
        "-c", chdbSummaryQueries, directory + "/schema.sql", directory + "/rows.jsonl",
        exportRepositoryRoot + "/config/clickhouse/summary.sql",
      ])
    #expect(queries.stderr == "")
    let engine = try #require(
      JSONSerialization.jsonObject(with: Data(queries.stdout.utf8)) as? [String: [[String: Any]]])
    let summaryRun = try bindiag("summary", "--format", "json", path)
    let summary = try #require(
      JSONSerialization.jsonObject(with: Data(summaryRun.stdout.utf8)) as? [String: Any])

    /// ClickHouse's `2026-11-30 04:11:00.000001` as RFC 3339.
    func rfc3339(_ value: Any?) -> String? {
      (value as? String).map { $0.replacingOccurrences(of: " ", with: "T") + "Z" }
    }
    func number(_ value: Any?) -> Int? {
      (value as? NSNumber)?.intValue ?? (value as? String).flatMap { Int($0) }
    }
    let totals = try #require(engine["totals"]?.first)
    #expect(number(totals["events"]) == summary["events"] as? Int)
    #expect(number(totals["records"]) == summary["records"] as? Int)
    #expect(rfc3339(totals["first"]) == summary["first"] as? String)
    #expect(rfc3339(totals["last"]) == summary["last"] as? String)
    #expect(number(totals["duplicates"]) == summary["duplicates"] as? Int)
    #expect(number(engine["lost"]?.first?["lost"]) == summary["lost"] as? Int)
    // Run A lost 4, 7 and 8; run B 1, 2 (its head), 5 and 6.
    #expect(summary["lost"] as? Int == 7)
    let groups = try #require(summary["groups"] as? [[String: Any]])
    let sites = try #require(engine["sites"])
    #expect(sites.count == groups.count)
    for (site, group) in zip(sites, groups) {
      let key = try #require(group["key"] as? [String: Any])
      #expect(site["kind"] as? String == key["kind"] as? String)
      #expect(site["file"] as? String == key["file"] as? String)
      #expect(number(site["line"]) == key["line"] as? Int)
      #expect(number(site["events"]) == group["events"] as? Int)
      #expect(number(site["records"]) == group["records"] as? Int)
      #expect(rfc3339(site["first"]) == group["first"] as? String)
      #expect(rfc3339(site["last"]) == group["last"] as? String)
      #expect(site["processes"] as? [String] == group["processes"] as? [String])
      #expect(site["hosts"] as? [String] == group["hosts"] as? [String])
      #expect(site["value_types"] as? [String] == group["value_types"] as? [String])
      let levels = (site["levels"] as? [String: Any] ?? [:]).mapValues { number($0) ?? -1 }
      #expect(levels == group["levels"] as? [String: Int])
    }
    let lostRuns = try #require(summary["lost_runs"] as? [[String: Any]])
    let engineRuns = try #require(engine["lost_runs"])
    #expect(engineRuns.count == lostRuns.count)
    for (run, expected) in zip(engineRuns, lostRuns) {
      #expect(run["run"] as? String == expected["run"] as? String)
      #expect(run["process"] as? String == expected["process"] as? String)
      #expect(number(run["lost"]) == expected["lost"] as? Int)
      #expect(number(run["head"]) == expected["head"] as? Int)
    }
  }

  /// Run records are rows too: left out of the events, their `run_records` gives the run's
  /// tail to the lost-record queries (as the contract counts it: every seq up to the larger of
  /// the highest seen and the last `run_records` declared), and a misuse record's does not.
  @Test(.enabled(if: chdbInstalled, "Python chdb not installed (pip install chdb)"))
  func runRecordsGiveTheTailInClickHouse() throws {
    let run = "00000000000000cc"
    var heartbeat = fixtureEvent(seq: 3, at: "2026-11-30T06:00:00.000000Z", run: run)
    heartbeat.kind = .runHeartbeat
    heartbeat.level = .debug
    (heartbeat.runRecords, heartbeat.runEvents, heartbeat.runDropped) = (2, 2, 0)
    var end = heartbeat
    end.kind = .runEnd
    end.seq = 7
    (end.runRecords, end.runEvents, end.runDropped) = (6, 9, 1)
    // A misuse record claiming a run count: readers take it from run records only.
    var claiming = fixtureEvent(seq: 2, suppressed: 1, run: run)
    claiming.runRecords = 10
    let events = [fixtureEvent(seq: 1, run: run), claiming, heartbeat, end]
    let path = try writeFixture(jsonLines(events))
    let directory = try temporaryDirectory()
    let schema = try bindiag("export", "--schema", "clickhouse")
    try schema.stdout.write(toFile: directory + "/schema.sql", atomically: true, encoding: .utf8)
    let rows = try bindiag("export", "--format", "clickhouse", path)
    #expect(rows.stdout == jsonLines(events))
    try rows.stdout.write(toFile: directory + "/rows.jsonl", atomically: true, encoding: .utf8)
    let queries = try runProduct(
      executableInPath("python3")!,
      [
        "-c", chdbSummaryQueries, directory + "/schema.sql", directory + "/rows.jsonl",
        exportRepositoryRoot + "/config/clickhouse/summary.sql",
      ])
    #expect(queries.stderr == "")
    let engine = try #require(
      JSONSerialization.jsonObject(with: Data(queries.stdout.utf8)) as? [String: [[String: Any]]])
    func number(_ value: Any?) -> Int? {
      (value as? NSNumber)?.intValue ?? (value as? String).flatMap { Int($0) }
    }
    // Two misuse records standing for three events; seqs 4, 5 and 6 never arrived.
    let summary = try bindiag("summary", "--format", "json", path)
    #expect(
      summary.stdout.hasPrefix(
        #"{"schema":1,"events":3,"records":2,"malformed":0,"other":0,"lost":3,"#))
    #expect(number(engine["totals"]?.first?["events"]) == 3)
    #expect(number(engine["totals"]?.first?["records"]) == 2)
    #expect(number(engine["lost"]?.first?["lost"]) == 3)
    #expect(engine["lost_runs"]?.first?["run"] as? String == run)
    #expect(engine["sites"]?.count == 1)
  }
}
