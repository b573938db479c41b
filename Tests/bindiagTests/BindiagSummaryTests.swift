import BindingDiagnostics
import Foundation
import TestSupport
import Testing

@Suite struct BindiagSummaryTests {
  let events = summaryFixtureEvents

  @Test func jsonSummaryIsExact() throws {
    let path = try writeFixture(jsonLines(events))
    let result = try bindiag("summary", "--format", "json", path)
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(
      result.stdout
        == #"{"schema":1,"events":12,"records":3,"malformed":0,"other":0,"lost":1,"duplicates":0,"runs":{"ended":0,"running":1,"stale":0},"run_dropped":0,"first":"2026-11-30T04:12:33.123456Z","last":"2026-11-30T05:00:00.000000Z","group_by":["kind","file","line"],"groups":[{"key":{"kind":"mapped-bool-set-true","file":"App/ContentView.swift","line":42},"events":11,"records":2,"first":"2026-11-30T04:12:33.123456Z","last":"2026-11-30T04:12:33.123456Z","processes":["Demo","Other"],"hosts":["build-01"],"value_types":["Swift.Optional<Swift.String>"],"labels":[],"levels":{"error":11},"histogram":[11,0,0,0,0,0,0,0]},{"key":{"kind":"unwrapped-read-after-nil","file":"App/Detail.swift","line":7},"events":1,"records":1,"first":"2026-11-30T05:00:00.000000Z","last":"2026-11-30T05:00:00.000000Z","processes":["Demo"],"hosts":["build-01"],"value_types":["Swift.Optional<Swift.String>"],"labels":[],"levels":{"info":1},"histogram":[0,0,0,0,0,0,0,1]}],"lost_runs":[{"run":"0123456789abcdef","process":"Demo","host":"build-01","lost":1,"head":0,"tail":0,"dropped":0}],"stale_runs":[],"run_fields":["host"],"run_groups":[{"key":{"host":"build-01"},"lost":1,"dropped":0,"runs":{"ended":0,"running":1,"stale":0},"last":"2026-11-30T05:00:00.000000Z"}]}"#
        + "\n")
  }

  @Test func defaultCommandIsSummaryAndStdinIsRead() throws {
    let viaStdin = try bindiag("--format", "json", stdin: jsonLines(events))
    let viaDash = try bindiag("summary", "-", "--format=json", stdin: jsonLines(events))
    let path = try writeFixture(jsonLines(events))
    let viaFile = try bindiag("summary", "--format", "json", path)
    #expect(viaStdin.status == 0)
    #expect(viaStdin.stdout == viaFile.stdout)
    #expect(viaDash.stdout == viaFile.stdout)
  }

