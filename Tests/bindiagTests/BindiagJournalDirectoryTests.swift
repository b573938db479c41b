import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// Journal directories as a central server holds them: real journal files written by
/// `systemd-journal-remote`, one per host, in two directories laid out two ways.
@Suite(
  .enabled(
    if: JournalExportFile.remote != nil,
    "systemd-journal-remote is not installed (apt-get install systemd-journal-remote)"))
struct BindiagJournalDirectoryTests {
  /// `central/remote-web-01.journal`, `central/remote-web-02.journal` (what
  /// `--split-mode=host` writes) and `db/<machine-id>/system.journal` (journald's layout),
  /// plus files `sd_journal_open_directory` does not read: `db/archive/old.journal` (not a
  /// machine id) and `central/notes.txt`.
  struct Layout {
    let central: String
    let db: String

    init() throws {
      let root = try temporaryDirectory()
      central = root + "/central"
      db = root + "/db"
      let machine = db + "/0123456789abcdef0123456789abcdef"
      for directory in [central, machine, db + "/archive"] {
        try FileManager.default.createDirectory(
          atPath: directory, withIntermediateDirectories: true)
      }
      let mail = "a000000000000001"
      let notes = "b000000000000002"
      let database = "c000000000000003"
      try JournalExportFile.write(
        [
          fixtureEvent(
            seq: 1, at: "2026-11-30T04:00:00.000000Z", process: "Mail", host: "web-01", run: mail),
          fixtureEvent(
            seq: 2, at: "2026-11-30T04:10:00.000000Z", process: "Mail", host: "web-01", run: mail),
          fixtureEvent(
            seq: 3, at: "2026-11-30T04:20:00.000000Z", process: "Mail", host: "web-01", run: mail),
          fixtureEvent(
            seq: 4, kind: .unwrappedWriteAfterNil, file: "App/Detail.swift", line: 7,
            at: "2026-11-30T04:30:00.000000Z", suppressed: 2, process: "Mail", host: "web-01",
            run: mail),
        ], to: central + "/remote-web-01.journal")
      try JournalExportFile.write(
        [
          fixtureEvent(
            seq: 1, at: "2026-11-30T05:00:00.000000Z", process: "Notes", host: "web-02", run: notes),
          fixtureEvent(
            seq: 2, at: "2026-11-30T05:30:00.000000Z", process: "Notes", host: "web-02", run: notes),
        ], to: central + "/remote-web-02.journal")
      // seq 2 is lost.
      try JournalExportFile.write(
        [
          // At warning, above the kind's default (info), as an app may report it.
          fixtureEvent(
            seq: 1, kind: .unwrappedReadAfterNil, level: .warning, file: "App/Detail.swift",
            line: 7, at: "2026-11-30T03:00:00.000000Z", process: "Mail", host: "db-01",
            run: database),
          fixtureEvent(
            seq: 3, at: "2026-11-30T06:00:00.000000Z", process: "Mail", host: "db-01", run: database
          ),
        ], to: machine + "/system.journal")
      try JournalExportFile.write(
        [fixtureEvent(seq: 9, process: "Old", host: "old-01", run: "d000000000000004")],
        to: db + "/archive/old.journal")
      try "not a journal\n".write(toFile: central + "/notes.txt", atomically: true, encoding: .utf8)
    }

    /// `--journal-dir` for both.
    var arguments: [String] { ["--journal-dir", central, "--journal-dir", db] }

    /// Checks `summary --group-by groupBy` in each format against `expected[format]`.
    func expectEveryFormat(groupBy: String, _ expected: [String: String]) throws {
      for (format, text) in expected.sorted(by: { $0.key < $1.key }) {
        let result = try bindiag(
          arguments: ["summary", "--group-by", groupBy, "--format", format] + arguments)
        #expect(result.status == 0, "\(format): \(result.stderr)")
        #expect(result.stderr == "", "\(format)")
        #expect(result.stdout == text, "\(format)")
      }
    }
  }

