import BindingDiagnostics
import Foundation
import TestSupport
import Testing

@Suite struct BindiagGitHubAnnotationTests {
  @Test func hostileFileIDsAndLabelsAreEscaped() throws {
    var odd = fixtureEvent(seq: 1, file: "App/Odd, name: 100%.swift", line: 12, suppressed: 2)
    odd.label = "two\nlines\r\nand ::error::"
    let path = try writeFixture(jsonLines([odd]))
    let result = try bindiag("summary", "--format", "github", path)
    #expect(result.status == 0)
    #expect(
      result.stderr
        == "warning: 1 #fileID is not a file here (such as App/Odd, name: 100%.swift); --source-root DIR finds their files\n"
    )
    #expect(
      result.stdout
        == "::error file=App/Odd%2C name%3A 100%25.swift,line=12,title=mapped-bool-set-true (bindiag)"
        + "::A Binding<Bool> mapped from an optional was set to true: 3 events in 1 record, "
        + "first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC, "
        + "label \"two%0Alines%0D%0Aand ::error::\".\n")
    // One physical line per annotation: nothing in the data can start a new workflow command.
    #expect(result.stdout.split(separator: "\n").count == 1)
  }

  @Test func noEventsNoAnnotations() throws {
    let result = try bindiag("summary", "--format", "github", stdin: "plain text\n")
    #expect(result.status == 0)
    #expect(result.stdout == "")
    #expect(result.stderr == "")
  }

  @Test(arguments: [
    (
      ["summary", "--source-root", "."],
      "Error: '--source-root' needs '--format sarif', 'github', 'gcc' or 'junit', or a baseline"
    ),
    (
      ["summary", "--format", "sarif", "--group-by", "kind"],
      "Error: '--format sarif' needs '--group-by site'"
    ),
    (
      ["check", "--format", "github", "--group-by", "kind,host"],
      "Error: '--format github' needs '--group-by site'"
    ),
    (
      ["summary", "--format", "github", "--source-root", "/nonexistent/bindiag-root"],
      "Error: The value '/nonexistent/bindiag-root' is invalid for '--source-root': not a directory"
    ),
    (
      ["follow", "--format", "github"],
      "Error: '--format github' is for summary and check (follow writes table or json)"
    ),
    (
      ["follow", "--source-root", "."],
      "Error: Unknown option '--source-root' (an option of summary and check)"
    ),
    (
      ["summary", "--baseline", "b.json"], "Error: Unknown option '--baseline' (an option of check)"
    ),
    (
      ["summary", "--write-baseline", "b.json"],
      "Error: Unknown option '--write-baseline' (an option of check)"
    ),
    (["check", "--baseline-max-growth", "2"], "Error: '--baseline-max-growth' needs '--baseline'"),
    (
      ["check", "--baseline", "b.json", "--baseline-max-growth", "0.5"],
      "Error: The value '0.5' is invalid for '--baseline-max-growth': expected a number of at least 1, such as 2 or 1.5"
    ),
    (
      ["check", "--write-baseline", "b.json", "--group-by", "kind"],
      "Error: '--write-baseline' needs '--group-by site'"
    ),
    (["check", "--baseline"], "Error: Missing value for '--baseline'"),
  ])
  func ciUsageErrorsExit64(arguments: [String], message: String) throws {
    let result = try bindiag(arguments: arguments)
    #expect(result.status == 64)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix(message + "\nUsage: bindiag "))
  }
}