  @Test func tableIsTheDefaultFormat() throws {
    let path = try writeFixture(jsonLines(events))
    let result = try bindiag(path)
    #expect(result.status == 0)
    #expect(
      result.stdout == """
        12 events in 3 records from 1 run, 2026-11-30 04:12:33 to 05:00:00 UTC

        LEVEL  EVENTS  RECORDS  KIND                      SITE                      PROCS  FIRST SEEN  LAST SEEN  TIMELINE
        error      11        2  mapped-bool-set-true      App/ContentView.swift:42      2  04:12:33    04:12:33   █
        info        1        1  unwrapped-read-after-nil  App/Detail.swift:7            1  05:00:00    05:00:00          █

        Lost records: 1 in 1 run (Demo run 0123456789abcdef on build-01: 1)
        Runs: 0 ended, 1 running, 0 stale

        """)
  }

  @Test func mixedStreamsAreRecognisedLineByLine() throws {
    let logfmt = String(decoding: LogfmtEncoder().encode(fixtureEvent(seq: 1)), as: UTF8.self)
    let journal =
      #"{"__CURSOR":"c","__REALTIME_TIMESTAMP":"1796011953123456","_PID":"9","_HOSTNAME":"h","SYSLOG_IDENTIFIER":"Demo","MESSAGE":"m","MESSAGE_ID":"2b9f53b872d7905613eeb68e53797657","CODE_FILE":"App/ContentView.swift","CODE_LINE":"42","CODE_FUNC":"body","BINDING_SCHEMA":"1","BINDING_LEVEL":"error","BINDING_KIND":"mapped-bool-set-true","BINDING_VALUE_TYPE":"T","BINDING_VALUE_PRESENT":"0","BINDING_RUN":"00000000000000ff","BINDING_SEQ":"1","BINDING_SUPPRESSED":"2"}"#
    let other = #"{"__CURSOR":"d","__REALTIME_TIMESTAMP":"1","MESSAGE":"unrelated"}"#
    let input =
      "app starting\n" + logfmt + "GET / 200\n\n" + journal + "\n" + other + "\n"
      + jsonLines([fixtureEvent(seq: 2)])
    let result = try bindiag("summary", "--format", "json", stdin: input)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["events"] as? Int == 5)
    #expect(object["records"] as? Int == 3)
    #expect(object["other"] as? Int == 3)
    #expect(object["malformed"] as? Int == 0)
    #expect(object["lost"] as? Int == 0)
  }

  @Test func malformedLinesAreReportedWithFileAndLine() throws {
    let good = jsonLines([fixtureEvent(seq: 1)])
    let path = try writeFixture(
      good + "{\"v\":1,\n" + "v=1 kind=mapped-bool-set-true\n" + "{\"v\":1,\"msg\":\"a\u{0}\"}\n"
        + "plain text\n")
    let result = try bindiag("summary", "--format", "json", path)
    #expect(result.status == 0)
    #expect(
      result.stderr == """
        warning: \(path):2: malformed: unexpected end of line
        warning: \(path):3: malformed: missing key "ts"
        warning: \(path):4: malformed: control character in a string at byte 16

        """)
    #expect(
      result.stdout.hasPrefix(#"{"schema":1,"events":1,"records":1,"malformed":3,"other":1,"#))
    let strict = try bindiag("summary", "--strict", "--format", "json", path)
    #expect(strict.status == 65)
    #expect(strict.stderr.hasSuffix("Error: 3 malformed lines (--strict)\n"))
  }

  @Test func onlyTheFirstTenMalformedLinesAreShown() throws {
    let path = try writeFixture(String(repeating: "{broken\n", count: 25))
    let result = try bindiag("summary", "--format", "json", path)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 11)
    #expect(lines.last == "warning: 15 more malformed lines not shown")
    #expect(result.stdout.contains(#""malformed":25"#))
  }

  @Test func badInputNeverCrashes() throws {
    var bytes = Array(jsonLines([fixtureEvent(seq: 1)]).utf8)
    // Invalid UTF-8 inside a JSON string: malformed.
    bytes += Array(#"{"v":1,"msg":""#.utf8) + [0xff, 0xfe] + Array(#""}"#.utf8) + [0x0a]
    bytes += [0xff, 0xfe, 0x0a]  // invalid UTF-8 in an ordinary line: other
    bytes += Array("{\"v\":1}\u{0}\u{0}\n".utf8)  // NUL bytes
    bytes +=
      Array(
        #"{"v":1,"ts":"2026-11-30T04:12:33.123456Z","level":"error","kind":"k","message_id":"00000000000000000000000000000000","msg":"m","file":"f","line":"42"}"#
          .utf8) + [0x0a]
    bytes += Array(jsonLines([fixtureEvent(seq: 2)]).utf8.dropLast())  // no final newline
    let result = try bindiag(arguments: ["summary", "--format", "json"], stdin: Data(bytes))
    #expect(result.status == 0)
    #expect(
      result.stdout.hasPrefix(#"{"schema":1,"events":2,"records":2,"malformed":3,"other":1,"#))
    #expect(
      result.stderr == """
        warning: <stdin>:2: malformed: invalid UTF-8 in a string
        warning: <stdin>:4: malformed: trailing characters after the object
        warning: <stdin>:5: malformed: "line" must be an integer

        """)
  }

  @Test func emptyFileGivesNullTimes() throws {
    let path = try writeFixture("")
    let result = try bindiag("summary", "--format", "json", path)
    #expect(result.status == 0)
    #expect(result.stdout.contains(#""first":null,"last":null"#))
  }

  @Test func missingFilesAndDirectoriesFailWithExit1() throws {
    let directory = try temporaryDirectory()
    let good = try writeFixture(jsonLines(events))
    let result = try bindiag(
      "summary", "--format", "json", directory + "/missing.jsonl", directory, good)
    #expect(result.status == 1)
    #expect(
      result.stderr == """
        Error: cannot read '\(directory)/missing.jsonl': No such file or directory
        Error: cannot read '\(directory)': Is a directory

        """)
    // What could be read is still summarised.
    #expect(result.stdout.contains(#""events":12"#))
  }

  /// A line over `--max-line-bytes` (1 MiB by default) is one malformed line between two
  /// records. Its memory bound (50 MiB for a 200 MiB line) is a budget of
  /// `Benchmarks/budgets.sh`.
  @Test func aHugeSingleLineIsMalformed() throws {
    let path = try temporaryDirectory() + "/huge.jsonl"
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.write(contentsOf: Data(jsonLines([fixtureEvent(seq: 1)]).utf8))
    let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
    try handle.write(contentsOf: Data("{\"v\":1,\"msg\":\"".utf8))
    for _ in 0..<3 { try handle.write(contentsOf: chunk) }
    try handle.write(contentsOf: Data("\"}\n".utf8))
    try handle.write(contentsOf: Data(jsonLines([fixtureEvent(seq: 2)]).utf8))
    try handle.close()
    let result = try bindiag("summary", "--format", "json", path)
    #expect(result.stdout.hasPrefix(#"{"schema":1,"events":2,"records":2,"malformed":1,"#))
    #expect(result.stderr.contains("\(path):2: malformed: line longer than 1048576 bytes"))
  }

  @Test func rotatedFilesNamedTogetherAreOneStream() throws {
    let directory = try temporaryDirectory()
    let all = (1...30).map { fixtureEvent(seq: $0) }
    try jsonLines(Array(all[0..<10])).write(
      toFile: directory + "/app.jsonl.2", atomically: true, encoding: .utf8)
    try jsonLines(Array(all[10..<20])).write(
      toFile: directory + "/app.jsonl.1", atomically: true, encoding: .utf8)
    try jsonLines(Array(all[20..<30])).write(
      toFile: directory + "/app.jsonl", atomically: true, encoding: .utf8)
    let result = try bindiag(
      "summary", "--format", "json", directory + "/app.jsonl", directory + "/app.jsonl.1",
      directory + "/app.jsonl.2")
    #expect(
      result.stdout.hasPrefix(
        #"{"schema":1,"events":30,"records":30,"malformed":0,"other":0,"lost":0,"duplicates":0,"#))
  }

  @Test func duplicatesCountOnce() throws {
    let path = try writeFixture(jsonLines(events + events))
    let result = try bindiag("summary", "--format", "json", path)
    #expect(
      result.stdout.hasPrefix(
        #"{"schema":1,"events":12,"records":3,"malformed":0,"other":0,"lost":1,"duplicates":3,"#))
  }

  @Test func filtersAndGroupBy() throws {
    let path = try writeFixture(jsonLines(events))
    let since = try bindiag("summary", "--format", "json", "--since", "2026-11-30T04:30:00Z", path)
    #expect(since.stdout.hasPrefix(#"{"schema":1,"events":1,"records":1,"#))
    let until = try bindiag(
      "summary", "--format", "json", "--until", "2026-11-30T04:30:00Z", "--process", "Other", path)
    #expect(until.stdout.hasPrefix(#"{"schema":1,"events":10,"records":1,"#))
    let kind = try bindiag(
      "summary", "--format", "json", "--kind", "unwrapped-read-after-nil", "--file", "Detail", path)
    #expect(kind.stdout.hasPrefix(#"{"schema":1,"events":1,"records":1,"#))
    let level = try bindiag("summary", "--format", "json", "--level", "error", path)
    #expect(level.stdout.hasPrefix(#"{"schema":1,"events":11,"#))
    let grouped = try bindiag("summary", "--format", "json", "--group-by", "process", path)
    #expect(
      grouped.stdout.contains(
        #""group_by":["process"],"groups":[{"key":{"process":"Other"},"events":10,"#))
    let now = Timestamp.now().microsecondsSinceEpoch
    let recent = [
      fixtureEvent(seq: 1, at: Timestamp(microsecondsSinceEpoch: now - 7_200_000_000).rfc3339),
      fixtureEvent(seq: 2, at: Timestamp(microsecondsSinceEpoch: now - 600_000_000).rfc3339),
    ]
    let relative = try bindiag(
      arguments: ["summary", "--format", "json", "--since", "-1h"],
      stdin: Data(jsonLines(recent).utf8))
    #expect(relative.stdout.hasPrefix(#"{"schema":1,"events":1,"#))
  }

  /// All ten fields at once (`site` is three): the key has a lane for each; past eight the
  /// binary died of an out-of-range lane (SIGILL), in `summary` and `check` alike.
  @Test(arguments: [["summary"], ["check", "--max-events", "10"]])
  func everyFieldGroupsAtOnce(command: [String]) throws {
    let path = try writeFixture(
      jsonLines([
        fixtureEvent(seq: 1, test: "t1", writer: "App/A.swift:3"),
        fixtureEvent(seq: 2, test: "t1", writer: "App/A.swift:3"),
        fixtureEvent(seq: 3, test: "t2", writer: "App/A.swift:3"),
        fixtureEvent(seq: 4, host: "build-02"),
      ]))
    let result = try launchedBindiag(
      arguments: command + [
        "--format", "csv", "--group-by", "site,function,type,process,host,label,test,writer", path,
      ])
    #expect(result.status == 0, "\(result.stderr)")
    let rows = result.stdout.split(separator: "\r\n").map(String.init)
    #expect(
      rows.first?.hasPrefix(
        "events,records,kind,file,line,function,value_type,process,host,label,test,writer,first,")
        == true, "\(rows.first ?? "")")
    #expect(rows.count == 4, "\(result.stdout)\(result.stderr)")
    #expect(rows.dropFirst().map { $0.prefix(4) } == ["2,2,", "1,1,", "1,1,"])
  }

  @Test func checkGatesOnEventsAndLostRecords() throws {
    let path = try writeFixture(jsonLines(events))
    let failing = try bindiag("check", "--format", "json", path)
    #expect(failing.status == 3)
    #expect(
      failing.stderr == "check failed: 11 events (--max-events 0), 1 lost record (--max-lost 0)\n")
    let passing = try bindiag(
      "check", "--max-events", "11", "--max-lost", "1", "--format", "json", path)
    #expect(passing.status == 0)
    #expect(
      passing.stderr
        == "check passed: 11 events at warning and above (--max-events 11), 1 lost record (--max-lost 1)\n"
    )
    let clean = try bindiag("check", stdin: "")
    #expect(clean.status == 0)
  }

  @Test(arguments: ["markdown", "csv"])
  func otherFormatsRender(format: String) throws {
    let path = try writeFixture(jsonLines(events))
    let result = try bindiag("summary", "--format", format, path)
    #expect(result.status == 0)
    if format == "csv" {
      #expect(
        result.stdout.hasPrefix(
          "events,records,kind,file,line,first,last,processes,hosts,value_types,"))
      #expect(
        result.stdout.contains(
          "\r\n11,2,mapped-bool-set-true,App/ContentView.swift,42,2026-11-30T04:12:33.123456Z,"))
    } else {
      #expect(result.stdout.hasPrefix("## Binding misuse summary\n\n**12** events in 3 records"))
      #expect(
        result.stdout.contains("| 11 | 2 | `mapped-bool-set-true` | `App/ContentView.swift:42` |"))
    }
  }

  @Test func topLimitsTheTable() throws {
    let many = (1...30).map { fixtureEvent(seq: $0, line: $0) }
    let path = try writeFixture(jsonLines(many))
    let result = try bindiag("summary", "--top", "5", path)
    #expect(result.stdout.contains("… 25 more groups (--top 0 shows all)"))
    let json = try bindiag("summary", "--format", "json", path)
    // Groups only: run_groups after lost_runs have keys of their own.
    let groups = json.stdout.components(separatedBy: #""lost_runs":"#)[0]
    #expect(groups.components(separatedBy: #"{"key":"#).count - 1 == 30)
  }
}