  @Test func groupByHostInEveryFormat() throws {
    let layout = try Layout()
    let expected: [String: String] = [
      "table": """
      10 events in 8 records from 3 runs, 2026-11-30 03:00:00 to 06:00:00 UTC

      LEVEL  EVENTS  RECORDS  LOST  HOST    PROCS  FIRST SEEN  LAST SEEN  TIMELINE
      error       6        4     0  web-01      1  04:00:00    04:30:00     ▃▆█
      error       2        2     1  db-01       1  03:00:00    06:00:00   █      █
      error       2        2     0  web-02      1  05:00:00    05:30:00        ██

      Lost records: 1 in 1 run (Mail run c000000000000003 on db-01: 1)
      Runs: 0 ended, 1 running, 2 stale (no run-end, silent over twice the heartbeat):
        Notes run b000000000000002 on web-02, last 2026-11-30 05:30:00
        Mail run a000000000000001 on web-01, last 2026-11-30 04:30:00

      """,
      "json": #"""
      {"schema":1,"events":10,"records":8,"malformed":0,"other":0,"lost":1,"duplicates":0,"runs":{"ended":0,"running":1,"stale":2},"run_dropped":0,"first":"2026-11-30T03:00:00.000000Z","last":"2026-11-30T06:00:00.000000Z","group_by":["host"],"groups":[{"key":{"host":"web-01"},"events":6,"records":4,"lost":0,"first":"2026-11-30T04:00:00.000000Z","last":"2026-11-30T04:30:00.000000Z","processes":["Mail"],"hosts":["web-01"],"value_types":["Swift.Optional<Swift.String>"],"labels":[],"levels":{"error":3,"warning":3},"histogram":[0,0,1,2,3,0,0,0]},{"key":{"host":"db-01"},"events":2,"records":2,"lost":1,"first":"2026-11-30T03:00:00.000000Z","last":"2026-11-30T06:00:00.000000Z","processes":["Mail"],"hosts":["db-01"],"value_types":["Swift.Optional<Swift.String>"],"labels":[],"levels":{"error":1,"warning":1},"histogram":[1,0,0,0,0,0,0,1]},{"key":{"host":"web-02"},"events":2,"records":2,"lost":0,"first":"2026-11-30T05:00:00.000000Z","last":"2026-11-30T05:30:00.000000Z","processes":["Notes"],"hosts":["web-02"],"value_types":["Swift.Optional<Swift.String>"],"labels":[],"levels":{"error":2},"histogram":[0,0,0,0,0,1,1,0]}],"lost_runs":[{"run":"c000000000000003","process":"Mail","host":"db-01","lost":1,"head":0,"tail":0,"dropped":0}],"stale_runs":[{"run":"b000000000000002","process":"Notes","host":"web-02","last":"2026-11-30T05:30:00.000000Z"},{"run":"a000000000000001","process":"Mail","host":"web-01","last":"2026-11-30T04:30:00.000000Z"}],"run_fields":["host"],"run_groups":[{"key":{"host":"db-01"},"lost":1,"dropped":0,"runs":{"ended":0,"running":1,"stale":0},"last":"2026-11-30T06:00:00.000000Z"},{"key":{"host":"web-01"},"lost":0,"dropped":0,"runs":{"ended":0,"running":0,"stale":1},"last":"2026-11-30T04:30:00.000000Z"},{"key":{"host":"web-02"},"lost":0,"dropped":0,"runs":{"ended":0,"running":0,"stale":1},"last":"2026-11-30T05:30:00.000000Z"}]}

      """#,
      "markdown": """
      ## Binding misuse summary

      **10** events in 8 records from 3 runs · lost records: 1 · runs: 0 ended, 1 running, 2 stale · duplicates: 0 · malformed lines: 0 · other lines: 0

      Lost records in `Mail` run `c000000000000003` on `db-01`: 1

      Stale runs (no run-end, silent over twice the heartbeat): `Notes` run `b000000000000002` on `web-02`, last 2026-11-30T05:30:00Z, `Mail` run `a000000000000001` on `web-01`, last 2026-11-30T04:30:00Z

      | Events | Records | Lost | Host | First seen | Last seen | Processes | Labels |
      | ---: | ---: | ---: | --- | --- | --- | --- | --- |
      | 6 | 4 | 0 | `web-01` | 2026-11-30T04:00:00Z | 2026-11-30T04:30:00Z | `Mail` |  |
      | 2 | 2 | 1 | `db-01` | 2026-11-30T03:00:00Z | 2026-11-30T06:00:00Z | `Mail` |  |
      | 2 | 2 | 0 | `web-02` | 2026-11-30T05:00:00Z | 2026-11-30T05:30:00Z | `Notes` |  |

      """,
      "csv": """
      events,records,lost,runs_ended,runs_running,runs_stale,host,first,last,processes,hosts,value_types,labels,critical,error,warning,notice,info,debug,trace\r
      6,4,0,0,0,1,web-01,2026-11-30T04:00:00.000000Z,2026-11-30T04:30:00.000000Z,Mail,web-01,Swift.Optional<Swift.String>,,0,3,3,0,0,0,0\r
      2,2,1,0,1,0,db-01,2026-11-30T03:00:00.000000Z,2026-11-30T06:00:00.000000Z,Mail,db-01,Swift.Optional<Swift.String>,,0,1,1,0,0,0,0\r
      2,2,0,0,0,1,web-02,2026-11-30T05:00:00.000000Z,2026-11-30T05:30:00.000000Z,Notes,web-02,Swift.Optional<Swift.String>,,0,2,0,0,0,0,0\r

      """,
    ]
    try layout.expectEveryFormat(groupBy: "host", expected)
  }

  @Test func groupByHostAndKindInEveryFormat() throws {
    let layout = try Layout()
    let expected: [String: String] = [
      "table": """
      10 events in 8 records from 3 runs, 2026-11-30 03:00:00 to 06:00:00 UTC

      LEVEL    EVENTS  RECORDS  HOST    KIND                       PROCS  FIRST SEEN  LAST SEEN  TIMELINE
      error         3        3  web-01  mapped-bool-set-true           1  04:00:00    04:20:00     ▄█
      warning       3        1  web-01  unwrapped-write-after-nil      1  04:30:00    04:30:00       █
      error         2        2  web-02  mapped-bool-set-true           1  05:00:00    05:30:00        ██
      error         1        1  db-01   mapped-bool-set-true           1  06:00:00    06:00:00          █
      warning       1        1  db-01   unwrapped-read-after-nil       1  03:00:00    03:00:00   █

      Lost records: 1 in 1 run (Mail run c000000000000003 on db-01: 1)
      Runs: 0 ended, 1 running, 2 stale (no run-end, silent over twice the heartbeat):
        Notes run b000000000000002 on web-02, last 2026-11-30 05:30:00
        Mail run a000000000000001 on web-01, last 2026-11-30 04:30:00

      """,
      "json": #"""
      {"schema":1,"events":10,"records":8,"malformed":0,"other":0,"lost":1,"duplicates":0,"runs":{"ended":0,"running":1,"stale":2},"run_dropped":0,"first":"2026-11-30T03:00:00.000000Z","last":"2026-11-30T06:00:00.000000Z","group_by":["host","kind"],"groups":[{"key":{"host":"web-01","kind":"mapped-bool-set-true"},"events":3,"records":3,"first":"2026-11-30T04:00:00.000000Z","last":"2026-11-30T04:20:00.000000Z","processes":["Mail"],"hosts":["web-01"],"value_types":["Swift.Optional<Swift.String>"],"labels":[],"levels":{"error":3},"histogram":[0,0,1,2,0,0,0,0]},{"key":{"host":"web-01","kind":"unwrapped-write-after-nil"},"events":3,"records":1,"first":"2026-11-30T04:30:00.000000Z","last":"2026-11-30T04:30:00.000000Z","processes":["Mail"],"hosts":["web-01"],"value_types":["Swift.Optional<Swift.String>"],"labels":[],"levels":{"warning":3},"histogram":[0,0,0,0,3,0,0,0]},{"key":{"host":"web-02","kind":"mapped-bool-set-true"},"events":2,"records":2,"first":"2026-11-30T05:00:00.000000Z","last":"2026-11-30T05:30:00.000000Z","processes":["Notes"],"hosts":["web-02"],"value_types":["Swift.Optional<Swift.String>"],"labels":[],"levels":{"error":2},"histogram":[0,0,0,0,0,1,1,0]},{"key":{"host":"db-01","kind":"mapped-bool-set-true"},"events":1,"records":1,"first":"2026-11-30T06:00:00.000000Z","last":"2026-11-30T06:00:00.000000Z","processes":["Mail"],"hosts":["db-01"],"value_types":["Swift.Optional<Swift.String>"],"labels":[],"levels":{"error":1},"histogram":[0,0,0,0,0,0,0,1]},{"key":{"host":"db-01","kind":"unwrapped-read-after-nil"},"events":1,"records":1,"first":"2026-11-30T03:00:00.000000Z","last":"2026-11-30T03:00:00.000000Z","processes":["Mail"],"hosts":["db-01"],"value_types":["Swift.Optional<Swift.String>"],"labels":[],"levels":{"warning":1},"histogram":[1,0,0,0,0,0,0,0]}],"lost_runs":[{"run":"c000000000000003","process":"Mail","host":"db-01","lost":1,"head":0,"tail":0,"dropped":0}],"stale_runs":[{"run":"b000000000000002","process":"Notes","host":"web-02","last":"2026-11-30T05:30:00.000000Z"},{"run":"a000000000000001","process":"Mail","host":"web-01","last":"2026-11-30T04:30:00.000000Z"}],"run_fields":["host"],"run_groups":[{"key":{"host":"db-01"},"lost":1,"dropped":0,"runs":{"ended":0,"running":1,"stale":0},"last":"2026-11-30T06:00:00.000000Z"},{"key":{"host":"web-01"},"lost":0,"dropped":0,"runs":{"ended":0,"running":0,"stale":1},"last":"2026-11-30T04:30:00.000000Z"},{"key":{"host":"web-02"},"lost":0,"dropped":0,"runs":{"ended":0,"running":0,"stale":1},"last":"2026-11-30T05:30:00.000000Z"}]}

      """#,
      "markdown": """
      ## Binding misuse summary

      **10** events in 8 records from 3 runs · lost records: 1 · runs: 0 ended, 1 running, 2 stale · duplicates: 0 · malformed lines: 0 · other lines: 0

      Lost records in `Mail` run `c000000000000003` on `db-01`: 1

      Stale runs (no run-end, silent over twice the heartbeat): `Notes` run `b000000000000002` on `web-02`, last 2026-11-30T05:30:00Z, `Mail` run `a000000000000001` on `web-01`, last 2026-11-30T04:30:00Z

      | Events | Records | Host | Kind | First seen | Last seen | Processes | Labels |
      | ---: | ---: | --- | --- | --- | --- | --- | --- |
      | 3 | 3 | `web-01` | `mapped-bool-set-true` | 2026-11-30T04:00:00Z | 2026-11-30T04:20:00Z | `Mail` |  |
      | 3 | 1 | `web-01` | `unwrapped-write-after-nil` | 2026-11-30T04:30:00Z | 2026-11-30T04:30:00Z | `Mail` |  |
      | 2 | 2 | `web-02` | `mapped-bool-set-true` | 2026-11-30T05:00:00Z | 2026-11-30T05:30:00Z | `Notes` |  |
      | 1 | 1 | `db-01` | `mapped-bool-set-true` | 2026-11-30T06:00:00Z | 2026-11-30T06:00:00Z | `Mail` |  |
      | 1 | 1 | `db-01` | `unwrapped-read-after-nil` | 2026-11-30T03:00:00Z | 2026-11-30T03:00:00Z | `Mail` |  |

      """,
      "csv": """
      events,records,host,kind,first,last,processes,hosts,value_types,labels,critical,error,warning,notice,info,debug,trace\r
      3,3,web-01,mapped-bool-set-true,2026-11-30T04:00:00.000000Z,2026-11-30T04:20:00.000000Z,Mail,web-01,Swift.Optional<Swift.String>,,0,3,0,0,0,0,0\r
      3,1,web-01,unwrapped-write-after-nil,2026-11-30T04:30:00.000000Z,2026-11-30T04:30:00.000000Z,Mail,web-01,Swift.Optional<Swift.String>,,0,0,3,0,0,0,0\r
      2,2,web-02,mapped-bool-set-true,2026-11-30T05:00:00.000000Z,2026-11-30T05:30:00.000000Z,Notes,web-02,Swift.Optional<Swift.String>,,0,2,0,0,0,0,0\r
      1,1,db-01,mapped-bool-set-true,2026-11-30T06:00:00.000000Z,2026-11-30T06:00:00.000000Z,Mail,db-01,Swift.Optional<Swift.String>,,0,1,0,0,0,0,0\r
      1,1,db-01,unwrapped-read-after-nil,2026-11-30T03:00:00.000000Z,2026-11-30T03:00:00.000000Z,Mail,db-01,Swift.Optional<Swift.String>,,0,0,1,0,0,0,0\r

      """,
    ]
    try layout.expectEveryFormat(groupBy: "host,kind", expected)
  }

  /// Grouped by anything else, the table names the hosts of each group (more than one host).
  @Test func theTableListsTheHostsOfEachKind() throws {
    let layout = try Layout()
    let result = try bindiag(arguments: ["summary", "--group-by", "kind"] + layout.arguments)
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        10 events in 8 records from 3 runs, 2026-11-30 03:00:00 to 06:00:00 UTC

        LEVEL    EVENTS  RECORDS  KIND                       PROCS  HOSTS                  FIRST SEEN  LAST SEEN  TIMELINE
        error         6        6  mapped-bool-set-true           2  db-01, web-01, web-02  04:00:00    06:00:00     ▄█ ▄▄▄
        warning       3        1  unwrapped-write-after-nil      1  web-01                 04:30:00    04:30:00       █
        warning       1        1  unwrapped-read-after-nil       1  db-01                  03:00:00    03:00:00   █

        Lost records: 1 in 1 run (Mail run c000000000000003 on db-01: 1)
        Runs: 0 ended, 1 running, 2 stale (no run-end, silent over twice the heartbeat):
          Notes run b000000000000002 on web-02, last 2026-11-30 05:30:00
          Mail run a000000000000001 on web-01, last 2026-11-30 04:30:00

        """)
  }

