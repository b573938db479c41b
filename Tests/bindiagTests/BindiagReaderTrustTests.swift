import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// Issue 8 (reader side) and issue 11's histogram: inputs that must be counted, rejected or
/// escaped exactly, end to end through the built `bindiag`.
@Suite struct BindiagReaderTrustTests {
  /// 24 records an hour apart on 2026-01-01, oldest first.
  let hourly = (0..<24).map { hour in
    fixtureEvent(seq: hour + 1, at: String(format: "2026-01-01T%02d:00:00.000000Z", hour))
  }

  @Test func theHistogramIsTheSameForAnyOrderOfTheRecords() throws {
    let expected = """
      24 events in 24 records from 1 run, 2026-01-01 00:00:00 to 23:00:00 UTC

      LEVEL  EVENTS  RECORDS  KIND                  SITE                      PROCS  FIRST SEEN  LAST SEEN  TIMELINE
      error      24       24  mapped-bool-set-true  App/ContentView.swift:42      1  00:00:00    23:00:00   ████████

      Lost records: 0
      Runs: 0 ended, 1 running, 0 stale

      """
    var random = SystemRandomNumberGenerator()
    for order in [hourly, hourly.reversed(), hourly.shuffled(using: &random)] {
      let result = try bindiag(writeFixture(jsonLines(Array(order))))
      #expect(result.stdout == expected)
      #expect(result.stderr == "")
      #expect(result.status == 0)
    }
  }

  @Test func rotatedFilesNamedNewestFirstGiveTheSameSummary() throws {
    let directory = try temporaryDirectory()
    let current = directory + "/app.jsonl"
    let rotated = directory + "/app.jsonl.1"
    try jsonLines(Array(hourly[12...])).write(toFile: current, atomically: true, encoding: .utf8)
    try jsonLines(Array(hourly[..<12])).write(toFile: rotated, atomically: true, encoding: .utf8)
    for format in ["table", "json", "markdown", "csv"] {
      let newestFirst = try bindiag("summary", "--format", format, current, rotated)
      let oldestFirst = try bindiag("summary", "--format", format, rotated, current)
      #expect(newestFirst.status == 0)
      #expect(newestFirst.stdout == oldestFirst.stdout)
    }
    #expect(try bindiag("summary", current, rotated).stdout.contains("  ████████\n"))
  }

  @Test(arguments: ["summary", "check"])
  func aRecordBefore1970AfterALaterOneIsCounted(command: String) throws {
    let path = try writeFixture(
      jsonLines([
        fixtureEvent(seq: 1, at: "2026-01-01T00:00:00.000000Z"),
        fixtureEvent(seq: 2, at: "1969-12-31T23:59:59.000000Z"),
      ]))
    let thresholds = command == "check" ? ["--max-events", "2"] : []
    let result = try bindiag(arguments: [command] + thresholds + [path])
    #expect(
      result.stderr
        == (command == "check"
          ? "check passed: 2 events at warning and above (--max-events 2), 0 lost records (--max-lost 0)\n"
          : ""))
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        2 events in 2 records from 1 run, 1969-12-31 23:59:59 to 2026-01-01 00:00:00 UTC

        LEVEL  EVENTS  RECORDS  KIND                  SITE                      PROCS  FIRST SEEN        LAST SEEN         TIMELINE
        error       2        2  mapped-bool-set-true  App/ContentView.swift:42      1  1969-12-31 23:59  2026-01-01 00:00  █      █

        Lost records: 0
        Runs: 0 ended, 1 running, 0 stale

