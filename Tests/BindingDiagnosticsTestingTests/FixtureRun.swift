import Foundation
import TestSupport

/// The fixtures of `BindingDiagnosticsTestingFixtures`, run in a child process of this very test
/// binary, and where their marked lines are.
enum FixtureRun {
  /// The fixtures' source directory.
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("BindingDiagnosticsTestingFixtures").path

  /// Every Swift Testing fixture, with the process's default configuration.
  static let swiftTesting = Result {
    try run(["--testing-library", "swift-testing", "--filter", "TraitFixtures"])
  }

  /// Every Swift Testing fixture, with a JSON Lines sink configured (rate limit off): its path,
  /// and the run.
  static let withFileSink = Result {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("fixtures-\(ProcessInfo.processInfo.processIdentifier).jsonl").path
    try? FileManager.default.removeItem(atPath: path)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let output = try run(
      ["--testing-library", "swift-testing", "--filter", "TraitFixtures"],
      environment: [
        "BINDING_DIAGNOSTICS": "jsonl:\(path)", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
      ])
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return (records: misuseRecords(text), output: output)
  }

  /// The rate-limit fixtures, with a JSON Lines sink limited to 2 records per site a minute: the
  /// records it holds once the process has ended.
  static let foldedRecords = Result {
    try records(
      of: ["--testing-library", "swift-testing", "--filter", "FoldingFixtures"],
      rateLimit: "2/60")
  }

  /// The fixtures without the trait, under `BINDING_DIAGNOSTICS_POLICY=fail-tests`.
  static let failTests = Result {
    try run(
      ["--testing-library", "swift-testing", "--filter", "TraitFixtures/.*ithoutTheTrait"],
      environment: ["BINDING_DIAGNOSTICS_POLICY": "fail-tests"])
  }

  /// The fixtures without the trait, under `BINDING_DIAGNOSTICS_POLICY=report`.
  static let reportOnly = Result {
    try run(
      ["--testing-library", "swift-testing", "--filter", "TraitFixtures/.*ithoutTheTrait"],
      environment: ["BINDING_DIAGNOSTICS_POLICY": "report"])
  }

  /// Every XCTest fixture.
  static let xcTest = Result {
    try run(["--testing-library", "xctest", "BindingDiagnosticsTestingFixtures.XCTestFixtures"])
  }

  /// The XCTest fixtures without assertions, with the process's default configuration.
  static let xcTestDefault = Result {
    try run([
      "--testing-library", "xctest", "BindingDiagnosticsTestingFixtures.XCTestDefaultFixtures",
    ])
  }

  /// The XCTest fixture whose label holds a line of XCTest's output.
  static let xcTestHostileLabel = Result {
    try run([
      "--testing-library", "xctest", "BindingDiagnosticsTestingFixtures.XCTestHostileLabelFixtures",
    ])
  }

  /// The XCTest fixtures without assertions, with a JSON Lines sink configured (rate limit off):
  /// the records it holds.
  static let xcTestDefaultRecords = Result {
    try records(
      of: [
        "--testing-library", "xctest", "BindingDiagnosticsTestingFixtures.XCTestDefaultFixtures",
      ])
  }

  /// The XCTest fixtures with assertions, with a JSON Lines sink configured (rate limit off): the
  /// records it holds.
  static let xcTestRecords = Result {
    try records(
      of: ["--testing-library", "xctest", "BindingDiagnosticsTestingFixtures.XCTestFixtures"])
  }

  /// The XCTest fixtures without assertions, under `BINDING_DIAGNOSTICS_POLICY=report`.
  static let xcTestDefaultReportOnly = Result {
    try run(
      ["--testing-library", "xctest", "BindingDiagnosticsTestingFixtures.XCTestDefaultFixtures"],
      environment: ["BINDING_DIAGNOSTICS_POLICY": "report"])
  }

  /// The blame fixtures (Swift Testing), with the standard-error sink and a JSON Lines sink (rate
  /// limit off): the records it holds, and the run.
  static let blame = Result {
    try recordsAndOutput(of: ["--testing-library", "swift-testing", "--filter", "BlameFixtures"])
  }