  /// The files read are those `journalctl --directory` reads: the same events either way.
  @Test func readsWhatJournalctlReads() throws {
    let layout = try Layout()
    for directory in [layout.central, layout.db] {
      let exported = try runProduct(
        "/usr/bin/env", ["journalctl", "--no-pager", "-o", "json", "-D", directory])
      #expect(exported.status == 0, "\(exported.stderr)")
      let piped = try bindiag(
        arguments: ["summary", "--format", "json"], stdin: Data(exported.stdout.utf8))
      let direct = try bindiag(arguments: [
        "summary", "--format", "json", "--journal-dir", directory,
      ])
      #expect(direct.status == 0)
      #expect(direct.stdout == piped.stdout)
    }
  }

  @Test func aFileReachedTwiceIsReadOnce() throws {
    let layout = try Layout()
    let once = try bindiag(arguments: [
      "summary", "--format", "json", "--journal-dir", layout.central,
    ])
    let twice = try bindiag(
      arguments: [
        "summary", "--format", "json", "--journal-dir", layout.central, "--journal-dir",
        layout.central + "/",
      ])
    #expect(twice.status == 0)
    #expect(twice.stdout == once.stdout)
    #expect(
      once.stdout.hasPrefix(
        #"{"schema":1,"events":8,"records":6,"malformed":0,"other":0,"lost":0,"duplicates":0,"#))
  }

  /// A run is one process on one host: `--host` and `--process` count the lost records of
  /// their own runs only.
  @Test func hostAndProcessFiltersSelectWholeRuns() throws {
    let layout = try Layout()
    let cases: [([String], String)] = [
      (["--host", "web-01"], #""events":6,"records":4,"malformed":0,"other":0,"lost":0,"#),
      (["--host", "db-01"], #""events":2,"records":2,"malformed":0,"other":0,"lost":1,"#),
      (["--host", "nowhere"], #""events":0,"records":0,"malformed":0,"other":0,"lost":0,"#),
      (["--process", "Notes"], #""events":2,"records":2,"malformed":0,"other":0,"lost":0,"#),
      (["--process", "Mail"], #""events":8,"records":6,"malformed":0,"other":0,"lost":1,"#),
      // Kind selects records within a run: db-01's run still has its gap.
      (
        ["--kind", "unwrapped-write-after-nil"],
        #""events":3,"records":1,"malformed":0,"other":0,"lost":1,"#
      ),
    ]
    for (filter, totals) in cases {
      let result = try bindiag(
        arguments: ["summary", "--format", "json", "--group-by", "host"] + filter
          + layout.arguments)
      #expect(result.status == 0)
      #expect(result.stdout.hasPrefix(#"{"schema":1,"# + totals), "\(filter): \(result.stdout)")
    }
  }

  @Test func anUnreadableDirectoryFailsButTheOthersAreSummarised() throws {
    let layout = try Layout()
    let missing = layout.db + "/missing"
    let result = try bindiag(
      arguments: [
        "summary", "--format", "json", "--journal-dir", layout.central, "--journal-dir", missing,
      ])
    let alone = try bindiag(arguments: [
      "summary", "--format", "json", "--journal-dir", layout.central,
    ])
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "Error: cannot read journal '\(missing)': opendir: No such file or directory (errno 2)\n"
    )
    #expect(result.stdout == alone.stdout)
  }

  @Test func followReadsOneDirectory() throws {
    let result = try bindiag("follow", "--journal-dir", "/a", "--journal-dir", "/b")
    #expect(result.status == 64)
    #expect(result.stdout == "")
    #expect(
      result.stderr == """
        Error: 'follow' reads one '--journal-dir'
        Usage: bindiag follow [<options>] [-n <n>] [--count <n>] [<file> ...]
          See 'bindiag help follow' for more information.

        """)
  }

  /// A run's owner is the identity of its first entry in the journal, not in the window: with
  /// `--since` after two runs' first records and just before an entry another uid forged into
  /// each, the forged entries are counted as forged and the runs' later records as records, as
  /// when the same entries are read as `journalctl -o json` (each took its run over, and the
  /// runs' eight genuine records in the window were counted as forged).
  @Test func aWindowStartingAtAForgedEntryLeavesTheRunToItsOwner() throws {
    let directory = try temporaryDirectory()
    let runs = [("e5e5e5e5e5e5e5e5", "00"), ("e6e6e6e6e6e6e6e6", "30")]
    let entries = (1...8).flatMap { seq in
      runs.map { run, second -> JournalExportFile.Fields in
        let event = fixtureEvent(
          seq: seq == 4 ? 9_000 : seq, at: "2026-11-30T04:0\(seq):\(second).000000Z", run: run)
        let sender: JournalExportFile.Fields =
          seq == 4 ? [("_UID", "65534"), ("_PID", "999")] : [("_UID", "0")]
        return JournalExportFile.fields(event, index: seq * 2 + (second == "00" ? 0 : 1))
          .filter { seq != 4 || $0.name != "_PID" } + sender
      }
    }
    try JournalExportFile.write(entries: entries, to: directory + "/remote-build-01.journal")
    let json = try runProduct(
      "/usr/bin/env", ["journalctl", "--no-pager", "--all", "-o", "json", "-D", directory])
    #expect(json.status == 0, "\(json.stderr)")
    let window = ["summary", "--format", "json", "--since", "2026-11-30T04:03:45Z"]
    let fromJournal = try bindiag(arguments: window + ["--journal-dir", directory])
    let fromJSON = try bindiag(arguments: window + ["-"], stdin: Data(json.stdout.utf8))
    for output in [fromJournal, fromJSON] {
      #expect(output.status == 0, "\(output.stderr)")
      #expect(
        output.stdout.hasPrefix(
          #"{"schema":1,"events":8,"records":8,"malformed":0,"other":0,"lost":0,"duplicates":0,"#
        ), "\(output.stdout)")
      #expect(output.stdout.contains(#""forged":2,"#), "\(output.stdout)")
    }
    #expect(fromJournal.stdout == fromJSON.stdout)
    // export streams (it cannot take a row back): the same eight rows, the two forged left out.
    let rows = ["export", "--format", "clickhouse", "--since", "2026-11-30T04:03:45Z"]
    let exported = try [
      bindiag(arguments: rows + ["--journal-dir", directory]),
      bindiag(arguments: rows + ["-"], stdin: Data(json.stdout.utf8)),
    ]
    for output in exported {
      #expect(output.status == 0)
      #expect(output.stdout.split(separator: "\n").count == 8, "\(output.stdout)")
      #expect(!output.stdout.contains(#""seq":9000"#))
      #expect(
        output.stderr
          == "warning: 2 forged journal entries left out (sent by another process than their "
          + "run's)\n")
    }
    #expect(exported[0].stdout == exported[1].stdout)
  }

  /// A collector's files overlap in time, one per host: an unprivileged user of web-02, whose
  /// file starts first, claims web-01's run after its first records, with `debug` records for
  /// its seqs. The run is web-01's (its first entry is the earliest), so its three `error`
  /// records count and `check` fails, as it does on the same entries read as `journalctl -o
  /// json`. Reading file by file gave the run to the forger: the three errors were counted
  /// forged and `check` passed.
  @Test func aClaimInAnotherHostsEarlierFileDoesNotTakeTheRunOver() throws {
    let directory = try temporaryDirectory()
    let run = "d7d7d7d7d7d7d7d7"
    let genuine = (1...3).map { seq in
      JournalExportFile.fields(
        fixtureEvent(seq: seq, at: "2026-11-30T04:1\(seq):00.000000Z", host: "web-01", run: run),
        index: seq) + [("_UID", "0"), ("_BOOT_ID", "01010101010101010101010101010101")]
    }
    // web-02's file starts at 04:00 with a run of its own (a `debug` record, below the gate).
    let own = JournalExportFile.fields(
      fixtureEvent(
        seq: 1, level: .debug, at: "2026-11-30T04:00:00.000000Z", host: "web-02",
        run: "d8d8d8d8d8d8d8d8"), index: 0)
    let claims = (1...3).map { seq in
      JournalExportFile.fields(
        fixtureEvent(
          seq: seq, level: .debug, at: "2026-11-30T04:2\(seq):00.000000Z", host: "web-02",
          run: run), index: seq
      ).filter { $0.name != "_PID" } + [("_UID", "65534"), ("_PID", "999")]
    }
    let boot = ("_BOOT_ID", "02020202020202020202020202020202")
    try JournalExportFile.write(entries: genuine, to: directory + "/remote-web-01.journal")
    try JournalExportFile.write(
      entries: ([own] + claims).map { $0.filter { $0.name != "_BOOT_ID" } + [boot] },
      to: directory + "/remote-web-02.journal")
    let json = try runProduct(
      "/usr/bin/env", ["journalctl", "--no-pager", "--all", "-o", "json", "-D", directory])
    #expect(json.status == 0, "\(json.stderr)")
    let fromJournal = try bindiag(arguments: [
      "summary", "--format", "json", "--journal-dir", directory,
    ])
    let fromJSON = try bindiag(
      arguments: ["summary", "--format", "json", "-"], stdin: Data(json.stdout.utf8))
    for output in [fromJournal, fromJSON] {
      #expect(output.status == 0, "\(output.stderr)")
      #expect(
        output.stdout.hasPrefix(
          #"{"schema":1,"events":4,"records":4,"malformed":0,"other":0,"lost":0,"duplicates":0,"#
        ), "\(output.stdout)")
      #expect(output.stdout.contains(#""forged":3,"#), "\(output.stdout)")
    }
    #expect(fromJournal.stdout == fromJSON.stdout)
    let gate = try bindiag(arguments: ["check", "--format", "json", "--journal-dir", directory])
    #expect(gate.status == 3, "\(gate.stdout)")
    #expect(gate.stderr == "check failed: 3 events (--max-events 0)\n")
  }

  /// `follow --kind` from the journal's head reads only that kind's entries, so a run's first
  /// entry read is not its first when it began with another kind: `nobody` claims the run with
  /// the kind asked for, before the run's own record of that kind. The claim is skipped as
  /// forged and the run's record shown, as from `journalctl -o json` on standard input (the
  /// claim was shown as the run's record, and the run's own skipped as forged).
  @Test func followWithAKindFromTheHeadLooksUpTheOwner() throws {
    let directory = try temporaryDirectory()
    let run = "d9d9d9d9d9d9d9d9"
    let events = [
      fixtureEvent(seq: 1, at: "2026-11-30T04:01:00.000000Z", run: run),
      fixtureEvent(seq: 4, kind: .writeNotApplied, at: "2026-11-30T04:02:00.000000Z", run: run),
      fixtureEvent(seq: 5, kind: .writeNotApplied, at: "2026-11-30T04:03:00.000000Z", run: run),
    ]
    let entries = events.enumerated().map { index, event -> JournalExportFile.Fields in
      let fields = JournalExportFile.fields(event, index: index)
      return index == 1
        ? fields.filter { $0.name != "_PID" } + [("_UID", "65534"), ("_PID", "999")]
        : fields + [("_UID", "0")]
    }
    try JournalExportFile.write(entries: entries, to: directory + "/remote-build-01.journal")
    let json = try runProduct(
      "/usr/bin/env", ["journalctl", "--no-pager", "--all", "-o", "json", "-D", directory])
    #expect(json.status == 0, "\(json.stderr)")
    let arguments = [
      "follow", "--format", "json", "-n", "all", "--count", "1", "--kind", "write-not-applied",
    ]
    let fromJournal = try bindiagFollow(arguments + ["--journal-dir", directory])
    let fromPipe = try bindiagFollow(arguments + ["-"], stdin: Data(json.stdout.utf8))
    let expected = String(decoding: JSONLinesEncoder().encode(events[2]), as: UTF8.self)
    let warning =
      "skipped a forged entry: uid 65534 pid 999 claims run \(run) (seq 4) of uid 0 pid 4242\n"
    #expect(fromPipe.status == 0)
    #expect(fromPipe.stdout == expected)
    #expect(fromPipe.stderr.hasPrefix("warning: <stdin>: " + warning), "\(fromPipe.stderr)")
    #expect(fromJournal.status == 0)
    #expect(fromJournal.stdout == expected)
    // journald is asked for the kind alone: the other kinds' seqs are not read, and no gap named.
    #expect(fromJournal.stderr == "warning: journal: " + warning)
  }

  /// `bindiag` with the arguments, ended after 60 s at most (`follow` waits for more).
  private func bindiagFollow(_ arguments: [String], stdin: Data? = nil) throws -> ProcessOutput {
    try runProduct(
      "/usr/bin/env",
      ["timeout", "60", productsDirectory().appendingPathComponent("bindiag").path] + arguments,
      environment: bindiagEnvironment, stdin: stdin)
  }

  /// `journalctl -o json` without `--all` writes a field of 4 096 bytes or more as `null`: a
  /// record whose label was that long (its MESSAGE, which names the label, too) is malformed,
  /// named with the way out, instead of a record without its label (which changes its site's
  /// identity for baselines); with `--all` it is read whole.
  @Test func journalctlsNullForALongFieldIsMalformedAndSaysAll() throws {
    let directory = try temporaryDirectory()
    var event = fixtureEvent(seq: 1, run: "f6f6f6f6f6f6f6f6")
    event.label = String(repeating: "l", count: 5_000)
    try JournalExportFile.write([event], to: directory + "/remote-build-01.journal")
    for all in [false, true] {
      let exported = try runProduct(
        "/usr/bin/env",
        ["journalctl", "--no-pager", "-o", "json", "-D", directory] + (all ? ["--all"] : []))
      #expect(exported.status == 0, "\(exported.stderr)")
      let output = try bindiag(
        arguments: ["summary", "--format", "json", "--group-by", "label", "-"],
        stdin: Data(exported.stdout.utf8))
      #expect(output.status == 0)
      if all {
        #expect(output.stderr == "")
        #expect(output.stdout.contains(#""key":{"label":"lllll"#), "\(output.stdout)")
      } else {
        #expect(
          output.stderr
            == "warning: <stdin>:1: malformed: BINDING_LABEL, MESSAGE are null (journalctl "
            + "writes a field of 4096 bytes or more as null: run journalctl with --all)\n")
        #expect(output.stdout.hasPrefix(#"{"schema":1,"events":0,"records":0,"malformed":1,"#))
      }
    }
  }
}