@Suite struct BindiagLargeInputTests {
  /// Files of 8 MiB and more are classified on worker threads: the result, malformed-line
  /// reports included, must equal the serial read of the same bytes through a pipe.
  @Test func parallelAndSerialReadsAgree() throws {
    var text = ""
    var seq = 0
    var lines = 0
    while text.utf8.count < 20 << 20 {
      seq += 1
      lines += 1
      if lines % 5000 == 0 {
        text += "{\"v\":1,broken}\n"
        continue
      }
      if lines % 7777 == 0 { seq += 1 }  // a lost record now and then
      text += jsonLines([
        fixtureEvent(
          seq: seq, line: seq % 37, suppressed: seq % 3, process: seq % 2 == 0 ? "A" : "B")
      ])
    }
    let path = try writeFixture(text, name: "large.jsonl")
    let parallel = try bindiag("summary", "--format", "json", path)
    let serial = try bindiag(arguments: ["summary", "--format", "json"], stdin: Data(text.utf8))
    #expect(parallel.status == 0 && serial.status == 0)
    #expect(parallel.stdout == serial.stdout)
    #expect(parallel.stderr == serial.stderr.replacingOccurrences(of: "<stdin>", with: path))
    #expect(parallel.stdout.contains(#""malformed":\#(lines / 5000)"#))
    #expect(!parallel.stdout.contains(#""lost":0,"#))
  }
}