  /// The XCTest blame fixtures, with the standard-error sink and a JSON Lines sink (rate limit
  /// off): the records it holds, and the run.
  static let xcTestBlame = Result {
    try recordsAndOutput(
      of: ["--testing-library", "xctest", "BindingDiagnosticsTestingFixtures.XCTestBlameFixtures"])
  }

  /// Runs the fixtures `arguments` select with standard error and a JSON Lines file as sinks,
  /// the rate limit off: the file's records, one per line, and the run.
  private static func recordsAndOutput(of arguments: [String]) throws
    -> (records: String, output: ProcessOutput)
  {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("fixture-blame-\(UUID().uuidString).jsonl").path
    try? FileManager.default.removeItem(atPath: path)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let output = try run(
      arguments,
      environment: [
        "BINDING_DIAGNOSTICS": "stderr,jsonl:\(path)", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
      ])
    return (misuseRecords((try? String(contentsOfFile: path, encoding: .utf8)) ?? ""), output)
  }

  /// The line carrying `// fixture-mark: name` in one of the fixture files.
  static func line(of name: String, in file: String) throws -> Int {
    let text = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
    let lines = text.components(separatedBy: "\n")
    guard let index = lines.firstIndex(where: { $0.hasSuffix("// fixture-mark: \(name)") }) else {
      throw MissingMark(name: name, file: file)
    }
    return index + 1
  }

  /// A mark the fixtures do not have.
  struct MissingMark: Error {
    let name: String
    let file: String
  }

  /// Runs the fixtures `arguments` select with a JSON Lines sink under `rateLimit`: the records
  /// it holds, one per line.
  private static func records(of arguments: [String], rateLimit: String = "off") throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("fixture-records-\(UUID().uuidString).jsonl").path
    try? FileManager.default.removeItem(atPath: path)
    defer { try? FileManager.default.removeItem(atPath: path) }
    _ = try run(
      arguments,
      environment: [
        "BINDING_DIAGNOSTICS": "jsonl:\(path)", "BINDING_DIAGNOSTICS_RATE_LIMIT": rateLimit,
      ])
    return misuseRecords((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
  }

  /// The misuse records of a JSON Lines file's text: the run records every sink also writes
  /// (`run-heartbeat`, `run-end`, tested in `RunRecordWriterTests`) are not what these tests
  /// count.
  static func misuseRecords(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).filter {
      !$0.contains(#""kind":"run-end","#) && !$0.contains(#""kind":"run-heartbeat","#)
    }.joined(separator: "\n")
  }

  private static func run(_ arguments: [String], environment: [String: String] = [:]) throws
    -> ProcessOutput
  {
    let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    var environment = environment
    environment["BINDING_DIAGNOSTICS_TESTING_FIXTURES"] = "1"
    environment["NO_COLOR"] = "1"
    return try runProduct(binary, arguments, environment: environment)
  }
}

extension ProcessOutput {
  /// Standard output and standard error, as lines, without terminal colours.
  var lines: [String] {
    (stdout + stderr).replacing(/\u{1B}\[[0-9;]*m/, with: "").components(separatedBy: "\n")
  }
}

extension ProcessOutput {
  /// The issues one fixture test recorded: for each, its symbol and location, then what the
  /// runner printed for it (a comment's `↳` line, or the text after the location).
  func issues(of test: String) -> [String] {
    var found: [String] = []
    let lines = self.lines
    for (index, line) in lines.enumerated() {
      for (symbol, verb) in [("✘", "an issue"), ("⚠︎", "a warning")] {
        let prefix = "\(symbol) Test \(test) recorded \(verb) at "
        guard line.hasPrefix(prefix), let colon = line.firstRange(of: ": ") else { continue }
        let location = line[line.index(line.startIndex, offsetBy: prefix.count)..<colon.lowerBound]
        let said = line[colon.upperBound...]
        if said == "Issue recorded", index + 1 < lines.count {
          found += ["\(symbol) at \(location)", lines[index + 1]]
        } else {
          found += ["\(symbol) at \(location)", String(said)]
        }
      }
    }
    return found
  }
}