        """)
  }

  /// Times across the whole range the contract allows, through the fast path (the sink's own
  /// JSON), the exact path (the same object spaced out) and logfmt: every one counted.
  @Test func everyTimeInYears0000To9999IsCountedByEveryPath() throws {
    let times = [
      "9999-12-31T23:59:59.999999Z", "0000-01-01T00:00:00.000000Z", "2026-11-30T04:12:33.123456Z",
      "1969-12-31T23:59:59.999999Z", "0000-02-29T12:00:00.000000Z", "1970-01-01T00:00:00.000000Z",
      "4000-02-29T23:59:60.500000Z", "0001-01-01T00:00:00.000000Z",
    ]
    var lines: [String] = []
    var seq = 0
    for time in times {
      for form in 0..<3 {
        seq += 1
        let event = fixtureEvent(seq: seq, at: time)
        switch form {
        case 0: lines.append(jsonLines([event]))
        case 1: lines.append(jsonLines([event]).replacingOccurrences(of: "\",\"", with: "\", \""))
        default: lines.append(String(decoding: LogfmtEncoder().encode(event), as: UTF8.self))
        }
      }
    }
    for input in [lines, lines.reversed()] {
      let result = try bindiag(
        "summary", "--format", "json", "--group-by", "kind", writeFixture(input.joined()))
      #expect(result.stderr == "")
      #expect(result.status == 0)
      #expect(
        result.stdout
          == #"{"schema":1,"events":24,"records":24,"malformed":0,"other":0,"lost":0,"duplicates":0,"runs":{"ended":0,"running":1,"stale":0},"run_dropped":0,"first":"0000-01-01T00:00:00.000000Z","last":"9999-12-31T23:59:59.999999Z","group_by":["kind"],"groups":[{"key":{"kind":"mapped-bool-set-true"},"events":24,"records":24,"first":"0000-01-01T00:00:00.000000Z","last":"9999-12-31T23:59:59.999999Z","processes":["Demo"],"hosts":["build-01"],"value_types":["Swift.Optional<Swift.String>"],"labels":[],"levels":{"error":24},"histogram":[9,9,0,3,0,0,0,3]}],"lost_runs":[],"stale_runs":[],"run_fields":["host"],"run_groups":[{"key":{"host":"build-01"},"lost":0,"dropped":0,"runs":{"ended":0,"running":1,"stale":0},"last":"9999-12-31T23:59:59.999999Z"}]}"#
          + "\n")
    }
  }

  @Test func seqMissingBelowTheLowestSeenIsLost() throws {
    let path = try writeFixture(
      jsonLines([fixtureEvent(seq: 3), fixtureEvent(seq: 4), fixtureEvent(seq: 6)]))
    let summary = try bindiag("summary", path)
    #expect(
      summary.stdout.hasSuffix(
        "Lost records: 3 in 1 run (Demo run 0123456789abcdef on build-01: 3)\n"
          + "  of them 2 before the first record seen (rotated away, or not read)\n"
          + "Runs: 0 ended, 1 running, 0 stale\n"))
    let check = try bindiag("check", "--max-events", "10", "--max-lost", "2", path)
    #expect(check.stderr == "check failed: 3 lost records (--max-lost 2)\n")
    #expect(check.status == 3)
    #expect(try bindiag("check", "--max-events", "10", "--max-lost", "3", path).status == 0)
  }

  @Test func aRunSelectedWithRunCountsOnlyItsOwnLostRecords() throws {
    let path = try writeFixture(
      jsonLines([
        fixtureEvent(seq: 2, run: "00000000000000aa"), fixtureEvent(seq: 5),
      ]))
    let result = try bindiag("summary", "--format", "json", "--run", "0123456789abcdef", path)
    #expect(result.stdout.contains(#""lost":4,"#))
    #expect(
      result.stdout.hasSuffix(
        #""lost_runs":[{"run":"0123456789abcdef","process":"Demo","host":"build-01","lost":4,"head":4,"#
          + #""tail":0,"dropped":0}],"stale_runs":[],"run_fields":["host"],"#
          + #""run_groups":[{"key":{"host":"build-01"},"lost":4,"dropped":0,"#
          + #""runs":{"ended":0,"running":1,"stale":0},"last":"2026-11-30T04:12:33.123456Z"}]}"#
          + "\n"))
  }

  @Test func aDuplicatedKeyIsMalformedInJSONAndLogfmt() throws {
    let good = jsonLines([fixtureEvent(seq: 1)])
    let twiceInJSON = good.replacingOccurrences(
      of: #","suppressed":0}"#, with: #","suppressed":0,"seq":9}"#)
    let twiceSpaced = good.replacingOccurrences(of: #"{"v":1,"#, with: #"{ "v": 1, "seq": 3, "#)
    let logfmt = String(decoding: LogfmtEncoder().encode(fixtureEvent(seq: 2)), as: UTF8.self)
    let twiceInLogfmt = logfmt.replacingOccurrences(of: " seq=2 ", with: " seq=2 seq=7 ")
    let path = try writeFixture(twiceInJSON + twiceSpaced + twiceInLogfmt + good)
    let result = try bindiag("summary", "--format", "json", path)
    #expect(
      result.stderr == """
        warning: \(path):1: malformed: duplicate key "seq"
        warning: \(path):2: malformed: duplicate key "seq"
        warning: \(path):3: malformed: duplicate key "seq"