@Suite struct BindiagHostileInputTests {
  @Test func controlCharactersInTheInputCannotReachTheTerminal() throws {
    var event = fixtureEvent(seq: 1, file: "App/\u{1b}[31mRed\nView.swift")
    event.process = "evil\u{1b}]0;title\u{7}"
    let badLevel =
      #"{"v":1,"ts":"2026-11-30T04:12:33.123456Z","level":"x\u001b[2J\nwarning: forged"}"#
    let result = try bindiag("summary", stdin: jsonLines([event]) + badLevel + "\n")
    #expect(!result.stdout.contains("\u{1b}"))
    #expect(!result.stderr.contains("\u{1b}"))
    #expect(result.stdout.contains(#"App/\u001b[31mRed\u000aView.swift:42"#))
    #expect(
      result.stderr
        == #"warning: <stdin>:2: malformed: unknown level "x\u001b[2J\u000awarning: forged""# + "\n"
    )
  }
}

@Suite struct BindiagGrowingFileTests {
  @Test func aFileThatGrowsWhileReadIsReadToItsEnd() throws {
    let path = try temporaryDirectory() + "/growing.jsonl"
    let writer = Process()
    writer.executableURL = productsDirectory().appendingPathComponent("misuse-helper")
    writer.arguments = ["40000"]
    writer.environment = [
      "BINDING_DIAGNOSTICS": "jsonl:\(path)", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
    ]
    try writer.run()
    var summaries: [[String: Any]] = []
    while writer.isRunning || summaries.isEmpty {
      let result = try bindiag("summary", "--format", "json", path)
      #expect(result.status == 0 || result.status == 1)
      if result.status == 0 {
        summaries.append(
          try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]))
      }
    }
    writer.waitUntilExit()
    // Reads during the writes saw a prefix: never more records than written, at most one
    // record caught half-written at the end.
    for summary in summaries {
      #expect((summary["records"] as? Int ?? 0) <= 40_000)
      #expect((summary["malformed"] as? Int ?? 2) <= 1)
    }
    let final = try bindiag("summary", "--format", "json", path)
    #expect(
      final.stdout.contains(#""events":40000,"records":40000,"malformed":0,"other":0,"lost":0,"#))
  }
}

