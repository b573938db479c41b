import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// A journal file as a server holds it: a few misuse entries among many ordinary entries of
/// other services, and entries that look like ours but are not version 1 of the contract.
/// `bindiag` must be handed only the `BINDING_SCHEMA=1` entries by libsystemd's index: the
/// malformed entry is reported as the 4th entry read, where it is the 187th of the file, and the
/// look-alikes count nowhere (read, they would be events, malformed, or fill the lost seq).
@Suite(
  .enabled(
    if: JournalExportFile.remote != nil,
    "systemd-journal-remote is not installed (apt-get install systemd-journal-remote)"))
struct BindiagJournalMatchTests {
  static let mail = "a000000000000001"
  static let notes = "b000000000000002"

  /// `count` ordinary entries of nginx, sshd and systemd (with a `MESSAGE_ID` and `CODE_FILE`
  /// of its own), one a second from `start` (µs since the epoch).
  static func unrelated(_ count: Int, from start: Int64) -> [JournalExportFile.Fields] {
    (0..<count).map { index in
      let common: JournalExportFile.Fields = [
        ("__REALTIME_TIMESTAMP", String(start + Int64(index) * 1_000_000)),
        ("__MONOTONIC_TIMESTAMP", String(index + 1)),
        ("_BOOT_ID", "0123456789abcdef0123456789abcdef"), ("_HOSTNAME", "app-01"),
      ]
      switch index % 3 {
      case 0:
        return common + [
          ("_TRANSPORT", "stdout"), ("_PID", "812"), ("_SYSTEMD_UNIT", "nginx.service"),
          ("SYSLOG_IDENTIFIER", "nginx"), ("PRIORITY", "6"),
          ("MESSAGE", "10.0.0.\(index % 250) - - \"GET /items/\(index) HTTP/1.1\" 200 512"),
        ]
      case 1:
        return common + [
          ("_TRANSPORT", "syslog"), ("_PID", "\(3000 + index)"), ("_SYSTEMD_UNIT", "ssh.service"),
          ("SYSLOG_IDENTIFIER", "sshd"), ("PRIORITY", "6"), ("SYSLOG_FACILITY", "4"),
          ("MESSAGE", "Accepted publickey for deploy from 10.0.1.\(index % 250) port \(index)"),
        ]
      default:
        return common + [
          ("_TRANSPORT", "journal"), ("_PID", "1"), ("SYSLOG_IDENTIFIER", "systemd"),
          ("PRIORITY", "6"), ("MESSAGE_ID", "39f53479d3a045ac8e11786248231fbf"),
          ("CODE_FILE", "src/core/job.c"), ("CODE_LINE", "581"),
          ("CODE_FUNC", "job_emit_done_message"), ("UNIT", "session-\(index).scope"),
          ("MESSAGE", "Started session-\(index).scope - Session \(index) of User deploy."),
        ]
      }
    }
  }

  /// The entry of `event` with `change` applied to its fields.
  static func entry(
    _ event: MisuseEvent, _ change: (inout JournalExportFile.Fields) -> Void = { _ in }
  ) -> JournalExportFile.Fields {
    var fields = JournalExportFile.fields(event, index: 1000 + event.seq)
    change(&fields)
    return fields
  }

