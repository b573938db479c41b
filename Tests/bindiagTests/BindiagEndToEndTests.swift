import Foundation
import TestSupport
import Testing

@testable import bindiag

/// The built binary, end to end, for each command: the same command line run by the binary and
/// in this process (how the other suites run most of theirs) gives the same standard output,
/// standard error and exit status. `follow` and `demo` always run the binary (their suites).
@Suite struct BindiagEndToEndTests {
  /// A file of the summary fixture's records plus one malformed line, written once.
  private static let fixture: String = {
    let lines = jsonLines(summaryFixtureEvents) + "{\"v\":1,\"not\":\"an event\"\n"
    return try! writeFixture(lines, name: "end-to-end.jsonl")
  }()

  /// Each command line: which command, its arguments, and what it reads on standard input.
  static let commandLines: [(name: String, arguments: [String], stdin: String?)] = [
    ("summary", ["summary", fixture], nil),
    ("summary json", ["summary", "--format", "json", fixture], nil),
    ("summary of standard input", ["summary", "--format", "json", "-"], jsonLines(summaryFixtureEvents)),
    ("summary sarif", ["summary", "--format", "sarif", fixture], nil),
    ("check failing", ["check", "--max-events", "1", fixture], nil),
    ("check passing", ["check", "--max-events", "100", "--format", "json", fixture], nil),
    ("check strict", ["check", "--strict", fixture], nil),
    ("export otlp", ["export", "--format", "otlp", fixture], nil),
    ("export clickhouse of standard input", ["export", "--format", "clickhouse"], jsonLines(summaryFixtureEvents)),
    ("catalog", ["catalog"], nil),
    ("completions", ["completions", "bash"], nil),
    ("manpage", ["manpage"], nil),
    ("help", ["help", "summary"], nil),
    ("version", ["--version"], nil),
    ("usage error", ["summary", "--format", "yaml", fixture], nil),
    ("a missing file", ["summary", "/nonexistent/events.jsonl"], nil),
  ]

  @Test(arguments: commandLines.map(\.name))
  func theBinaryAndAnInProcessRunAgree(name: String) throws {
    let line = try #require(Self.commandLines.first { $0.name == name })
    let stdin = line.stdin.map { Data($0.utf8) }
    let launched = try launchedBindiag(arguments: line.arguments, stdin: stdin)
    let inProcess = try bindiag(arguments: line.arguments, stdin: stdin)
    #expect(inProcess.stdout == launched.stdout)
    #expect(inProcess.stderr == launched.stderr)
    #expect(inProcess.status == launched.status)
    // Something was said: an empty pair would agree without testing anything.
    #expect(!(launched.stdout + launched.stderr).isEmpty)
  }

  /// A new command gets an end-to-end line here, or this names it.
  @Test func everyCommandButFollowAndDemoHasALine() {
    let covered = Set(Self.commandLines.map { $0.arguments[0] })
    for command in Command.allCases where command != .follow && command != .demo {
      #expect(covered.contains(command.rawValue), "no end-to-end line runs \(command.rawValue)")
    }
  }
}
