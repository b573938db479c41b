import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// What a developer triaging reports reads: the columns that help, times in their zone,
/// colours only where asked, a table that fits, and small things said right.
@Suite struct BindiagTriageTests {
  /// Two call sites on two hosts, labelled, one record folding ten misuses, one record lost.
  let events: [MisuseEvent] = {
    var first = fixtureEvent(seq: 1)
    first.label = "save-alert"
    var folded = fixtureEvent(seq: 2, suppressed: 9, host: "build-02")
    folded.label = "save-alert"
    // At warning, above the kind's default (info), as an app may report it: a third colour.
    let detail = fixtureEvent(
      seq: 4, kind: .unwrappedReadAfterNil, level: .warning,
      file: "Packages/InboxFeature/Sources/InboxFeature/Views/MessageDetailView.swift", line: 7,
      at: "2026-11-30T05:00:00.000000Z")
    return [first, folded, detail]
  }()

  @Test func labelsAndHostsAreShownWhenTheyHelp() throws {
    let path = try writeFixture(jsonLines(events))
    let result = try bindiag("summary", path)
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(
      result.stdout == """
        12 events in 3 records from 1 run, 2026-11-30 04:12:33 to 05:00:00 UTC

        LEVEL    EVENTS  RECORDS  KIND                      SITE                                                                        LABEL       PROCS  HOSTS               FIRST SEEN  LAST SEEN  TIMELINE
        error        11        2  mapped-bool-set-true      App/ContentView.swift:42                                                    save-alert      1  build-01, build-02  04:12:33    04:12:33   █
        warning       1        1  unwrapped-read-after-nil  Packages/InboxFeature/Sources/InboxFeature/Views/MessageDetailView.swift:7                  1  build-01            05:00:00    05:00:00          █

        Lost records: 1 in 1 run (Demo run 0123456789abcdef on build-01: 1)
        Runs: 0 ended, 1 running, 0 stale

        """)
    // One host: no HOSTS column; no label anywhere: no LABEL column.
    let single = try bindiag("summary", try writeFixture(jsonLines([fixtureEvent(seq: 1)])))
    #expect(
      single.stdout.contains(
        "LEVEL  EVENTS  RECORDS  KIND                  SITE                      PROCS  FIRST SEEN  LAST SEEN  TIMELINE\n"
      ))
  }

  @Test func timesAreLocalByDefaultAndUTCWithTheFlag() throws {
    let path = try writeFixture(jsonLines(events))
    let local = try bindiag(arguments: ["summary", path], environment: ["TZ": "XYZ-5:30"])
    #expect(
      local.stdout.hasPrefix(
        "12 events in 3 records from 1 run, 2026-11-30 09:42:33 to 10:30:00 XYZ\n"))
    #expect(local.stdout.contains("  09:42:33    09:42:33  "))
    let utc = try bindiag(arguments: ["summary", "--utc", path], environment: ["TZ": "XYZ-5:30"])
    #expect(
      utc.stdout.hasPrefix(
        "12 events in 3 records from 1 run, 2026-11-30 04:12:33 to 05:00:00 UTC\n"))
    // Spanning days, cells carry the date: `12-01 00:00:00`.
    let late = try writeFixture(
      jsonLines([fixtureEvent(seq: 1, at: "2026-11-30T18:30:00Z"), fixtureEvent(seq: 2)]))
    let days = try bindiag(arguments: ["summary", late], environment: ["TZ": "XYZ-5:30"])
    #expect(
      days.stdout.hasPrefix(
        "2 events in 2 records from 1 run, 2026-11-30 09:42:33 to 2026-12-01 00:00:00 XYZ\n"))
    #expect(days.stdout.contains("  11-30 09:42:33  12-01 00:00:00  "))
  }

  @Test(arguments: ["json", "csv", "markdown"])
  func machineFormatsWriteISO8601InUTCWhateverTheZone(format: String) throws {
    let path = try writeFixture(jsonLines(events))
    let utc = try bindiag(arguments: ["summary", "--format", format, path])
    let local = try bindiag(
      arguments: ["summary", "--format", format, path], environment: ["TZ": "XYZ-5:30"])
    #expect(utc.stdout == local.stdout)
    #expect(
      local.stdout.contains(
        format == "markdown" ? "2026-11-30T04:12:33Z" : "2026-11-30T04:12:33.123456Z"))
  }

  @Test func theTableFitsEightyColumns() throws {
    let path = try writeFixture(jsonLines(events))
    let result = try bindiag(arguments: ["summary", path], environment: ["COLUMNS": "80"])
    #expect(
      result.stdout == """
        12 events in 3 records from 1 run, 2026-11-30 04:12:33 to 05:00:00 UTC

        LEVEL    EVENTS  KIND                      SITE                       LABEL
        error        11  mapped-bool-set-true      App/ContentView.swift:42   save-alert
        warning       1  unwrapped-read-after-nil  MessageDetailView.swift:7

        Lost records: 1 in 1 run (Demo run 0123456789abcdef on build-01: 1)
        Runs: 0 ended, 1 running, 0 stale

        """)
    for line in result.stdout.split(separator: "\n") { #expect(line.count <= 80) }
  }

  @Test func colourOnlyWhereAsked() throws {
    let path = try writeFixture(jsonLines(events))
    let piped = try bindiag("summary", path)
    #expect(!piped.stdout.contains("\u{1b}"))
    let always = try bindiag(arguments: ["summary", "--color", "always", path])
    #expect(always.stdout.contains("\u{1b}[0;1;31merror\u{1b}[0m"))
    #expect(always.stdout.contains("\u{1b}[0;1;38;5;185mwarning\u{1b}[0m"))
    #expect(always.stdout.contains("\u{1b}[0;1;31mLost records: 1 in 1 run"))
    // An explicit --color=always beats NO_COLOR (no-color.org); never is never.
    let forced = try bindiag(
      arguments: ["summary", "--color=always", path], environment: ["NO_COLOR": "1"])
    #expect(forced.stdout == always.stdout)
    let never = try bindiag(arguments: ["summary", "--color=never", path])
    #expect(never.stdout == piped.stdout)
    let bad = try bindiag(arguments: ["summary", "--color", "sometimes", path])
    #expect(bad.status == 64)
    #expect(
      bad.stderr.hasPrefix(
        "Error: The value 'sometimes' is invalid for '--color': expected auto, always or never\n"))
    // Machine formats never carry colour.
    let json = try bindiag(arguments: ["summary", "--color=always", "--format", "json", path])
    #expect(!json.stdout.contains("\u{1b}"))
  }

  @Test func oneOfAnythingIsSingular() throws {
    let path = try writeFixture(jsonLines([fixtureEvent(seq: 1), fixtureEvent(seq: 3)]))
    let table = try bindiag("summary", path)
    #expect(table.stdout.hasPrefix("2 events in 2 records from 1 run, "))
    #expect(table.stdout.contains("\nLost records: 1 in 1 run (Demo run 0123456789abcdef on build-01: 1)\n"))
    let markdown = try bindiag("summary", "--format", "markdown", path)
    #expect(markdown.stdout.contains("**2** events in 2 records from 1 run · lost records: 1 ·"))
    let check = try bindiag("check", "--max-events", "1", path)
    #expect(
      check.stderr == "check failed: 2 events (--max-events 1), 1 lost record (--max-lost 0)\n")
    let one = try bindiag(
      "check", "--max-lost", "1", try writeFixture(jsonLines([fixtureEvent(seq: 1)])))
    #expect(one.stderr == "check failed: 1 event (--max-events 0)\n")
    #expect(
      try bindiag("summary", try writeFixture(jsonLines([fixtureEvent(seq: 1)]))).stdout
        .hasPrefix("1 event in 1 record from 1 run, "))
    let malformed = try writeFixture(String(repeating: "{broken\n", count: 11))
    #expect(
      try bindiag("summary", "--format", "json", malformed).stderr
        .hasSuffix("warning: 1 more malformed line not shown\n"))
  }

  @Test func numbersAreGroupedTheSameWayInEveryHumanFormat() throws {
    let path = try writeFixture(jsonLines([fixtureEvent(seq: 1, suppressed: 1_233)]))
    let table = try bindiag("summary", path)
    #expect(table.stdout.hasPrefix("1,234 events in 1 record from 1 run, "))
    #expect(table.stdout.contains("\nerror   1,234        1  mapped-bool-set-true  "))
    let markdown = try bindiag("summary", "--format", "markdown", path)
    #expect(markdown.stdout.contains("**1,234** events in 1 record from 1 run"))
    #expect(markdown.stdout.contains("| 1,234 | 1 | `mapped-bool-set-true` |"))
    let check = try bindiag("check", path)
    #expect(check.stderr == "check failed: 1,234 events (--max-events 0)\n")
    let html = try bindiag("summary", "--format", "html", path)
    #expect(html.stdout.contains("<b>1,234</b> events"))
    // Machine formats: plain digits.
    #expect(try bindiag("summary", "--format", "json", path).stdout.contains(#""events":1234,"#))
    #expect(try bindiag("summary", "--format", "csv", path).stdout.contains("\r\n1234,1,"))
  }

  @Test(arguments: ["", "summary", "check", "follow", "demo", "catalog", "completions", "manpage"])
  func helpSectionsAreSeparatedByBlankLinesAndFitEightyColumns(command: String) throws {
    let result = try bindiag(arguments: command.isEmpty ? ["--help"] : ["help", command])
    let lines = result.stdout.components(separatedBy: "\n")
    for (index, line) in lines.enumerated() {
      #expect(line.count <= 80, "\(line)")
      #expect(!line.hasSuffix(" "), "\(line)")
      // A section heading (`FILTERS:`, `EXIT CODES:`) follows a blank line.
      let heading = line.prefix(while: { $0 != ":" })
      let isHeading =
        line.contains(":") && heading.first?.isUppercase == true
        && heading.allSatisfy { $0.isUppercase || $0 == " " }
      if index > 0 && isHeading {
        #expect(lines[index - 1].isEmpty, "no blank line before \(line)")
      }
    }
    #expect(result.stdout.hasSuffix("\n") && !result.stdout.hasSuffix("\n\n\n"))
  }

  @Test func jsonGroupsHaveTheirHistogramWithFoldedCounts() throws {
    let path = try writeFixture(jsonLines(events))
    let result = try bindiag("summary", "--format", "json", path)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let groups = try #require(object["groups"] as? [[String: Any]])
    #expect(groups.count == 2)
    for group in groups {
      let histogram = try #require(group["histogram"] as? [Int])
      #expect(histogram.count == 8)
      // Every event is in a bin, the nine folded into one record included.
      #expect(histogram.reduce(0, +) == group["events"] as? Int)
    }
    #expect(groups[0]["events"] as? Int == 11)
  }
}

