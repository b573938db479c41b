import BindingDiagnostics
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Behaviour that depends on a terminal, tested on a real pseudo-terminal (util-linux
/// `script`): colours by default, the terminal's own width, the progress line, the pager.
@Suite struct BindiagTerminalTests {
  /// One group per level, with a long path.
  func levelsFixture() throws -> String {
    let levels: [MisuseLevel] = [.critical, .error, .warning, .notice, .info, .debug]
    let events = levels.enumerated().map { index, level in
      var event = fixtureEvent(
        seq: index + 1,
        file: "Packages/InboxFeature/Sources/InboxFeature/Views/Detail/MessageDetailView.swift",
        line: 10 + index)
      event.level = level
      return event
    }
    return try writeFixture(jsonLines(events))
  }

  @Test func colourIsOnByDefaultOnATerminalOnly() throws {
    let path = try levelsFixture()
    let session = try TerminalSession(["summary", path], columns: 120)
    #expect(session.finish() == 0)
    #expect(session.text.contains("\u{1b}[0;1;31mcritical\u{1b}[0m"))
    #expect(session.text.contains("\u{1b}[0;1;38;5;185mwarning\u{1b}[0m"))
    #expect(session.text.contains("\u{1b}[0;38;5;245mdebug\u{1b}[0m"))
    // NO_COLOR (any non-empty value) and TERM=dumb turn the default off; --color=never too.
    for environment in [["NO_COLOR": "1"], ["TERM": "dumb"]] {
      let plain = try TerminalSession(["summary", path], columns: 120, environment: environment)
      #expect(plain.finish() == 0)
      #expect(!plain.text.contains("\u{1b}"), "\(environment)")
      #expect(plain.text.contains("critical"))
    }
    let never = try TerminalSession(["summary", "--color=never", path], columns: 120)
    #expect(never.finish() == 0)
    #expect(!never.text.contains("\u{1b}"))
  }

  @Test func theTableFitsTheTerminalsOwnWidth() throws {
    let path = try levelsFixture()
    let session = try TerminalSession(["summary", "--color=never", path], columns: 72)
    #expect(session.finish() == 0)
    let lines = session.text.split(separator: "\n")
    #expect(lines.count == 10)  // the table, Lost records and Runs
    for line in lines { #expect(line.count <= 72, "\(line)") }
    #expect(lines[2] == "critical       1  mapped-bool-set-true  …/MessageDetailView.swift:10")
    // The same as COLUMNS=72 says through a pipe.
    let piped = try bindiag(
      arguments: ["summary", "--color=never", path], environment: ["COLUMNS": "72"])
    #expect(piped.stdout == session.text)
  }

  @Test(
    .enabled(if: PrivateJournal.unavailability == nil, "\(PrivateJournal.unavailability ?? "")"))
  func levelColoursAreJournalctls() throws {
    // journalctl's own colour for each syslog priority, read from a real journal (one of the
    // test's own, never the machine's).
    let identifier = "bindiag-palette-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
    let levels: [MisuseLevel] = [.critical, .error, .warning, .notice, .info, .debug]
    let send = levels.map {
      "echo \($0.rawValue) | systemd-cat -t \(identifier) -p \($0.syslogPriority)"
    }
    let journal = try PrivateJournal(running: ["sh", "-c", send.joined(separator: " && ")])
    #expect(journal.output.status == 0)
    let lines = try runProduct(
      "/usr/bin/env",
      ["journalctl", "--no-pager", "-o", "cat", "-D", journal.directory, "-t", identifier],
      environment: ["SYSTEMD_COLORS": "1"]
    ).stdout.split(separator: "\n")
    try #require(lines.count == levels.count)
    let table = try bindiag("summary", "--color=always", try levelsFixture()).stdout
    for (level, line) in zip(levels, lines) {
      let text = String(line)
      if text.hasPrefix("\u{1b}[") {
        let sequence = String(text.prefix(through: text.firstIndex(of: "m")!))
        #expect(table.contains(sequence + level.rawValue + "\u{1b}[0m"), "\(level)")
      } else {
        // journalctl writes this priority plain: so do we.
        #expect(text == level.rawValue)
        #expect(table.contains("\n" + level.rawValue + " "), "\(level)")
      }
    }
  }
}

/// The progress line on a terminal: at least four redraws a second, cleared before every
/// warning and at the end, never on standard output.
@Suite struct BindiagProgressTests {
  static let drawPrefix = "\r" + "reading "

  /// The times at which progress lines arrived, and their texts.
  func draws(_ session: TerminalSession) -> [(seconds: Double, text: String)] {
    var found: [(Double, String)] = []
    for chunk in session.timedChunks {
      var rest = Substring(chunk.text)
      while let start = rest.range(of: Self.drawPrefix) {
        let after = rest[start.upperBound...]
        let end = after.range(of: "\u{1b}[K")?.lowerBound ?? after.endIndex
        found.append((chunk.seconds, "reading " + after[..<end]))
        rest = after[end...]
      }
    }
    return found
  }

  @Test func aSlowPipeShowsProgressFourTimesASecondAndWarningsOnClearedLines() throws {
    let directory = try temporaryDirectory()
    let fifo = directory + "/input"
    #expect(mkfifo(fifo, 0o600) == 0)
    let session = try TerminalSession(
      ["summary", "--format", "json"], columns: 100,
      redirections: "< \(fifo) > \(directory)/out.json")
    let writer = try #require(FileHandle(forWritingAtPath: fifo))
    writer.write(Data(jsonLines((1...3000).map { fixtureEvent(seq: $0) }).utf8))
    let stallStart = session.elapsed
    Thread.sleep(forTimeInterval: 1.6)
    let stallEnd = session.elapsed
    writer.write(Data(("{broken\n" + jsonLines((3001...3010).map { fixtureEvent(seq: $0) })).utf8))
    Thread.sleep(forTimeInterval: 0.6)
    try writer.close()
    #expect(session.finish() == 0)

    let output = try String(contentsOfFile: directory + "/out.json", encoding: .utf8)
    #expect(output.hasPrefix(#"{"schema":1,"events":3010,"records":3010,"malformed":1,"#))
    let raw = session.raw
    // The warning starts on a line the progress was cleared from, and ends its own line.
    #expect(raw.contains("\r\u{1b}[Kwarning: <stdin>:3001: malformed: "))
    #expect(raw.components(separatedBy: "warning: ").count == 2)
    // Nothing is left on the terminal's last line.
    #expect(raw.hasSuffix("\r\u{1b}[K"))

    let all = draws(session)
    let stalled = all.filter { $0.seconds > stallStart + 0.3 && $0.seconds <= stallEnd }
    #expect(stalled.count >= 5, "\(all.map(\.seconds))")
    let gaps = zip(stalled.dropFirst(), stalled).map { $0.seconds - $1.seconds }.sorted()
    if !gaps.isEmpty {
      #expect(gaps[gaps.count / 2] <= 0.25, "median gap between redraws: \(gaps)")
    }
    for draw in all {
      #expect(draw.text.count <= 99)
      #expect(
        draw.text.wholeMatch(
          of: /reading <stdin>: \d+\.\d MiB, [\d,]+ events?, [\d,]+ events\/s/) != nil,
        "\(draw.text)")
    }
    #expect(all.last?.text.hasPrefix("reading <stdin>: 1.") == true)
  }

  @Test func aLargeFileShowsPercentOfItsSize() throws {
    // A file large enough that reading it takes a second on this build and machine.
    let directory = try temporaryDirectory()
    let path = directory + "/big.jsonl"
    let block = Data(jsonLines((1...20_000).map { fixtureEvent(seq: $0) }).utf8)
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    var blocks = 0
    var seconds = 0.0
    while seconds < 1 && blocks < 512 {
      for _ in 0..<max(blocks, 4) {
        blocks += 1
        // Each block is its own run, so no record is a duplicate.
        try handle.write(contentsOf: block.replacingRun(with: blocks))
      }
      let start = Date()
      _ = try bindiag("summary", "--format", "json", path)
      seconds = Date().timeIntervalSince(start)
    }
    try handle.close()
    try #require(seconds >= 1, "reading \(blocks) blocks took only \(seconds) s")

    let session = try TerminalSession(
      ["summary", "--format", "json", path], columns: 200,
      redirections: "> \(directory)/out.json")
    #expect(session.finish() == 0)
    let all = draws(session)
    #expect(all.count >= 3)
    var previous = -1
    for draw in all {
      let match = try #require(
        draw.text.wholeMatch(
          of:
            /reading .*big\.jsonl: [\d,]+\.\d of [\d,]+\.\d MiB \((\d+) %\), [\d,]+ events, [\d,]+ events\/s/
        ), "\(draw.text)")
      let percent = Int(match.1)!
      #expect(percent >= previous && percent <= 100)
      previous = percent
    }
    #expect(session.raw.hasSuffix("\r\u{1b}[K"))
    let output = try String(contentsOfFile: directory + "/out.json", encoding: .utf8)
    #expect(output.hasPrefix(#"{"schema":1,"events":\#(blocks * 20_000),"#))
  }
}

