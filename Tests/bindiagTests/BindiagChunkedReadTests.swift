import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// A regular file is read in chunks on worker threads, a pipe line by line: the same bytes must
/// give the same output both ways. That the chunked read costs what the pipe's does (memory,
/// bytes read) is held by `Benchmarks/budgets.sh`.
@Suite struct BindiagChunkedReadTests {
  /// Runs `summary --format json` on `text` as a file (with each of `threads`) and through
  /// standard input, and expects the same stdout, stderr and status.
  static func expectSameBothWays(_ text: [UInt8], _ arguments: [String] = [], threads: [Int])
    throws -> ProcessOutput
  {
    let path = try temporaryDirectory() + "/input.jsonl"
    try Data(text).write(to: URL(fileURLWithPath: path))
    let piped = try bindiag(
      arguments: ["summary", "--format", "json"] + arguments, stdin: Data(text))
    for count in threads {
      let chunked = try bindiag(
        arguments: ["summary", "--format", "json", "--threads", "\(count)"] + arguments + [path])
      #expect(chunked.stdout == piped.stdout, "--threads \(count)")
      #expect(
        chunked.stderr == piped.stderr.replacingOccurrences(of: "<stdin>", with: path),
        "--threads \(count)")
      #expect(chunked.status == piped.status, "--threads \(count)")
    }
    return piped
  }

  /// A `log show --style json` array is recognised on the first line that is neither blank
  /// nor over the limit, in a file as in a pipe.
  @Test(arguments: [
    "\n", "  \t\r\n", "\u{feff}\n", "\n\n\r\n", String(repeating: "x", count: 100) + "\n",
  ])
  func anArrayAfterBlankOrTooLongLinesIsAnArray(prefix: String) throws {
    let record = jsonLines([fixtureEvent(seq: 1)]).dropLast()
    let text = Array((prefix + "[\n" + record + "\n]\n").utf8)
    let piped = try Self.expectSameBothWays(text, ["--max-line-bytes", "64"], threads: [1, 2])
    // The pipe reads the array: its one element is too long, the `[` and `]` are not lines.
    #expect(piped.stdout.contains(#""other":0,"#))
  }
  // How much of a long line each chunk reads (about once, whatever the threads) is a budget of
  // `Benchmarks/budgets.sh`, run by CI on a release build.
}

@Suite struct BindiagByteComparisonTests {
  /// Text is compared byte for byte: a host spelt with a precomposed "é" and one with "e" and a
  /// combining accent are two hosts, for `summary` (ids of bytes) and `follow` (the filter)
  /// alike.
  @Test func summaryAndFollowFilterTheSameSpellingOfAHost() throws {
    let precomposed = "caf\u{e9}"
    let combining = "cafe\u{301}"
    let events = [
      fixtureEvent(seq: 1, host: precomposed), fixtureEvent(seq: 2, host: combining),
      fixtureEvent(seq: 3, host: precomposed),
    ]
    let path = try writeFixture(jsonLines(events))
    let summary = try bindiag(arguments: [
      "summary", "--format", "json", "--host", precomposed, path,
    ])
    #expect(summary.status == 0)
    #expect(summary.stdout.hasPrefix(#"{"schema":1,"events":2,"records":2,"#))
    let follow = try bindiag(
      arguments: [
        "follow", "--format", "json", "-n", "all", "--count", "2", "--host", precomposed, path,
      ])
    #expect(follow.status == 0)
    // Compared as bytes: `String.contains` would take either spelling for the other.
    let hosts = follow.stdout.utf8.split(separator: UInt8(ascii: "\n")).map { line in
      Array(line).firstRange(of: Array(#""host":"\#(precomposed)""#.utf8)) != nil
        && Array(line).firstRange(of: Array(combining.utf8)) == nil
    }
    #expect(hosts == [true, true])
    let all = try bindiag(arguments: ["summary", "--format", "json", "--group-by", "host", path])
    #expect(all.stdout.contains(#""key":{"host":"\#(precomposed)"},"events":2"#))
    #expect(all.stdout.contains(#""key":{"host":"\#(combining)"},"events":1"#))
  }
}
