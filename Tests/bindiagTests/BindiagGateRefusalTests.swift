import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// Issue 33.3: a gate never passes on nothing. `check` exits 1 when a filter matched no record
/// (naming the closest value seen) or when an input it was asked to read was skipped; `summary`
/// says the same on standard error and exits 0.
@Suite struct BindiagGateRefusalTests {
  /// Records of two hosts, two processes, two runs and two files.
  static let events = [
    fixtureEvent(seq: 1, file: "App/ContentView.swift", process: "InboxApp", host: "host2"),
    fixtureEvent(
      seq: 1, file: "App/Settings.swift", process: "Mailer", host: "host10",
      run: "fedcba9876543210"),
  ]

  struct Case: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var message: String
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let cases = [
    Case(
      arguments: ["--host", "hots2"],
      message: "--host 'hots2' matched no record; hosts seen: 'host2' (closest), 'host10'"),
    Case(
      arguments: ["--process", "InboxAp"],
      message:
        "--process 'InboxAp' matched no record; processes seen: 'InboxApp' (closest), 'Mailer'"),
    Case(
      arguments: ["--run", "0123456789abcdee"],
      message:
        "--run '0123456789abcdee' matched no record; runs seen: '0123456789abcdef' (closest), "
        + "'fedcba9876543210'"),
    Case(
      arguments: ["--file", "Setings"],
      message:
        "--file 'Setings' matched no record; files seen: 'App/Settings.swift' (closest), "
        + "'App/ContentView.swift'"),
  ]

  @Test(arguments: cases)
  func aFilterMatchingNoRecordFailsCheckAndWarnsInSummary(_ test: Case) throws {
    let path = try writeFixture(jsonLines(Self.events))
    let check = try bindiag(arguments: ["check", "--max-events", "100"] + test.arguments + [path])
    // The summary is still shown (as `summary` shows it), the gate fails.
    let table = try bindiag(arguments: ["summary"] + test.arguments + [path])
    #expect(check.status == 1)
    #expect(check.stdout == table.stdout && check.stdout.contains("No misuse events found."))
    #expect(check.stderr == "Error: \(test.message)\n")
    let summary = try bindiag(
      arguments: ["summary", "--format", "json"] + test.arguments + [path])
    #expect(summary.status == 0)
    #expect(summary.stderr == "warning: \(test.message)\n")
    #expect(summary.stdout.hasPrefix(#"{"schema":1,"events":0,"records":0,"#), "\(summary.stdout)")
  }

  /// A run record's `file` names where the pipeline was set up, not a call site: a `--file`
  /// that only a run record's file holds matched no misuse record, so `check` fails as for any
  /// other typo, and the set-up file is never offered as a file seen (it passed, over nothing).
  @Test func aFileFilterIsNotMatchedByARunRecordsFile() throws {
    var end = runRecordEvent(.runEnd, seq: 2, at: "2026-11-30T04:13:00.000000Z")
    end.file = "App/AppDelegate.swift"
    end.line = 12
    end.function = "application(_:didFinishLaunchingWithOptions:)"
    let path = try writeFixture(jsonLines([fixtureEvent(seq: 1), end]))
    let message =
      "--file 'AppDelegate' matched no record; files seen: 'App/ContentView.swift' (closest)"
    let check = try bindiag("check", "--file", "AppDelegate", path)
    #expect(check.status == 1)
    #expect(check.stderr == "Error: \(message)\n")
    let summary = try bindiag("summary", "--format", "json", "--file", "AppDelegate", path)
    #expect(summary.status == 0)
    #expect(summary.stderr == "warning: \(message)\n")
    // The run is still counted as it was: ended, nothing lost.
    #expect(summary.stdout.contains(#""runs":{"ended":1,"running":0,"stale":0}"#), "\(summary.stdout)")
    let other = try bindiag("check", "--file", "Delegate", path)
    #expect(!other.stderr.contains("AppDelegate"), "\(other.stderr)")
  }

  /// A filter that matches a record passes even when the window or the level leaves no event:
  /// it matched, the time just held none.
  @Test func aFilterThatMatchedARecordOutsideTheWindowStillPasses() throws {
    let path = try writeFixture(jsonLines(Self.events))
    let check = try bindiag("check", "--host", "host2", "--since", "2026-12-01T00:00:00Z", path)
    #expect(check.status == 0, "\(check.stderr)")
    #expect(check.stderr == "check passed: 0 events at warning and above (--max-events 0), 0 lost records (--max-lost 0)\n")
  }

  /// Empty input: nothing to match, nothing seen.
  @Test func aFilterOnAnEmptyInputFailsCheck() throws {
    let check = try bindiag("check", "--host", "web1", stdin: "")
    #expect(check.status == 1)
    #expect(check.stderr == "Error: --host 'web1' matched no record; no hosts seen\n")
  }

  /// Red team: a `--since` finer than a microsecond was cut to the microsecond, taking a record
  /// from before it. It is rounded up now (a record at `.347497` is before `.3474971`); a
  /// `--since` of whole microseconds and an `--until` keep their record.
  @Test func aSinceFinerThanAMicrosecondLeavesTheRecordBeforeIt() throws {
    let path = try writeFixture(
      jsonLines([fixtureEvent(seq: 1, at: "2026-12-02T02:22:27.347497Z")]))
    let after = try bindiag("check", "--since", "2026-12-02T02:22:27.3474971Z", path)
    #expect(after.status == 0, "\(after.stderr)")
    #expect(
      after.stdout
        == "0 events in 0 records from 0 runs\n\nNo misuse events found.\n\nLost records: 0\n"
        + "Runs: 0 ended, 0 running, 0 stale\n")
    #expect(
      after.stderr
        == "check passed: 0 events at warning and above (--max-events 0), 0 lost records (--max-lost 0)\n")
    for window in [
      ["--since", "2026-12-02T02:22:27.3474970Z"], ["--until", "2026-12-02T02:22:27.3474979Z"],
    ] {
      let at = try bindiag(arguments: ["summary", "--format", "json"] + window + [path])
      #expect(at.stdout.hasPrefix(#"{"schema":1,"events":1,"records":1,"#), "\(window)")
    }
  }
}