  /// `DIR/mixed.journal`: 300 ordinary entries a second apart from 03:55:00, and between them
  /// in time order Mail's seq 1, 2 (3 events), 4 and a malformed one (`BINDING_SEQ=x`),
  /// Notes's seq 1 and 2, and Mail's seq 3 without `BINDING_SCHEMA` and seq 5 with
  /// `BINDING_SCHEMA=2`.
  static func directory() throws -> String {
    let directory = try temporaryDirectory()
    func event(_ seq: Int, _ time: String, run: String = mail) -> MisuseEvent {
      fixtureEvent(
        seq: seq, at: "2026-11-30T\(time).000000Z", process: run == mail ? "Mail" : "Notes",
        host: "app-01", run: run)
    }
    let start = Timestamp(rfc3339: "2026-11-30T03:55:00.000000Z")!.microsecondsSinceEpoch
    var ours = [
      entry(event(1, "03:56:00")),
      entry(event(1, "03:56:30", run: notes)),
      entry(
        fixtureEvent(
          seq: 2, kind: .unwrappedWriteAfterNil, file: "App/Detail.swift", line: 7,
          at: "2026-11-30T03:57:00.000000Z", suppressed: 2, process: "Mail", host: "app-01",
          run: mail)),
      entry(event(3, "03:57:30")) { $0.removeAll { $0.name == "BINDING_SCHEMA" } },
      entry(event(5, "03:57:40")) { fields in
        fields = fields.map { $0.name == "BINDING_SCHEMA" ? ($0.name, "2") : $0 }
      },
      entry(event(6, "03:58:00")) { fields in
        fields = fields.map { $0.name == "BINDING_SEQ" ? ($0.name, "x") : $0 }
      },
      entry(event(2, "03:58:30", run: notes)),
      entry(event(4, "03:59:00")),
    ]
    var entries: [JournalExportFile.Fields] = []
    // Each entry of ours after the ordinary entries written before it.
    for other in unrelated(300, from: start) {
      while let next = ours.first, realtime(next) < realtime(other) {
        entries.append(next)
        ours.removeFirst()
      }
      entries.append(other)
    }
    try JournalExportFile.write(entries: entries + ours, to: directory + "/mixed.journal")
    return directory
  }

  static func realtime(_ fields: JournalExportFile.Fields) -> Int64 {
    Int64(fields.first { $0.name == "__REALTIME_TIMESTAMP" }!.value)!
  }

