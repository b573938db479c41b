import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// What a CI report says passed or failed agrees with `check`'s exit code, baselines included.
@Suite struct BindiagCIGateAgreementTests {
  /// The site the baseline knows, and a new one.
  static let known = fixtureEvent(seq: 1)
  static let new = fixtureEvent(
    seq: 2, kind: .unwrappedWriteAfterNil, file: "App/Other.swift", line: 7)

  static func testCase(_ name: String, file: String, line: Int, body: String) -> String {
    "    <testcase name=\"\(name)\" classname=\"\(file)\" file=\"\(file)\" line=\"\(line)\" "
      + "time=\"0\">\n      \(body)\n    </testcase>\n"
  }

  static let knownOut =
    "<system-out>A Binding&lt;Bool&gt; mapped from an optional was set to true: 1 event in 1 "
    + "record, first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC.</system-out>"

  static func report(tests: Int, failures: Int, _ cases: String) -> String {
    let counts = "tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\""
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <testsuites name="bindiag" \(counts) time="0">
        <testsuite name="bindiag" \(counts) skipped="0" time="0">
      \(cases)    <testcase name="lost records" classname="bindiag" time="0">
          </testcase>
        </testsuite>
      </testsuites>

      """
  }

  @Test func junitFailsOnlyTheSitesNotInTheBaseline() throws {
    let directory = try temporaryDirectory()
    let baseline = directory + "/baseline.json"
    let old = try writeFixture(jsonLines([Self.known]))
    let recorded = try bindiag("check", "--write-baseline", baseline, "--format", "junit", old)
    #expect(recorded.status == 0, "\(recorded.stderr)")
    // Recording applies no threshold: nothing in the report fails either.
    #expect(
      recorded.stdout
        == Self.report(
          tests: 2, failures: 0,
          Self.testCase(
            "mapped-bool-set-true at App/ContentView.swift:42", file: "App/ContentView.swift",
            line: 42, body: Self.knownOut)))

    let same = try bindiag("check", "--baseline", baseline, "--format", "junit", old)
    #expect(same.status == 0, "\(same.stderr)")
    #expect(same.stdout == recorded.stdout)

    let grown = try writeFixture(jsonLines([Self.known, Self.new]))
    let result = try bindiag("check", "--baseline", baseline, "--format", "junit", grown)
    #expect(result.status == 3)
    #expect(
      result.stdout
        == Self.report(
          tests: 3, failures: 1,
          Self.testCase(
            "mapped-bool-set-true at App/ContentView.swift:42", file: "App/ContentView.swift",
            line: 42, body: Self.knownOut)
            + Self.testCase(
              "unwrapped-write-after-nil at App/Other.swift:7", file: "App/Other.swift", line: 7,
              body:
                "<failure type=\"unwrapped-write-after-nil\" message=\"A binding unwrapped from an "
                + "optional was written after it became nil: 1 event in 1 record, first seen "
                + "2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC.\">a site not in "
                + "the baseline: 1 event, 1 at such sites in all (--max-events 0)</failure>")))
  }

  @Test func junitFailsAKnownSiteThatGrewWithTheFactor() throws {
    let baseline = try temporaryDirectory() + "/baseline.json"
    let old = try writeFixture(jsonLines([Self.known]))
    #expect(try bindiag("check", "--write-baseline", baseline, old).status == 0)
    let grown = try writeFixture(jsonLines([fixtureEvent(seq: 1, suppressed: 9)]))
    let result = try bindiag(
      "check", "--baseline", baseline, "--baseline-max-growth", "2", "--format", "junit", grown)
    #expect(result.status == 3)
    #expect(
      result.stdout
        == Self.report(
          tests: 2, failures: 1,
          Self.testCase(
            "mapped-bool-set-true at App/ContentView.swift:42", file: "App/ContentView.swift",
            line: 42,
            body:
              "<failure type=\"mapped-bool-set-true\" message=\"A Binding&lt;Bool&gt; mapped "
              + "from an optional was set to true: 10 events in 1 record, first seen 2026-11-30 "
              + "04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC.\">grew from 1 to 10 events "
              + "(--baseline-max-growth 2)</failure>")))
  }

  static func usage(_ command: String, _ message: String) -> String {
    "Error: \(message)\nUsage: bindiag \(command) [<options>] [<file> ...]\n"
      + "  See 'bindiag help \(command)' for more information.\n"
  }

  /// A window that ends before it starts holds no event: the gate would always pass.
  @Test(arguments: ["check", "summary"])
  func aTimeWindowEndingBeforeItStartsIsAUsageError(command: String) throws {
    let path = try writeFixture(jsonLines([Self.known]))
    let result = try bindiag(
      command, "--since", "2026-12-01T00:00:00Z", "--until", "2026-11-01T00:00:00Z", path)
    #expect(result.stdout == "")
    #expect(
      result.stderr
        == Self.usage(
          command,
          "'--since' (2026-12-01T00:00:00.000000Z) is after '--until' (2026-11-01T00:00:00.000000Z): "
            + "no event can match"
        ))
    #expect(result.status == 64)
    // The same instant is a window of one microsecond, not an error.
    let instant = try bindiag(
      "check", "--since", "2026-11-30T04:12:33.123456Z", "--until", "2026-11-30T04:12:33.123456Z",
      path)
    #expect(instant.status == 3, "\(instant.stderr)")
  }

  /// Events carry a run as 16 lowercase hex digits: anything else matches none of them.
  @Test(arguments: ["0123", "0123456789ABCDEF", "0123456789abcdef0", "zzzzzzzzzzzzzzzz"])
  func aRunThatNoEventCanHaveIsAUsageError(run: String) throws {
    let path = try writeFixture(jsonLines([Self.known]))
    let result = try bindiag("check", "--run", run, path)
    #expect(result.stdout == "")
    #expect(
      result.stderr
        == Self.usage(
          "check",
          "The value '\(run)' is invalid for '--run': expected 16 lowercase hex digits, as events carry it"
        ))
    #expect(result.status == 64)
    #expect(try bindiag("check", "--run", "0123456789abcdef", path).status == 3)
  }

  /// A journal directory without journal files (a mistyped path, a host that never sent) is
  /// not a journal without misuses.
  @Test(arguments: ["check", "summary"])
  func aJournalDirectoryWithoutJournalFilesIsARuntimeFailure(command: String) throws {
    let directory = try temporaryDirectory()
    try Data("not a journal".utf8).write(to: URL(fileURLWithPath: directory + "/notes.txt"))
    let result = try bindiag(command, "--journal-dir", directory, "--format", "json")
    #expect(
      result.stdout
        == #"{"schema":1,"events":0,"records":0,"malformed":0,"other":0,"lost":0,"duplicates":0,"#
        + #""runs":{"ended":0,"running":0,"stale":0},"run_dropped":0,"#
        + #""first":null,"last":null,"group_by":["kind","file","line"],"groups":[],"lost_runs":[],"#
        + #""stale_runs":[],"run_fields":["host"],"run_groups":[]}"#
        + "\n")
    #expect(
      result.stderr
        == "Error: cannot read journal '\(directory)': no journal files (*.journal) in it\n")
    #expect(result.status == 1)
  }

  /// A rotated log compressed by logrotate holds only `other` lines when read as it is.
  @Test func aCompressedInputIsARuntimeFailureNotAnEmptyOne() throws {
    let plain = try writeFixture(jsonLines([Self.known]))
    let gzip = Process()
    gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
    gzip.arguments = ["-k", plain]
    try gzip.run()
    gzip.waitUntilExit()
    let result = try bindiag("check", "--format", "json", plain + ".gz")
    #expect(
      result.stdout
        == #"{"schema":1,"events":0,"records":0,"malformed":0,"other":0,"lost":0,"duplicates":0,"#
        + #""runs":{"ended":0,"running":0,"stale":0},"run_dropped":0,"#
        + #""first":null,"last":null,"group_by":["kind","file","line"],"groups":[],"lost_runs":[],"#
        + #""stale_runs":[],"run_fields":["host"],"run_groups":[]}"#
        + "\n")
    #expect(
      result.stderr
        == "Error: cannot read '\(plain).gz': compressed with gzip; read it decompressed: "
        + "zcat '\(plain).gz' | bindiag check -\n")
    #expect(result.status == 1)
    // From a pipe, the decompressed events are read.
    let piped = try bindiag(
      arguments: ["check", "-"], stdin: try Data(contentsOf: URL(fileURLWithPath: plain)))
    #expect(piped.status == 3)
  }
  /// Compressed bytes piped in, or given as standard input, are refused from their first bytes
  /// as a named compressed file is: `check - < events.jsonl.gz` passed on "0 events" before.
  /// Each input is the compression's magic then bytes that are no record.
  @Test(
    arguments: [
      ("gzip", "zcat", [0x1F, 0x8B, 0x08, 0x00]), ("zstd", "zstdcat", [0x28, 0xB5, 0x2F, 0xFD]),
      ("xz", "xzcat", [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]),
      ("bzip2", "bzcat", Array("BZh91AY&SY".utf8)), ("lz4", "lz4cat", [0x04, 0x22, 0x4D, 0x18]),
    ] as [(String, String, [UInt8])])
  func compressedStandardInputIsRefused(name: String, command: String, magic: [UInt8]) throws {
    let path = try temporaryDirectory() + "/rotated"
    try Data(magic + Array("\u{7}\u{1}junk\n{\"v\":1}\nmore junk\n".utf8)).write(
      to: URL(fileURLWithPath: path))
    let binary = productsDirectory().appendingPathComponent("bindiag").path
    for (script, bindiagCommand, status) in [
      (#""$0" check --max-events 5 - < "$1""#, "check", 1),
      (#"cat "$1" | "$0" check --max-events 5"#, "check", 1),
      (#"cat "$1" | "$0" summary --threads 1 -"#, "summary", 1),
      (#""$0" export --format otlp - < "$1""#, "export", 1),
      (#""$0" export --format clickhouse "$1""#, "export", 1),
    ] {
      let result = try runProduct(
        "/bin/sh", ["-c", script, binary, path], environment: bindiagEnvironment)
      let file = script.hasSuffix(#" "$1""#) && !script.contains("<") ? "'\(path)'" : "FILE"
      let shown = file == "FILE" ? "-" : path
      #expect(result.status == Int32(status), "\(script)")
      #expect(
        result.stderr
          == "Error: cannot read '\(shown)': compressed with \(name); read it decompressed: "
          + "\(command) \(file) | bindiag \(bindiagCommand) -\n", "\(script)")
    }
  }
}
