import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// A run record as the sinks write one (see the event contract's "Run records"): the run's
/// next `seq`, `run_records` the highest `seq` handed out before it unless `records` says.
func runRecordEvent(
  _ kind: MisuseKind, seq: Int, at time: String, records: Int? = nil, dropped: Int = 0,
  process: String = "Demo", host: String = "build-01", run: String = "0123456789abcdef"
) -> MisuseEvent {
  var event = fixtureEvent(seq: seq, at: time, process: process, host: host, run: run)
  event.kind = kind
  event.level = .debug
  event.message = kind == .runEnd ? "The run ended." : "The run is alive."
  event.file = "-"
  event.line = 0
  event.function = "-"
  event.valueType = "-"
  event.valuePresent = false
  event.value = nil
  event.runRecords = records ?? seq - 1
  event.runEvents = seq - 1
  event.runDropped = dropped
  return event
}

/// Run records read back by `bindiag`: tails, states, `--max-stale`, fair windows, files and the
/// journal together.
@Suite struct BindiagRunRecordTests {
  static let mail = "a000000000000001"
  static let stuck = "b000000000000002"
  static let live = "c000000000000003"

  /// Three runs: one that ended with three records of its tail lost (its sink said it dropped
  /// them), one silent since 04:01 (stale against the input's newest record, 04:10), one
  /// running.
  static let events = [
    fixtureEvent(
      seq: 1, at: "2026-11-30T04:00:00.000000Z", process: "Mail", host: "web-01", run: mail),
    runRecordEvent(
      .runHeartbeat, seq: 2, at: "2026-11-30T04:01:00.000000Z", process: "Mail", host: "web-01",
      run: mail),
    fixtureEvent(
      seq: 3, at: "2026-11-30T04:01:30.000000Z", process: "Mail", host: "web-01", run: mail),
    runRecordEvent(
      .runEnd, seq: 7, at: "2026-11-30T04:02:00.000000Z", dropped: 3, process: "Mail",
      host: "web-01",
      run: mail),
    fixtureEvent(
      seq: 1, at: "2026-11-30T04:00:00.000000Z", process: "Mail", host: "web-02", run: stuck),
    runRecordEvent(
      .runHeartbeat, seq: 2, at: "2026-11-30T04:01:00.000000Z", process: "Mail", host: "web-02",
      run: stuck),
    fixtureEvent(
      seq: 1, at: "2026-11-30T04:09:00.000000Z", process: "Other", host: "web-02", run: live),
    fixtureEvent(
      seq: 2, at: "2026-11-30T04:10:00.000000Z", process: "Other", host: "web-02", run: live),
  ]