  /// Arguments after `summary --journal-dir DIR --format json`, the JSON expected, and the
  /// number the malformed entry is reported under (`nil`: not read).
  static let cases: [([String], String, Int?)] = [
    (
      [],
      #"{"schema":1,"events":7,"records":5,"malformed":1,"other":0,"lost":1,"duplicates":0,"runs":{"ended":0,"running":2,"stale":0},"run_dropped":0,"first":"2026-11-30T03:56:00.000000Z","last":"2026-11-30T03:59:00.000000Z","group_by":["kind","file","line"],"groups":[{"key":{"kind":"mapped-bool-set-true","file":"App/ContentView.swift","line":42},"events":4,"records":4,"first":"2026-11-30T03:56:00.000000Z","last":"2026-11-30T03:59:00.000000Z","processes":["Mail","Notes"],"hosts":["app-01"],"value_types":["Swift.Optional<Swift.String>"],"labels":[],"levels":{"error":4},"histogram":[1,1,0,0,0,0,1,1]},{"key":{"kind":"unwrapped-write-after-nil","file":"App/Detail.swift","line":7},"events":3,"records":1,"first":"2026-11-30T03:57:00.000000Z","last":"2026-11-30T03:57:00.000000Z","processes":["Mail"],"hosts":["app-01"],"value_types":["Swift.Optional<Swift.String>"],"labels":[],"levels":{"warning":3},"histogram":[0,0,3,0,0,0,0,0]}],"lost_runs":[{"run":"a000000000000001","process":"Mail","host":"app-01","lost":1,"head":0,"tail":0,"dropped":0}],"stale_runs":[],"run_fields":["host"],"run_groups":[{"key":{"host":"app-01"},"lost":1,"dropped":0,"runs":{"ended":0,"running":2,"stale":0},"last":"2026-11-30T03:59:00.000000Z"}]}"#,
      4
    ),
    // `--run` selects after reading, as from a file (the run is judged stale against any run's
    // newest record): Mail's malformed entry is read and reported, as it would be in a file.
    (
      ["--run", notes],
      #"{"schema":1,"events":2,"records":2,"malformed":1,"other":0,"lost":0,"duplicates":0,"runs":{"ended":0,"running":1,"stale":0},"run_dropped":0,"first":"2026-11-30T03:56:30.000000Z","last":"2026-11-30T03:58:30.000000Z","group_by":["kind","file","line"],"groups":[{"key":{"kind":"mapped-bool-set-true","file":"App/ContentView.swift","line":42},"events":2,"records":2,"first":"2026-11-30T03:56:30.000000Z","last":"2026-11-30T03:58:30.000000Z","processes":["Notes"],"hosts":["app-01"],"value_types":["Swift.Optional<Swift.String>"],"labels":[],"levels":{"error":2},"histogram":[1,0,0,0,0,0,0,1]}],"lost_runs":[],"stale_runs":[],"run_fields":["host"],"run_groups":[{"key":{"host":"app-01"},"lost":0,"dropped":0,"runs":{"ended":0,"running":1,"stale":0},"last":"2026-11-30T03:58:30.000000Z"}]}"#,
      4
    ),
    // Kinds are filtered after reading, so Mail's lost seq 3 is still found.
    (
      ["--kind", "unwrapped-write-after-nil"],
      #"{"schema":1,"events":3,"records":1,"malformed":1,"other":0,"lost":1,"duplicates":0,"runs":{"ended":0,"running":2,"stale":0},"run_dropped":0,"first":"2026-11-30T03:57:00.000000Z","last":"2026-11-30T03:57:00.000000Z","group_by":["kind","file","line"],"groups":[{"key":{"kind":"unwrapped-write-after-nil","file":"App/Detail.swift","line":7},"events":3,"records":1,"first":"2026-11-30T03:57:00.000000Z","last":"2026-11-30T03:57:00.000000Z","processes":["Mail"],"hosts":["app-01"],"value_types":["Swift.Optional<Swift.String>"],"labels":[],"levels":{"warning":3},"histogram":[3,0,0,0,0,0,0,0]}],"lost_runs":[{"run":"a000000000000001","process":"Mail","host":"app-01","lost":1,"head":0,"tail":0,"dropped":0}],"stale_runs":[],"run_fields":["host"],"run_groups":[{"key":{"host":"app-01"},"lost":1,"dropped":0,"runs":{"ended":0,"running":2,"stale":0},"last":"2026-11-30T03:59:00.000000Z"}]}"#,
      4
    ),
    // From the malformed entry on (the first read). Mail's seq 3 is missing between seq 2
    // (03:57:00) and seq 4 (03:59:00); the window's first record of that run is seq 4, so the gap
    // lies before the window and is not blamed on it (a window counts only the losses it holds).
    (
      ["--host", "app-01", "--since", "2026-11-30T03:58:00Z"],
      #"{"schema":1,"events":2,"records":2,"malformed":1,"other":0,"lost":0,"duplicates":0,"runs":{"ended":0,"running":2,"stale":0},"run_dropped":0,"first":"2026-11-30T03:58:30.000000Z","last":"2026-11-30T03:59:00.000000Z","group_by":["kind","file","line"],"groups":[{"key":{"kind":"mapped-bool-set-true","file":"App/ContentView.swift","line":42},"events":2,"records":2,"first":"2026-11-30T03:58:30.000000Z","last":"2026-11-30T03:59:00.000000Z","processes":["Mail","Notes"],"hosts":["app-01"],"value_types":["Swift.Optional<Swift.String>"],"labels":[],"levels":{"error":2},"histogram":[1,0,0,0,0,0,0,1]}],"lost_runs":[],"stale_runs":[],"run_fields":["host"],"run_groups":[{"key":{"host":"app-01"},"lost":0,"dropped":0,"runs":{"ended":0,"running":2,"stale":0},"last":"2026-11-30T03:59:00.000000Z"}]}"#,
      1
    ),
  ]

  @Test(arguments: cases)
  func onlyVersionOneEntriesAreRead(arguments: [String], expected: String, malformed: Int?)
    throws
  {
    let directory = try BindiagJournalMatchTests.directory()
    let result = try bindiag(
      arguments: ["summary", "--journal-dir", directory, "--format", "json"] + arguments)
    #expect(result.status == 0)
    #expect(result.stdout == expected + "\n")
    let warning = malformed.map {
      "warning: \(directory)/mixed.journal:\($0): malformed: BINDING_SEQ must be an integer\n"
    }
    #expect(result.stderr == warning ?? "")
  }
}