/// Long output on a terminal goes through `$PAGER` (`less -FRX` by default).
@Suite struct BindiagPagerTests {
  /// `count` groups: a table of `count + 4` lines.
  func groups(_ count: Int) throws -> String {
    try writeFixture(jsonLines((1...count).map { fixtureEvent(seq: $0, line: $0) }))
  }

  @Test func aLongTableWaitsInLessUntilQuit() throws {
    let path = try groups(40)
    let session = try TerminalSession(["summary", "--top", "0", path], columns: 120, rows: 10)
    #expect(session.waitFor("App/ContentView.swift:5 "))
    Thread.sleep(forTimeInterval: 0.5)
    // less shows a screenful and waits: the rest of the table is not on the terminal.
    #expect(!session.text.contains("ContentView.swift:40 "))
    session.type("q")
    #expect(session.finish(timeout: 20) == 0)
    #expect(!session.text.contains("ContentView.swift:40 "))
    #expect(session.text.components(separatedBy: "LEVEL  EVENTS").count == 2)
  }

  @Test func noPagerShortOutputAndPipesAreWrittenDirectly() throws {
    let long = try groups(40)
    let marker = ["PAGER": "sed s/^/paged:/"]
    let paged = try TerminalSession(["summary", "--top", "0", long], rows: 10, environment: marker)
    #expect(paged.finish() == 0)
    let lines = paged.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 46)  // 40 groups, headings, Lost records and Runs
    #expect(lines.allSatisfy { $0.hasPrefix("paged:") })
    let direct = try TerminalSession(
      ["summary", "--top", "0", "--no-pager", long], rows: 10, environment: marker)
    #expect(direct.finish() == 0)
    #expect(direct.text.contains("ContentView.swift:40 "))
    #expect(!direct.text.contains("paged:"))
    let short = try TerminalSession(["summary", try groups(2)], rows: 10, environment: marker)
    #expect(short.finish() == 0)
    #expect(short.text.contains("ContentView.swift:2 "))
    #expect(!short.text.contains("paged:"))
    let piped = try bindiag(
      arguments: ["summary", "--top", "0", long],
      environment: marker.merging(["LINES": "10"]) { $1 })
    #expect(!piped.stdout.contains("paged:"))
    #expect(piped.stdout.contains("ContentView.swift:40 "))
  }

  @Test func thePagerGetsLessOptionsAndAMissingOneIsNoLoss() throws {
    let long = try groups(40)
    let options = try TerminalSession(
      ["summary", "--top", "0", long], rows: 10,
      environment: ["PAGER": #"echo "LESS=$LESS"; cat >/dev/null"#])
    #expect(options.finish() == 0)
    #expect(options.text == "LESS=FRX\n")
    let missing = try TerminalSession(
      ["summary", "--top", "0", long], rows: 10, environment: ["PAGER": "no-such-pager-here"])
    #expect(missing.finish() == 0)
    #expect(missing.text.contains("no-such-pager-here: not found"))
    #expect(missing.text.contains("ContentView.swift:40 "))
  }
}

extension Data {
  /// These JSON Lines with their run id replaced by one made from `number`.
  func replacingRun(with number: Int) -> Data {
    let run =
      String(repeating: "0", count: 16 - String(number, radix: 16).count)
      + String(number, radix: 16)
    return Data(
      String(decoding: self, as: UTF8.self).replacingOccurrences(
        of: #""run":"0123456789abcdef""#, with: #""run":"\#(run)""#
      ).utf8)
  }
}
