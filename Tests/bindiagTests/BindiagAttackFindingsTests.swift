import Foundation
import TestSupport
import Testing

/// Findings of an attack on `bindiag` with logs an attacker writes: each must stay fixed.
@Suite struct BindiagAttackFindingsTests {
  static let event =
    "v=1 ts=2026-11-30T04:12:33.123456Z level=error kind=mapped-bool-set-true "
    + "message_id=2b9f53b872d7905613eeb68e53797657 msg=x file=A/B.swift line=1 function=f "
    + "value_type=T value_present=true process=p pid=1 host=h run=0123456789abcdef seq=1 "
    + "suppressed=0\n"

  @Test(arguments: ["[\n", "[{\"a\":\"\n", " [ \n\n"])
  func aLoneArrayOpeningCannotHideTheEventsAfterIt(opening: String) throws {
    let result = try bindiag(
      arguments: ["check", "--format", "json"], stdin: Data((opening + Self.event).utf8))
    // The event is seen, so the gate fails as it must.
    #expect(result.status == 3, "\(result.stderr)")
    #expect(result.stdout.hasPrefix(#"{"schema":1,"events":1,"records":1,"#))
  }

  @Test func aBaselineThatNeverEndsIsRefusedNotRead() throws {
    let path = try writeFixture(jsonLines([fixtureEvent(seq: 1)]))
    let result = try bindiag("check", "--baseline", "/dev/zero", path)
    #expect(result.status == 1)
    #expect(result.stderr.hasPrefix("Error: cannot use baseline '/dev/zero': not a regular file"))
  }

  @Test func aWrittenBaselineIsANewFileOfMode0640() throws {
    let directory = try temporaryDirectory()
    let input = try writeFixture(jsonLines([fixtureEvent(seq: 1)]))
    let result = try bindiag("check", "--write-baseline", directory + "/baseline.json", input)
    #expect(result.status == 0, "\(result.stderr)")
    let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/baseline.json")
    #expect((attributes[.posixPermissions] as? Int) == 0o640)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["baseline.json"])
  }

  /// `--write-baseline` replaces a file only: renamed over, a FIFO (or `/dev/null` for a root
  /// CI runner) became a regular file and the run passed; an input of the run was overwritten.
  @Test func aBaselineIsNeverWrittenOverAFIFOOrAnInput() throws {
    let directory = try temporaryDirectory()
    let input = try writeFixture(jsonLines([fixtureEvent(seq: 1)]))
    let original = try String(contentsOfFile: input, encoding: .utf8)
    let fifo = directory + "/baseline.fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    let onFIFO = try bindiag("check", "--write-baseline", fifo, input)
    #expect(onFIFO.status == 1)
    #expect(onFIFO.stderr == "Error: cannot write baseline '\(fifo)': not a regular file\n")
    var status = stat()
    #expect(lstat(fifo, &status) == 0)
    #expect(status.st_mode & S_IFMT == S_IFIFO, "still a FIFO")
    let onInput = try bindiag("check", "--write-baseline", input, input)
    #expect(onInput.status == 1)
    #expect(
      onInput.stderr == "Error: cannot write baseline '\(input)': it is an input of this run\n")
    #expect(try String(contentsOfFile: input, encoding: .utf8) == original)
    // A symlink to the FIFO (root's `/dev/stdout` is one to a pipe), and the input given as
    // standard input.
    let link = directory + "/baseline.link"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: fifo)
    let onLink = try bindiag("check", "--write-baseline", link, input)
    #expect(onLink.status == 1)
    #expect(onLink.stderr == "Error: cannot write baseline '\(link)': not a regular file\n")
    let onStandardInput = try runProduct(
      "/bin/sh",
      [
        "-c", #""$0" check --write-baseline "$1" - < "$1""#,
        productsDirectory().appendingPathComponent("bindiag").path, input,
      ], environment: bindiagEnvironment)
    #expect(onStandardInput.status == 1)
    #expect(
      onStandardInput.stderr
        == "Error: cannot write baseline '\(input)': it is an input of this run\n")
    #expect(try String(contentsOfFile: input, encoding: .utf8) == original)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        == ["baseline.fifo", "baseline.link"])
    #expect(lstat(link, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK, "still a link")
  }

  @Test func markdownRendersNoHTMLFromTheInput() throws {
    let path = try writeFixture(
      jsonLines([fixtureEvent(seq: 1, process: "<img src=https://x.example/p.gif><details>")]))
    let result = try bindiag("summary", "--format", "markdown", path)
    #expect(result.status == 0)
    #expect(result.stdout.contains("| `<img src=https://x.example/p.gif><details>` |"))
  }

  @Test func csvCarriesNoTerminalEscapes() throws {
    let path = try writeFixture(
      jsonLines([fixtureEvent(seq: 1, process: "p\u{1B}]0;owned\u{07}\u{202E}x")]))
    let result = try bindiag("summary", "--format", "csv", path)
    #expect(result.status == 0)
    #expect(!result.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
    #expect(result.stdout.contains(#",p\u001b]0;owned\u0007\u202ex,"#))
  }
}