/// The process name is the one journald tools use (`SYSLOG_IDENTIFIER`): the basename of
/// argv[0], never the kernel's 15-byte `comm`.
@Suite struct BindiagProcessNameTests {
  /// Runs the misuse helper under `name` (a symbolic link, so argv[0] ends in it) with
  /// `sinks`, misusing `count` times.
  func runHelper(named name: String, sinks: String, count: Int) throws {
    let directory = try temporaryDirectory()
    let link = directory + "/" + name
    try FileManager.default.createSymbolicLink(
      atPath: link,
      withDestinationPath: productsDirectory().appendingPathComponent("misuse-helper").path)
    let result = try runProduct(
      link, [String(count)],
      environment: ["BINDING_DIAGNOSTICS": sinks, "BINDING_DIAGNOSTICS_RATE_LIMIT": "off"])
    #expect(result.status == 0, "\(result.stderr)")
  }

  @Test func longNamesAreNotCut() throws {
    let name = "BindingBenchmarksLongHelper"
    let path = try temporaryDirectory() + "/events.jsonl"
    try runHelper(named: name, sinks: "jsonl:\(path)", count: 3)
    let result = try bindiag("summary", "--format", "json", "--process", name, path)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["events"] as? Int == 3)
    let group = try #require((object["groups"] as? [[String: Any]])?.first)
    #expect(group["processes"] as? [String] == [name])
  }

  /// In a journald of the test's own, never the machine's.
  @Test(
    .enabled(if: PrivateJournal.unavailability == nil, "\(PrivateJournal.unavailability ?? "")"))
  func journalctlAndBindiagFindLongNamesInTheJournal() throws {
    let name = "BindingBenchmarksJournal" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
    let link = try temporaryDirectory() + "/" + name
    try FileManager.default.createSymbolicLink(
      atPath: link,
      withDestinationPath: productsDirectory().appendingPathComponent("misuse-helper").path)
    let journal = try PrivateJournal(
      running: [link, "3"],
      environment: ["BINDING_DIAGNOSTICS": "journald", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off"])
    #expect(journal.output.status == 0, "\(journal.output.stderr)")
    let found = try runProduct(
      "/usr/bin/env",
      ["journalctl", "--no-pager", "-o", "cat", "-D", journal.directory, "-t", name]
    ).stdout.split(separator: "\n")
    #expect(found.count == 4)  // its 3 misuse records and its run-end
    let result = try bindiag(
      "summary", "--journal-dir", journal.directory, "--process", name, "--format", "json")
    #expect(result.stdout.contains(#""events":3,"records":3,"#), "\(result.stdout)")
  }
}