@Suite struct BindiagExtremeTimeTests {
  @Test func aJournalEntryWithAnAbsurdTimeStillGivesValidJSON() throws {
    let entry =
      #"{"__CURSOR":"c","__REALTIME_TIMESTAMP":"-999999999999999999","_PID":"9","_HOSTNAME":"h","SYSLOG_IDENTIFIER":"Demo","MESSAGE":"m","MESSAGE_ID":"2b9f53b872d7905613eeb68e53797657","CODE_FILE":"f","CODE_LINE":"1","CODE_FUNC":"g","BINDING_SCHEMA":"1","BINDING_LEVEL":"error","BINDING_KIND":"mapped-bool-set-true","BINDING_VALUE_TYPE":"T","BINDING_VALUE_PRESENT":"0","BINDING_RUN":"00000000000000ee","BINDING_SEQ":"1","BINDING_SUPPRESSED":"0"}"#
    let result = try bindiag("summary", "--format", "json", stdin: entry + "\n")
    #expect(result.status == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["first"] as? String == "0000-01-01T00:00:00.000000Z")
  }
}

@Suite struct BindiagHostileNumberTests {
  @Test func hugeNumbersAreMalformedNotOverflows() throws {
    var huge = jsonLines([fixtureEvent(seq: 1)])
    huge = huge.replacingOccurrences(of: #""seq":1"#, with: #""seq":9223372036854775807"#)
    var folded = jsonLines([fixtureEvent(seq: 2)])
    folded = folded.replacingOccurrences(
      of: #""suppressed":0"#, with: #""suppressed":9223372036854775807"#)
    let journal =
      #"{"__CURSOR":"c","__REALTIME_TIMESTAMP":"-9223372036854775808","_PID":"9","_HOSTNAME":"h","SYSLOG_IDENTIFIER":"Demo","MESSAGE":"m","MESSAGE_ID":"2b9f53b872d7905613eeb68e53797657","CODE_FILE":"f","CODE_LINE":"1","CODE_FUNC":"g","BINDING_SCHEMA":"1","BINDING_LEVEL":"error","BINDING_KIND":"mapped-bool-set-true","BINDING_VALUE_TYPE":"T","BINDING_VALUE_PRESENT":"0","BINDING_RUN":"00000000000000ef","BINDING_SEQ":"1","BINDING_SUPPRESSED":"0"}"#
    let input = huge + folded + journal + "\n" + jsonLines([fixtureEvent(seq: 3)])
    let result = try bindiag("summary", stdin: input)
    #expect(result.status == 0)
    #expect(
      result.stderr == """
        warning: <stdin>:1: malformed: "seq" is too large
        warning: <stdin>:2: malformed: "suppressed" is too large

        """)
    #expect(result.stdout.hasPrefix("2 events in 2 records from 2 runs, 0000-01-01 00:00:00 to "))
  }
}
