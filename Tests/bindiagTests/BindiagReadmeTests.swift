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
}