        """)
    #expect(
      result.stdout.hasPrefix(#"{"schema":1,"events":1,"records":1,"malformed":3,"other":0,"#))
    #expect(result.status == 0)
  }

  @Test func aByteOrderMarkAtTheStartOfAFileOrOfStandardInputIsSkipped() throws {
    let text = "\u{FEFF}" + jsonLines([fixtureEvent(seq: 1), fixtureEvent(seq: 2)])
    let expected = try bindiag(
      "summary", "--format", "json", stdin: jsonLines([fixtureEvent(seq: 1), fixtureEvent(seq: 2)]))
    #expect(
      expected.stdout.hasPrefix(#"{"schema":1,"events":2,"records":2,"malformed":0,"other":0,"#))
    let fromFile = try bindiag("summary", "--format", "json", writeFixture(text))
    let fromStdin = try bindiag("summary", "--format", "json", stdin: text)
    #expect(fromFile.stdout == expected.stdout)
    #expect(fromStdin.stdout == expected.stdout)
    #expect(fromFile.stderr == "" && fromStdin.stderr == "")
    // Only at the start: one inside the stream is part of its line.
    let inside = try bindiag(
      "summary", "--format", "json", stdin: jsonLines([fixtureEvent(seq: 1)]) + text)
    #expect(
      inside.stdout.hasPrefix(#"{"schema":1,"events":2,"records":2,"malformed":0,"other":1,"#))
  }

  /// Standard input is read from where it stands, as `cat` would read it, and left at its end:
  /// a file read in chunks at its offsets must not start over from byte 0 nor leave the
  /// descriptor where it found it. (`read` in the shell takes one line and no more.)
  @Test(arguments: [
    (#"{ read -r first; "$0" summary --format json -; } < "$1""#, 4),
    (#"{ read -r first; read -r second; "$0" summary --threads 1 --format json -; } < "$1""#, 3),
    (#""$0" summary --format json - < "$1""#, 5),
  ])
  func standardInputIsReadFromWhereItStands(script: String, records: Int) throws {
    let path = try writeFixture(jsonLines((1...5).map { fixtureEvent(seq: $0) }))
    let result = try runProduct(
      "/bin/sh", ["-c", script, productsDirectory().appendingPathComponent("bindiag").path, path],
      environment: bindiagEnvironment)
    let counts = "{\"schema\":1,\"events\":\(records),\"records\":\(records),\"malformed\":0,"
    #expect(result.stdout.hasPrefix(counts), "\(result.stdout)")
    #expect(result.stderr == "")
    #expect(result.status == 0)
  }

  @Test(arguments: [
    ("summary --format json", ""), ("export --format otlp", ""),
    (
      "check --max-events 100",
      "check passed: 5 events at warning and above (--max-events 100), 0 lost records"
        + " (--max-lost 0)\n"
    ),
  ])
  func standardInputIsLeftAtItsEnd(command: String, stderr: String) throws {
    let path = try writeFixture(jsonLines((1...5).map { fixtureEvent(seq: $0) }))
    let result = try runProduct(
      "/bin/sh",
      [
        "-c", #"{ "$0" \#(command) - > /dev/null; cat; } < "$1""#,
        productsDirectory().appendingPathComponent("bindiag").path, path,
      ],
      environment: bindiagEnvironment)
    #expect(result.stdout == "", "what the next command read of standard input")
    #expect(result.stderr == stderr)
    #expect(result.status == 0)
  }

  @Test func aByteOrderMarkIsSkippedInALargeFileReadInParallel() throws {
    var random = SystemRandomNumberGenerator()
    let events = (1...24_000).map { seq in
      fixtureEvent(seq: seq, line: Int.random(in: 1...50, using: &random))
    }
    let path = try writeFixture("\u{FEFF}" + jsonLines(events))
    let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    #expect(size >= 8 << 20)
    let result = try bindiag("summary", "--format", "json", path)
    #expect(
      result.stdout.hasPrefix(
        #"{"schema":1,"events":24000,"records":24000,"malformed":0,"other":0,"lost":0,"#))
  }

  /// The line buffer grows only as a line needs it, up to `--max-line-bytes`: a 3 MiB record
  /// is an event under a 4 MiB limit, read from a pipe and from a file.
  @Test func aLongRecordWithinALargeLimitIsAnEvent() throws {
    var event = fixtureEvent(seq: 1)
    event.message = String(repeating: "m", count: 3 << 20)
    let text = jsonLines([event])
    let path = try writeFixture(text)
    // Standard input only for `-`: a child that does not read it would leave the writer a
    // broken pipe.
    for (input, stdin) in [("-", Data(text.utf8)), (path, nil)] {
      let result = try bindiag(
        arguments: ["summary", "--format", "json", "--max-line-bytes", "4194304", input],
        stdin: stdin)
      #expect(result.stdout.hasPrefix(#"{"schema":1,"events":1,"records":1,"malformed":0,"#))
      let limited = try bindiag(arguments: ["summary", "--format", "json", input], stdin: stdin)
      #expect(limited.stdout.hasPrefix(#"{"schema":1,"events":0,"records":0,"malformed":1,"#))
    }
  }

  /// A file name, process and reason with bidirectional controls: every human output shows
  /// them escaped, like control characters.
  @Test func bidirectionalControlsAreEscapedInEveryHumanOutput() throws {
    let controls = [
      "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}",
      "\u{2068}", "\u{2069}",
    ]
    let file = "App/" + controls.joined() + "gnp.swift"
    let event = fixtureEvent(seq: 2, file: file, process: "Demo\u{202E}")
    let badLevel = jsonLines([fixtureEvent(seq: 3)]).replacingOccurrences(
      of: #""level":"error""#, with: #""level":"\u202eerror""#)
    let path = try writeFixture(jsonLines([event]) + badLevel)
    let escaped = #"App/\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069gnp.swift"#
    let table = try bindiag("summary", path)
    #expect(table.stdout.contains("  \(escaped):42  "))
    #expect(table.stdout.contains(#"(Demo\u202e run 0123456789abcdef on build-01: 1)"#))
    #expect(table.stderr == "warning: \(path):2: malformed: unknown level \"\\u202eerror\"\n")
    let markdown = try bindiag("summary", "--format", "markdown", path)
    #expect(markdown.stdout.contains("| `mapped-bool-set-true` | `\(escaped):42` |"))
    #expect(markdown.stdout.contains(#"| `Demo\u202e` |"#))
    let follow = try bindiag("follow", stdin: jsonLines([event]))
    #expect(follow.stdout.contains("  \(escaped):42  "))
    let usage = try bindiag("summary", "--kind", "\u{2066}x")
    #expect(usage.stderr.hasPrefix(#"Error: The value '\u2066x' is invalid for '--kind'"#))
    for output in [table, markdown, follow, usage] {
      let text = output.stdout + output.stderr
      #expect(!text.unicodeScalars.contains { controls.contains(String($0)) })
    }
    // Machine outputs keep the text as it is.
    #expect(try bindiag("summary", "--format", "json", path).stdout.contains(file))
  }

  @Test func csvCellsStartingWithTabOrCarriageReturnGetTheFormulaGuard() throws {
    let path = try writeFixture(
      jsonLines([
        fixtureEvent(seq: 1, file: "\tcmd.swift"), fixtureEvent(seq: 2, file: "\r=1+1"),
        fixtureEvent(seq: 3, file: "=\u{301}cmd"), fixtureEvent(seq: 4, file: "-5"),
      ]))
    let result = try bindiag("summary", "--format", "csv", "--group-by", "file", path)
    #expect(result.status == 0)
    #expect(
      result.stdout.components(separatedBy: "\r\n").dropFirst().map {
        String($0.split(separator: ",", maxSplits: 3).dropFirst(2).first ?? "")
      }.sorted() == ["", "-5", "'=\u{301}cmd", "'\tcmd.swift", "\"'\r=1+1\""].sorted())
  }
}
