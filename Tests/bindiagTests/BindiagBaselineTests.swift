import BindingDiagnostics
import Foundation
import TestSupport
import Testing

@Suite struct BindiagBaselineTests {
  /// Three sites: 11 events at ContentView:42, 1 at Detail:7, 2 at Form:3, all at warning
  /// or above (what `check` counts by default).
  let recorded = [
    fixtureEvent(seq: 1, suppressed: 10),
    fixtureEvent(
      seq: 2, kind: .unwrappedReadAfterNil, level: .warning, file: "App/Detail.swift", line: 7),
    fixtureEvent(
      seq: 3, kind: .unwrappedWriteAfterNil, file: "App/Form.swift", line: 3, suppressed: 1),
  ]

  /// What `--write-baseline` writes for ``recorded``.
  let writtenText = """
    {
      "schema": 2,
      "sites": [
        {"kind": "mapped-bool-set-true", "file": "App/ContentView.swift", "function": "body", "label": "", "line": 42, "events": 11},
        {"kind": "unwrapped-read-after-nil", "file": "App/Detail.swift", "function": "body", "label": "", "line": 7, "events": 1},
        {"kind": "unwrapped-write-after-nil", "file": "App/Form.swift", "function": "body", "label": "", "line": 3, "events": 2}
      ]
    }

    """

  /// The same sites as bindiag 1.0 wrote them (schema 1): still read.
  let baselineText = """
    {
      "schema": 1,
      "sites": [
        {"kind": "mapped-bool-set-true", "file": "App/ContentView.swift", "line": 42, "events": 11},
        {"kind": "unwrapped-read-after-nil", "file": "App/Detail.swift", "line": 7, "events": 1},
        {"kind": "unwrapped-write-after-nil", "file": "App/Form.swift", "line": 3, "events": 2}
      ]
    }

    """

  func writeBaseline() throws -> String {
    try temporaryFile(baselineText, name: "bindiag-baseline.json")
  }

