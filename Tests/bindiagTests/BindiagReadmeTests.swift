import Foundation
import TestSupport
import Testing

/// The README shows what the tool really prints: its table is the one a terminal shows for the
/// committed sample, and its screenshot is the one ``BindiagHTMLReportTests`` takes.
@Suite struct BindiagReadmeTests {
  static let readme = TriageDay.snapshots.deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("README.md")

  @Test func theSampleIsWhatTheTestsMake() throws {
    let made = jsonLines(TriageDay.events)
    if ProcessInfo.processInfo.environment["BINDIAG_UPDATE_SNAPSHOTS"] == "1" {
      try made.write(toFile: TriageDay.path, atomically: true, encoding: .utf8)
    }
    #expect(try String(contentsOfFile: TriageDay.path, encoding: .utf8) == made)
  }

  @Test func theReadmeShowsTheTableATerminalShows() throws {
    let session = try TerminalSession(["summary", "--color=never", TriageDay.path], columns: 80)
    #expect(session.finish() == 0)
    let readme = try String(contentsOf: Self.readme, encoding: .utf8)
    let block =
      "```console\n$ bindiag summary Tests/bindiagTests/Snapshots/triage-day.jsonl\n"
      + session.text + "```\n"
    #expect(readme.contains(block), "README should show:\n\(block)")
    #expect(readme.contains("![The HTML report](Tests/bindiagTests/Snapshots/report.png)"))
  }

  /// The CI quick start's commands, run twice where `swift test` appends a record each time
  /// (a stand-in that writes to the file `BINDING_DIAGNOSTICS` names, as a jsonl sink does):
  /// the second run reads its own record only, as the ContinuousIntegration article's script,
  /// which empties the file first, does.
  @Test func theCIQuickStartStartsFromAnEmptyFile() throws {
    let readme = try String(contentsOf: Self.readme, encoding: .utf8)
    let heading = "## Quick start: `bindiag` in CI\n\n```sh\n"
    let start = try #require(readme.range(of: heading))
    let end = try #require(readme.range(of: "```\n", range: start.upperBound..<readme.endIndex))
    let commands = String(readme[start.upperBound..<end.lowerBound])
    let directory = try temporaryDirectory()
    let bin = directory + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let swift = """
      #!/bin/sh
      mkdir -p .build
      printf '%s' "$RECORD" >> "${BINDING_DIAGNOSTICS#jsonl:}"

      """
    try swift.write(toFile: bin + "/swift", atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes(
      [.posixPermissions: 0o755], ofItemAtPath: bin + "/swift")
    let path = "\(bin):\(productsDirectory().path):/usr/bin:/bin"
    var outputs: [ProcessOutput] = []
    for run in ["a000000000000001", "b000000000000002"] {
      let record = jsonLines([fixtureEvent(seq: 1, run: run)])
      outputs.append(
        try runProduct(
          "/bin/sh", ["-c", commands],
          environment: ["PATH": path, "RECORD": record, "TZ": "UTC"], directory: directory))
    }
    let file = directory + "/.build/bindings.jsonl"
    #expect(
      try String(contentsOfFile: file, encoding: .utf8)
        == jsonLines([fixtureEvent(seq: 1, run: "b000000000000002")]))
    #expect(outputs[1].stdout.contains(": 1 event in 1 record, "), "\(outputs[1].stdout)")
  }
}