  @Test func jsonCountsRunsByStateAndNamesEveryLostAndStaleRunWithItsHost() throws {
    let path = try writeFixture(jsonLines(Self.events))
    let result = try bindiag("summary", "--format", "json", "--group-by", "host", path)
    #expect(result.stderr == "")
    #expect(result.status == 0)
    #expect(
      result.stdout
        == #"{"schema":1,"events":5,"records":5,"malformed":0,"other":0,"lost":3,"duplicates":0,"runs":{"ended":1,"running":1,"stale":1},"run_dropped":3,"first":"2026-11-30T04:00:00.000000Z","last":"2026-11-30T04:10:00.000000Z","group_by":["host"],"groups":[{"key":{"host":"web-02"},"events":3,"records":3,"lost":0,"first":"2026-11-30T04:00:00.000000Z","last":"2026-11-30T04:10:00.000000Z","processes":["Mail","Other"],"hosts":["web-02"],"value_types":["Swift.Optional<Swift.String>"],"labels":[],"levels":{"error":3},"histogram":[1,0,0,0,0,0,0,2]},{"key":{"host":"web-01"},"events":2,"records":2,"lost":3,"first":"2026-11-30T04:00:00.000000Z","last":"2026-11-30T04:01:30.000000Z","processes":["Mail"],"hosts":["web-01"],"value_types":["Swift.Optional<Swift.String>"],"labels":[],"levels":{"error":2},"histogram":[1,1,0,0,0,0,0,0]}],"lost_runs":[{"run":"a000000000000001","process":"Mail","host":"web-01","lost":3,"head":0,"tail":3,"dropped":3}],"stale_runs":[{"run":"b000000000000002","process":"Mail","host":"web-02","last":"2026-11-30T04:01:00.000000Z"}],"run_fields":["host"],"run_groups":[{"key":{"host":"web-01"},"lost":3,"dropped":3,"runs":{"ended":1,"running":0,"stale":0},"last":"2026-11-30T04:02:00.000000Z"},{"key":{"host":"web-02"},"lost":0,"dropped":0,"runs":{"ended":0,"running":1,"stale":1},"last":"2026-11-30T04:10:00.000000Z"}]}"#
        + "\n")
  }

  @Test func theTableSaysHowManyRunsEndedAndNamesTheStaleOnes() throws {
    let path = try writeFixture(jsonLines(Self.events))
    let result = try bindiag("summary", "--group-by", "host", path)
    #expect(result.stderr == "")
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        5 events in 5 records from 3 runs, 2026-11-30 04:00:00 to 04:10:00 UTC

        LEVEL  EVENTS  RECORDS  LOST  HOST    PROCS  FIRST SEEN  LAST SEEN  TIMELINE
        error       3        3     0  web-02      2  04:00:00    04:10:00   ▄      █
        error       2        2     3  web-01      1  04:00:00    04:01:30   ██

        Lost records: 3 in 1 run (Mail run a000000000000001 on web-01: 3)
          of them 3 after the last misuse record read (known from its run records)
        Dropped by the sinks: 3 (as their run records say)
        Runs: 1 ended, 1 running, 1 stale (no run-end, silent over twice the heartbeat):
          Mail run b000000000000002 on web-02, last 2026-11-30 04:01:00

        """)
  }

  @Test func checkFailsOnStaleRunsOnlyWhenAsked() throws {
    let path = try writeFixture(jsonLines(Self.events))
    let limits = ["--max-events", "10", "--max-lost", "3"]
    let unlimited = try bindiag(arguments: ["check"] + limits + [path])
    #expect(unlimited.status == 0)
    #expect(
      unlimited.stderr
        == "check passed: 5 events at warning and above (--max-events 10), 3 lost records (--max-lost 3)\n"
    )
    let gated = try bindiag(arguments: ["check", "--max-stale", "0"] + limits + [path])
    #expect(gated.status == 3)
    #expect(gated.stderr == "check failed: 1 stale run (--max-stale 0)\n")
    let allowed = try bindiag(arguments: ["check", "--max-stale", "1"] + limits + [path])
    #expect(allowed.status == 0)
    #expect(
      allowed.stderr
        == "check passed: 5 events at warning and above (--max-events 10), 3 lost records (--max-lost 3), 1 stale run (--max-stale 1)\n"
    )
  }

  /// A collector whose disk filled stops taking every host's records at once: against its
  /// newest record, no run looks silent. `--live` judges against now (or `--until` when
  /// earlier), as the live journal is judged.
  @Test(
    .enabled(
      if: JournalExportFile.remote != nil,
      "systemd-journal-remote is not installed (apt-get install systemd-journal-remote)"))
  func liveInputsAreJudgedAgainstNowOrTheWindowsEnd() throws {
    let directory = try temporaryDirectory()
    try JournalExportFile.write(Self.events, to: directory + "/remote-web.journal")
    func states(_ arguments: String...) throws -> String {
      let result = try bindiag(
        arguments: ["summary", "--journal-dir", directory, "--format", "json"] + arguments)
      #expect(result.status == 0)
      #expect(result.stderr == "")
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
      let runs = try #require(object["runs"] as? [String: Int])
      let stale = ((object["stale_runs"] as? [[String: Any]]) ?? []).compactMap {
        $0["run"] as? String
      }
      return "\(runs["ended"]!)/\(runs["running"]!)/\(runs["stale"]!) \(stale)"
    }
    #expect(try states() == "1/1/1 [\"\(Self.stuck)\"]")
    // Days later, the run still writing at 04:10 has been silent as long: stale too.
    #expect(try states("--live") == "1/0/2 [\"\(Self.live)\", \"\(Self.stuck)\"]")
    #expect(
      try states("--live", "--until", "2026-11-30T04:10:30Z")
        == "1/1/1 [\"\(Self.stuck)\"]")
    let check = try bindiag(
      "check", "--journal-dir", directory, "--live", "--max-events", "10", "--max-lost", "3",
      "--max-stale", "1")
    #expect(check.status == 3)
    #expect(check.stderr == "check failed: 2 stale runs (--max-stale 1)\n")
  }

  /// A run on `h1` whose last record is at 04:00:10, then another run's record at 04:16:40.
  static let silentThenOther = [
    fixtureEvent(seq: 1, at: "2026-11-30T04:00:00.000000Z", host: "h1", run: mail),
    fixtureEvent(seq: 2, at: "2026-11-30T04:00:10.000000Z", host: "h1", run: mail),
    fixtureEvent(seq: 1, at: "2026-11-30T04:16:40.000000Z", host: "h2", run: live),
  ]

  /// The runs, run groups' last records and what the sinks dropped, from a summary's JSON.
  func runs(_ arguments: [String]) throws -> String {
    let result = try bindiag(arguments: ["summary", "--format", "json"] + arguments)
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let runs = try #require(object["runs"] as? [String: Int])
    let groups = try #require(object["run_groups"] as? [[String: Any]])
    let lastRecords = groups.compactMap { $0["last"] as? String }.map { $0.dropFirst(11).prefix(8) }
    return
      "ended \(runs["ended"]!) running \(runs["running"]!) stale \(runs["stale"]!), lost "
      + "\(object["lost"]!), dropped \(object["run_dropped"]!), last \(lastRecords)"
  }

  /// A window judges a run on what lies inside it alone (BindiagGates: "a release that started
  /// after `--until` cannot fail a check of the one before"): neither another run's record nor
  /// the run's own `run-end` after `--until` makes it stale, ended, or tells its drops.
  @Test func aRunIsJudgedOnTheWindowAlone() throws {
    let path = try writeFixture(
      jsonLines([
        fixtureEvent(seq: 1, at: "2026-11-30T04:00:00.000000Z", host: "h1", run: Self.mail),
        fixtureEvent(seq: 2, at: "2026-11-30T04:00:10.000000Z", host: "h1", run: Self.mail),
        runRecordEvent(
          .runEnd, seq: 6, at: "2026-11-30T04:00:20.000000Z", records: 5, dropped: 3, host: "h1",
          run: Self.mail),
        fixtureEvent(seq: 1, at: "2026-11-30T04:16:40.000000Z", host: "h2", run: Self.live),
      ]))
    #expect(
      try runs([path])
        == #"ended 1 running 1 stale 0, lost 3, dropped 3, last ["04:00:20", "04:16:40"]"#)
    let until = ["--until", "2026-11-30T04:00:10Z", path]
    #expect(try runs(until) == #"ended 0 running 1 stale 0, lost 0, dropped 0, last ["04:00:10"]"#)
    let check = try bindiag(arguments: ["check", "--max-events", "10", "--max-stale", "0"] + until)
    #expect(check.status == 0)
    #expect(
      check.stderr
        == "check passed: 2 events at warning and above (--max-events 10), 0 lost records"
        + " (--max-lost 0), 0 stale runs (--max-stale 0)\n")
    // Without its `run-end`, the run is still running at the window's end: the other run's
    // record after it does not make it silent.
    let unended = try writeFixture(
      jsonLines(Self.silentThenOther))
    let windowed = try bindiag(
      "check", "--max-events", "10", "--max-stale", "0", "--until", "2026-11-30T04:00:10Z",
      unended)
    #expect(windowed.status == 0, "\(windowed.stderr)")
  }

  /// A run's heartbeat cadence is learnt from every heartbeat read: a `--since` after its
  /// heartbeats judged it against the default minute, stale where the whole input is not.
  @Test func aWindowKeepsTheRunsHeartbeatCadence() throws {
    let path = try writeFixture(
      jsonLines([
        fixtureEvent(seq: 1, at: "2026-11-30T04:00:00.000000Z", run: Self.mail),
        runRecordEvent(.runHeartbeat, seq: 2, at: "2026-11-30T04:10:00.000000Z", run: Self.mail),
        runRecordEvent(.runHeartbeat, seq: 3, at: "2026-11-30T04:20:00.000000Z", run: Self.mail),
        fixtureEvent(seq: 4, at: "2026-11-30T04:25:00.000000Z", run: Self.mail),
        fixtureEvent(seq: 1, at: "2026-11-30T04:40:00.000000Z", host: "h2", run: Self.live),
      ]))
    for window in [[], ["--since", "2026-11-30T04:21:00Z"]] {
      let check = try bindiag(
        arguments: ["check", "--max-events", "10", "--max-stale", "0"] + window + [path])
      #expect(check.status == 0, "\(window): \(check.stderr)")
    }
  }

  /// `--run` selects a run as `--host` does: the run is judged stale against the input's
  /// newest record, not against its own (which would never find it stale).
  @Test(arguments: [["--run", mail], ["--host", "h1"]])
  func aRunSelectedIsJudgedAgainstTheInputsNewestRecord(selection: [String]) throws {
    let path = try writeFixture(
      jsonLines(Self.silentThenOther))
    let check = try bindiag(
      arguments: ["check", "--max-events", "10", "--max-stale", "0"] + selection + [path])
    #expect(check.status == 3)
    #expect(check.stderr == "check failed: 1 stale run (--max-stale 0)\n")
  }

  /// A run read only through a run record: the `seq`s it handed out before are its head, and
  /// not its tail as well (the table said "4 lost, of them 4 before … and 4 after …").
  @Test func aRunOfRunRecordsOnlyHasAHeadAndNoTail() throws {
    let path = try writeFixture(
      jsonLines([runRecordEvent(.runHeartbeat, seq: 5, at: "2026-11-30T04:00:00.000000Z")]))
    let result = try bindiag("summary", "--format", "json", path)
    #expect(
      result.stdout.contains(
        #""lost_runs":[{"run":"0123456789abcdef","process":"Demo","host":"build-01","lost":4,"head":4,"tail":0,"dropped":0}]"#
      ), "\(result.stdout)")
  }

  @Test func markdownCSVAndHTMLCarryTheRuns() throws {
    let path = try writeFixture(jsonLines(Self.events))
    let markdown = try bindiag("summary", "--format", "markdown", "--group-by", "host", path)
    #expect(
      markdown.stdout.contains(
        "· lost records: 3 · dropped by the sinks: 3 · runs: 1 ended, 1 running, 1 stale ·"))
    #expect(
      markdown.stdout.contains(
        "Stale runs (no run-end, silent over twice the heartbeat): `Mail` run `b000000000000002` on `web-02`, last 2026-11-30T04:01:00Z"
      ))
    #expect(markdown.stdout.contains("| 2 | 2 | 3 | `web-01` |"))
    let csv = try bindiag("summary", "--format", "csv", "--group-by", "host", path)
    let rows = csv.stdout.components(separatedBy: "\r\n")
    #expect(rows[0].hasPrefix("events,records,lost,runs_ended,runs_running,runs_stale,host,"))
    #expect(rows[1].hasPrefix("3,3,0,0,1,1,web-02,"))
    #expect(rows[2].hasPrefix("2,2,3,1,0,0,web-01,"))
    let html = try bindiag("summary", "--format", "html", path)
    #expect(
      html.stdout.contains(#"<div class="total alert" id="total-stale"><b>1</b> run stale</div>"#))
    #expect(html.stdout.contains("<td>web-02</td><td><code>b000000000000002</code></td>"))
  }

  /// `check --journal-dir D --since … --until …` between two deploys: runs that started after
  /// the window, and losses before it, are not the window's.
  @Test(
    .enabled(
      if: JournalExportFile.remote != nil,
      "systemd-journal-remote is not installed (apt-get install systemd-journal-remote)"))
  func aWindowOfTheJournalBlamesNoRunOutsideIt() throws {
    let directory = try temporaryDirectory()
    let before = "d000000000000001"
    let inside = "d000000000000002"
    let after = "d000000000000003"
    var events: [MisuseEvent] = [
      // The release before: seq 2 lost at 23:20.
      fixtureEvent(seq: 1, at: "2026-11-30T23:20:00.000000Z", host: "web-01", run: before),
      fixtureEvent(seq: 3, at: "2026-11-30T23:20:30.000000Z", host: "web-01", run: before),
      // Inside the window, whole, ended.
      fixtureEvent(seq: 1, at: "2026-11-30T23:22:10.000000Z", host: "web-02", run: inside),
      fixtureEvent(seq: 2, at: "2026-11-30T23:22:20.000000Z", host: "web-02", run: inside),
      runRecordEvent(
        .runEnd, seq: 3, at: "2026-11-30T23:22:30.000000Z", host: "web-02", run: inside),
    ]
    // The release after, from 23:24: 90 of 100 records lost, its end included.
    events.append(
      fixtureEvent(seq: 1, at: "2026-11-30T23:24:00.000000Z", host: "web-03", run: after))
    events.append(
      runRecordEvent(
        .runEnd, seq: 101, at: "2026-11-30T23:24:10.000000Z", host: "web-03", run: after))
    try JournalExportFile.write(events, to: directory + "/remote-10.0.0.7.journal")
    let window = [
      "check", "--journal-dir", directory, "--since", "2026-11-30T23:22:00Z", "--until",
      "2026-11-30T23:23:00Z", "--max-events", "5",
    ]
    let passed = try bindiag(arguments: window)
    #expect(
      passed.stdout == """
        2 events in 2 records from 1 run, 2026-11-30 23:22:10 to 23:22:20 UTC

        LEVEL  EVENTS  RECORDS  KIND                  SITE                      PROCS  FIRST SEEN  LAST SEEN  TIMELINE
        error       2        2  mapped-bool-set-true  App/ContentView.swift:42      1  23:22:10    23:22:20   █      █

        Lost records: 0
        Runs: 1 ended, 0 running, 0 stale

        """)
    #expect(
      passed.stderr
        == "check passed: 2 events at warning and above (--max-events 5), 0 lost records (--max-lost 0)\n"
    )
    #expect(passed.status == 0)
    // The window of the release after does blame it, and names its host.
    let later = try bindiag(
      arguments: [
        "summary", "--journal-dir", directory, "--since", "2026-11-30T23:23:30Z", "--format",
        "json",
      ])
    #expect(later.status == 0)
    #expect(later.stdout.contains(#""lost":99,"#))
    #expect(
      later.stdout.contains(
        #""lost_runs":[{"run":"d000000000000003","process":"Demo","host":"web-03","lost":99,"head":0,"tail":99,"dropped":0}]"#
      ))
    // The whole journal blames both.
    let whole = try bindiag("summary", "--journal-dir", directory, "--format", "json")
    #expect(whole.stdout.contains(#""lost":100,"#))
  }

  /// A journald sink's fallback file and the journal it fell back from make one summary; a
  /// record in both counts once.
  @Test(
    .enabled(
      if: JournalExportFile.remote != nil,
      "systemd-journal-remote is not installed (apt-get install systemd-journal-remote)"))
  func filesAndTheJournalMakeOneSummary() throws {
    let directory = try temporaryDirectory()
    let run = "e000000000000001"
    let all = (1...5).map {
      fixtureEvent(seq: $0, at: "2026-11-30T04:0\($0):00.000000Z", host: "web-01", run: run)
    }
    try JournalExportFile.write(Array(all[0...2]), to: directory + "/remote-web-01.journal")
    let fallback = try writeFixture(jsonLines(Array(all[2...4])), name: "fallback.jsonl")
    let result = try bindiag(
      "summary", "--journal-dir", directory, fallback, "--format", "json", "--group-by", "host")
    #expect(result.stderr == "")
    #expect(result.status == 0)
    #expect(
      result.stdout.hasPrefix(
        #"{"schema":1,"events":5,"records":5,"malformed":0,"other":0,"lost":0,"duplicates":1,"#))
  }
}