  @Test func writeBaselineRecordsSortedSitesAndPasses() throws {
    let events = try writeFixture(jsonLines(recorded.reversed()))
    let path = try temporaryDirectory() + "/bindiag-baseline.json"
    let result = try bindiag("check", "--format", "json", "--write-baseline", path, events)
    #expect(result.status == 0)
    #expect(result.stderr == "baseline: recorded 3 sites in \(path)\n")
    #expect(result.stdout == (try bindiag("summary", "--format", "json", events)).stdout)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == writtenText)
    // Recording again from the same events writes the same bytes.
    _ = try bindiag("check", "--write-baseline", path, events)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == writtenText)
  }

  @Test func knownSitesPass() throws {
    let baseline = try writeBaseline()
    let events = try writeFixture(jsonLines(recorded))
    let result = try bindiag("check", "--format", "json", "--baseline", baseline, events)
    #expect(result.status == 0)
    #expect(
      result.stderr
        == "check passed: 0 events at warning and above at sites not in the baseline (--max-events 0), 0 lost records (--max-lost 0)\n"
    )
  }

  /// A baseline an editor saved with a byte order mark first is read as the inputs are.
  @Test func aBaselineWithAByteOrderMarkIsRead() throws {
    let plain = try writeBaseline()
    let marked = try temporaryDirectory() + "/marked-baseline.json"
    try Data([0xEF, 0xBB, 0xBF] + Array(try String(contentsOfFile: plain, encoding: .utf8).utf8))
      .write(to: URL(fileURLWithPath: marked))
    let events = try writeFixture(jsonLines(recorded))
    let result = try bindiag("check", "--format", "json", "--baseline", marked, events)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr
        == "check passed: 0 events at warning and above at sites not in the baseline (--max-events 0), 0 lost records (--max-lost 0)\n"
    )
  }

  @Test func sitesNotSeenAreNotedAndPass() throws {
    let baseline = try writeBaseline()
    let events = try writeFixture(jsonLines([recorded[0]]))
    let result = try bindiag("check", "--format", "json", "--baseline", baseline, events)
    #expect(result.status == 0)
    #expect(
      result.stderr
        == "note: 2 sites in the baseline not seen in this run (fixed, or not exercised); "
        + "--write-baseline records the current ones\n"
        + "check passed: 0 events at warning and above at sites not in the baseline (--max-events 0), 0 lost records (--max-lost 0)\n"
    )
  }

  @Test func newSitesFailAndAreNamed() throws {
    let baseline = try writeBaseline()
    let events = try writeFixture(
      jsonLines(
        recorded + [
          fixtureEvent(seq: 4, file: "App/ContentView.swift", line: 50, suppressed: 4),
          fixtureEvent(
            seq: 5, kind: .unwrappedReadAfterNil, level: .warning, file: "App/New.swift", line: 1),
        ]))
    let result = try bindiag("check", "--format", "json", "--baseline", baseline, events)
    #expect(result.status == 3)
    #expect(
      result.stderr == """
        check failed: 2 new sites not in the baseline, 6 events (--max-events 0)
          new: mapped-bool-set-true at App/ContentView.swift:50, 5 events
          new: unwrapped-read-after-nil at App/New.swift:1, 1 event

        """)
    // --max-events counts the events at new sites only.
    let allowed = try bindiag(
      "check", "--format", "json", "--baseline", baseline, "--max-events", "6", events)
    #expect(allowed.status == 0)
    #expect(
      allowed.stderr
        == "check passed: 6 events at warning and above at sites not in the baseline (--max-events 6), 0 lost records (--max-lost 0)\n"
    )
  }

  @Test func knownSitesThatGrewTooMuchFailWithTheFactor() throws {
    let baseline = try writeBaseline()
    var events = recorded
    events[0].suppressed = 21  // 11 → 22 events: 2×, allowed by 2, not by 1.5
    events[2].suppressed = 4  // 2 → 5 events: 2.5×
    let path = try writeFixture(jsonLines(events))
    let lenient = try bindiag(
      "check", "--format", "json", "--baseline", baseline, "--baseline-max-growth", "2.5", path)
    #expect(lenient.status == 0)
    #expect(
      lenient.stderr
        == "check passed: 0 events at warning and above at sites not in the baseline (--max-events 0), 0 lost records (--max-lost 0)\n"
    )
    let result = try bindiag(
      "check", "--format", "json", "--baseline", baseline, "--baseline-max-growth", "1.5", path)
    #expect(result.status == 3)
    #expect(
      result.stderr == """
        check failed: 2 known sites grew more than 1.5× (--baseline-max-growth 1.5)
          grew: mapped-bool-set-true at App/ContentView.swift:42, from 11 to 22 events
          grew: unwrapped-write-after-nil at App/Form.swift:3, from 2 to 5 events

        """)
    let strict = try bindiag(
      "check", "--format", "json", "--baseline", baseline, "--baseline-max-growth", "2", path)
    #expect(strict.status == 3)
    #expect(
      strict.stderr == """
        check failed: 1 known site grew more than 2× (--baseline-max-growth 2)
          grew: unwrapped-write-after-nil at App/Form.swift:3, from 2 to 5 events

        """)
    // Without --baseline-max-growth, growth alone never fails.
    #expect(try bindiag("check", "--format", "json", "--baseline", baseline, path).status == 0)
  }

  @Test func newSitesAndLostRecordsAreReportedTogether() throws {
    let baseline = try writeBaseline()
    let events = try writeFixture(
      jsonLines(recorded + [fixtureEvent(seq: 9, file: "App/New.swift", line: 2)]))
    let result = try bindiag("check", "--format", "json", "--baseline", baseline, events)
    #expect(result.status == 3)
    #expect(
      result.stderr == """
        check failed: 1 new site not in the baseline, 1 event (--max-events 0), 5 lost records (--max-lost 0)
          new: mapped-bool-set-true at App/New.swift:2, 1 event

        """)
  }

  @Test func aMissingOrInvalidBaselineIsARuntimeFailure() throws {
    let events = try writeFixture(jsonLines(recorded))
    let missing = try temporaryDirectory() + "/none.json"
    let result = try bindiag("check", "--format", "json", "--baseline", missing, events)
    #expect(result.status == 1)
    #expect(result.stderr == "Error: cannot use baseline '\(missing)': No such file or directory\n")
    let invalid = try temporaryFile(#"{"schema": 1, "sites": [{"kind": "k"}]}"#, name: "b.json")
    let refused = try bindiag("check", "--format", "json", "--baseline", invalid, events)
    #expect(refused.status == 1)
    #expect(
      refused.stderr
        == "Error: cannot use baseline '\(invalid)': site 1: expected \"kind\" and \"file\" strings, "
        + "a \"line\" and a count of \"events\"\n")
  }

  @Test func unreadableInputIsNotRecorded() throws {
    let directory = try temporaryDirectory()
    let path = directory + "/bindiag-baseline.json"
    let result = try bindiag(
      "check", "--format", "json", "--write-baseline", path, directory + "/missing.jsonl")
    #expect(result.status == 1)
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func theBaselineCanBeRefreshedWhileChecking() throws {
    let old = try writeBaseline()
    let events = try writeFixture(
      jsonLines([recorded[0], fixtureEvent(seq: 2, file: "App/New.swift", line: 2)]))
    let refreshed = try temporaryDirectory() + "/new-baseline.json"
    let result = try bindiag(
      "check", "--format", "json", "--baseline", old, "--write-baseline", refreshed, events)
    #expect(result.status == 3)
    #expect(
      result.stderr == """
        baseline: recorded 2 sites in \(refreshed)
        note: 2 sites in the baseline not seen in this run (fixed, or not exercised); --write-baseline records the current ones
        check failed: 1 new site not in the baseline, 1 event (--max-events 0)
          new: mapped-bool-set-true at App/New.swift:2, 1 event

        """)
    let again = try bindiag("check", "--format", "json", "--baseline", refreshed, events)
    #expect(again.status == 0)
    #expect(
      again.stderr
        == "check passed: 0 events at warning and above at sites not in the baseline (--max-events 0), 0 lost records (--max-lost 0)\n"
    )
  }
}
