import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// `check`'s exit code and its JUnit report read one verdict: on every kind of input `check`
/// gates on, the report has a failing case exactly when `check` exits 3.
@Suite struct BindiagCheckVerdictTests {
  /// One input: what to write, the options, and the exit code `check` must give.
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var events: [MisuseEvent]
    var options: [String]
    /// Events a baseline is recorded from first, for `--baseline`.
    var baselineEvents: [MisuseEvent]?
    var status: Int32
    var testDescription: String { name }
  }

  static let warning = fixtureEvent(seq: 1, kind: .unwrappedWriteAfterNil)
  static let info = fixtureEvent(seq: 1, kind: .unwrappedReadAfterNil)
  static let other = fixtureEvent(
    seq: 2, kind: .unwrappedWriteAfterNil, file: "App/Other.swift", line: 7)

  static let cases: [Case] = [
    Case(name: "pass", events: [warning], options: ["--max-events", "1"], status: 0),
    Case(name: "below the level", events: [info], options: [], status: 0),
    Case(name: "fail by level", events: [info], options: ["--level", "info"], status: 3),
    Case(name: "fail by count", events: [warning, other], options: [], status: 3),
    Case(
      name: "count within --max-events", events: [warning, other],
      options: ["--max-events", "2"], status: 0),
    Case(
      name: "lost records", events: [warning, fixtureEvent(seq: 3, kind: .unwrappedWriteAfterNil)],
      options: ["--max-events", "10"], status: 3),
    Case(
      name: "lost records allowed",
      events: [warning, fixtureEvent(seq: 3, kind: .unwrappedWriteAfterNil)],
      options: ["--max-events", "10", "--max-lost", "1"], status: 0),
    Case(
      name: "stale run", events: BindiagRunRecordTests.events,
      options: ["--max-events", "10", "--max-lost", "3", "--max-stale", "0"], status: 3),
    Case(
      name: "stale run allowed", events: BindiagRunRecordTests.events,
      options: ["--max-events", "10", "--max-lost", "3", "--max-stale", "1"], status: 0),
    Case(
      name: "baseline knows every site", events: [warning], options: [],
      baselineEvents: [warning], status: 0),
    Case(
      name: "fail by baseline", events: [warning, other], options: [], baselineEvents: [warning],
      status: 3),
    Case(
      name: "fail by growth",
      events: [fixtureEvent(seq: 1, kind: .unwrappedWriteAfterNil, suppressed: 9)],
      options: ["--baseline-max-growth", "2"], baselineEvents: [warning], status: 3),
  ]

  @Test(arguments: cases)
  func theJUnitReportFailsExactlyWhenCheckDoes(_ input: Case) throws {
    let directory = try temporaryDirectory()
    let path = try writeFixture(jsonLines(input.events))
    var options = input.options
    if let recorded = input.baselineEvents {
      let baseline = directory + "/baseline-\(input.name.split(separator: " ").joined()).json"
      let old = try writeFixture(jsonLines(recorded), name: "old.jsonl")
      #expect(try bindiag("check", "--write-baseline", baseline, old).status == 0)
      options += ["--baseline", baseline]
    }
    let result = try bindiag(arguments: ["check", "--format", "junit"] + options + [path])
    #expect(result.status == input.status, "\(result.stderr)")
    let failures = try #require(Self.failures(result.stdout), "\(result.stdout)")
    #expect(
      (failures > 0) == (result.status == 3),
      "check exited \(result.status), the JUnit report has \(failures) failures")
  }

  /// `--write-baseline` alone applies no threshold: nothing fails, whatever the input holds.
  @Test func recordingABaselineFailsNothing() throws {
    let baseline = try temporaryDirectory() + "/recorded.json"
    let path = try writeFixture(
      jsonLines([Self.warning, fixtureEvent(seq: 3, kind: .unwrappedWriteAfterNil)]))
    let result = try bindiag("check", "--write-baseline", baseline, "--format", "junit", path)
    #expect(result.status == 0)
    #expect(Self.failures(result.stdout) == 0)
  }

  /// The `failures` count of the report's `<testsuites>` element.
  static func failures(_ report: String) -> Int? {
    guard let start = report.range(of: "<testsuites name=\"bindiag\" ") else { return nil }
    let rest = report[start.upperBound...]
    guard let count = rest.range(of: "failures=\"") else { return nil }
    return Int(rest[count.upperBound...].prefix { $0.isNumber })
  }
}
