import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// Records from tests carry `test` (the test that ran) and `writer` (the line that misused the
/// binding): `--group-by test` and `--group-by writer` group by them, in every format that
/// prints a key; the CI formats still key on the site that made the binding and name its
/// writers and its count.
@Suite struct BindiagTestAndWriterTests {
  /// One site (the model's getter, line 18) misused from two writers in three tests, and a
  /// site whose records carry neither field.
  static let events: [MisuseEvent] = [
    fixtureEvent(
      seq: 1, file: "InboxKit/InboxModel.swift", line: 18, suppressed: 4,
      test: "InboxTests/tapping(times: 5)", writer: "InboxKit/InboxModel.swift:35"),
    fixtureEvent(
      seq: 2, file: "InboxKit/InboxModel.swift", line: 18,
      test: "InboxTests/tapping(times: 1)", writer: "InboxKit/InboxModel.swift:35"),
    fixtureEvent(
      seq: 3, file: "InboxKit/InboxModel.swift", line: 18, at: "2026-11-30T04:12:34.000000Z",
      suppressed: 1, test: "InboxTests/swipe()", writer: "InboxKit/InboxView.swift:61"),
    fixtureEvent(seq: 4, kind: .unwrappedWriteAfterNil, file: "App/Detail.swift", line: 7),
  ]

  /// The fixture as contract JSON Lines (the reader's fast path).
  private func jsonFixture() throws -> String {
    try writeFixture(jsonLines(Self.events))
  }

  /// The fixture as the standard-error sink's logfmt lines (the reader's exact path).
  private func logfmtFixture() throws -> String {
    try writeFixture(
      Self.events.map { String(decoding: LogfmtEncoder().encode($0), as: UTF8.self) }.joined(),
      name: "events.log")
  }

  @Test func groupByTestKeysEachGroupOnTheTestThatRan() throws {
    for path in [try jsonFixture(), try logfmtFixture()] {
      let json = try bindiag("summary", "--group-by", "test", "--format", "json", path)
      #expect(json.status == 0)
      #expect(json.stderr == "")
      let keys = json.stdout.components(separatedBy: #"{"key":"#).dropFirst().map {
        String($0.prefix { $0 != "}" })
      }.filter { $0.hasPrefix(#"{"test":"#) }
      #expect(
        keys == [
          #"{"test":"InboxTests/tapping(times: 5)""#, #"{"test":"InboxTests/swipe()""#,
          #"{"test":"""#, #"{"test":"InboxTests/tapping(times: 1)""#,
        ])
      #expect(json.stdout.contains(#""group_by":["test"],"#))
      let table = try bindiag("summary", "--group-by", "kind,test", path)
      #expect(table.status == 0)
      #expect(table.stderr == "")
      #expect(
        table.stdout == """
          9 events in 4 records from 1 run, 2026-11-30 04:12:33 to 04:12:34 UTC

          LEVEL    EVENTS  RECORDS  KIND                       TEST                          PROCS  FIRST SEEN  LAST SEEN  TIMELINE
          error         5        1  mapped-bool-set-true       InboxTests/tapping(times: 5)      1  04:12:33    04:12:33   █
          error         2        1  mapped-bool-set-true       InboxTests/swipe()                1  04:12:34    04:12:34          █
          error         1        1  mapped-bool-set-true       InboxTests/tapping(times: 1)      1  04:12:33    04:12:33   █
          warning       1        1  unwrapped-write-after-nil                                    1  04:12:33    04:12:33   █

          Lost records: 0
          Runs: 0 ended, 1 running, 0 stale

          """)
    }
  }

  @Test func groupByWriterKeysEachGroupOnTheLineThatMisused() throws {
    let path = try jsonFixture()
    let csv = try bindiag("summary", "--group-by", "writer", "--format", "csv", path)
    #expect(csv.status == 0)
    #expect(csv.stderr == "")
    #expect(
      csv.stdout.components(separatedBy: "\r\n") == [
        "events,records,writer,first,last,processes,hosts,value_types,labels,critical,error,warning,notice,info,debug,trace",
        "6,2,InboxKit/InboxModel.swift:35,2026-11-30T04:12:33.123456Z,2026-11-30T04:12:33.123456Z,Demo,build-01,Swift.Optional<Swift.String>,,0,6,0,0,0,0,0",
        "2,1,InboxKit/InboxView.swift:61,2026-11-30T04:12:34.000000Z,2026-11-30T04:12:34.000000Z,Demo,build-01,Swift.Optional<Swift.String>,,0,2,0,0,0,0,0",
        "1,1,,2026-11-30T04:12:33.123456Z,2026-11-30T04:12:33.123456Z,Demo,build-01,Swift.Optional<Swift.String>,,0,0,1,0,0,0,0",
        "",
      ])
    let markdown = try bindiag("summary", "--group-by", "writer", "--format", "markdown", path)
    #expect(markdown.status == 0)
    #expect(
      markdown.stdout.contains(
        "| 6 | 2 | `InboxKit/InboxModel.swift:35` | 2026-11-30T04:12:33Z | 2026-11-30T04:12:33Z | `Demo` |  |\n"
      ))
    #expect(
      markdown.stdout.contains(
        "| 1 | 1 | `` | 2026-11-30T04:12:33Z | 2026-11-30T04:12:33Z | `Demo` |  |\n"))
    let prometheus = try bindiag(
      "summary", "--group-by", "writer", "--format", "prometheus", path)
    #expect(prometheus.status == 0)
    #expect(
      prometheus.stdout.contains(
        #"bindiag_events_total{writer="InboxKit/InboxModel.swift:35",host="build-01"} 6"#))
    #expect(prometheus.stdout.contains(#"bindiag_events_total{writer="",host="build-01"} 1"#))
    let html = try bindiag("summary", "--group-by", "writer", "--format", "html", path)
    #expect(html.status == 0)
    #expect(
      html.stdout.contains(
        #"<td class="key writer"><code><span>InboxKit/InboxModel.swift:35</span></code></td>"#))
    let table = try bindiag("summary", "--group-by", "site,writer", path)
    #expect(table.status == 0)
    #expect(
      table.stdout.contains(
        """
        LEVEL    EVENTS  RECORDS  KIND                       SITE                          WRITER                        PROCS  FIRST SEEN  LAST SEEN  TIMELINE
        error         6        2  mapped-bool-set-true       InboxKit/InboxModel.swift:18  InboxKit/InboxModel.swift:35      1  04:12:33    04:12:33   █
        error         2        1  mapped-bool-set-true       InboxKit/InboxModel.swift:18  InboxKit/InboxView.swift:61       1  04:12:34    04:12:34          █
        warning       1        1  unwrapped-write-after-nil  App/Detail.swift:7                                              1  04:12:33    04:12:33   █

        """))
  }

  @Test func checkGatesOnGroupsByTest() throws {
    let result = try bindiag("check", "--group-by", "test", "--max-events", "7", try jsonFixture())
    #expect(result.status == 3)
    #expect(result.stdout.contains("  TEST  "))
  }

  @Test func ciFormatsKeyOnTheSiteAndNameItsWritersAndCount() throws {
    let path = try jsonFixture()
    let gcc = try bindiag("summary", "--format", "gcc", path)
    #expect(gcc.status == 0)
    #expect(
      gcc.stderr
        == "warning: 2 #fileIDs are not files here (such as App/Detail.swift); --source-root DIR finds their files\n"
    )
    #expect(
      gcc.stdout == """
        InboxKit/InboxModel.swift:18:1: error: A Binding<Bool> mapped from an optional was set to true: 8 events in 3 records, called from InboxKit/InboxModel.swift:35, InboxKit/InboxView.swift:61, first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:34 UTC. [mapped-bool-set-true]
        InboxKit/InboxModel.swift:35:1: note: called from here [mapped-bool-set-true]
        InboxKit/InboxView.swift:61:1: note: called from here [mapped-bool-set-true]
        App/Detail.swift:7:1: warning: A binding unwrapped from an optional was written after it became nil: 1 event in 1 record, first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC. [unwrapped-write-after-nil]

        """)
    let github = try bindiag("summary", "--format", "github", path)
    #expect(github.status == 0)
    #expect(
      github.stdout == """
        ::error file=InboxKit/InboxModel.swift,line=18,title=mapped-bool-set-true (bindiag)::A Binding<Bool> mapped from an optional was set to true: 8 events in 3 records, called from InboxKit/InboxModel.swift:35, InboxKit/InboxView.swift:61, first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:34 UTC.
        ::warning file=App/Detail.swift,line=7,title=unwrapped-write-after-nil (bindiag)::A binding unwrapped from an optional was written after it became nil: 1 event in 1 record, first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC.

        """)
    let junit = try bindiag("check", "--format", "junit", path)
    #expect(junit.status == 3)
    #expect(
      junit.stdout.contains(
        """
            <testcase name="mapped-bool-set-true at InboxKit/InboxModel.swift:18" classname="InboxKit/InboxModel.swift" file="InboxKit/InboxModel.swift" line="18" time="0">
              <failure type="mapped-bool-set-true" message="A Binding&lt;Bool&gt; mapped from an optional was set to true: 8 events in 3 records, called from InboxKit/InboxModel.swift:35, InboxKit/InboxView.swift:61, first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:34 UTC.">8 counted (warning and above), 9 in all (--max-events 0)</failure>
            </testcase>

        """))
  }

  /// With `--source-root`, `github` and `junit` name each writer by its path under the root, as
  /// `gcc` points its notes at it; a writer whose file is not found there is named as recorded.
  @Test func githubAndJUnitNameWritersByTheirPathUnderTheSourceRoot() throws {
    let root = try temporaryTree([
      "Sources/InboxKit/InboxModel.swift", "Sources/InboxKit/InboxView.swift",
      "Sources/App/Detail.swift",
    ])
    let gone = fixtureEvent(
      seq: 5, file: "InboxKit/InboxModel.swift", line: 18, writer: "InboxKit/Gone.swift:9")
    let path = try writeFixture(jsonLines(Self.events + [gone]))
    let warning =
      "warning: cannot resolve InboxKit/Gone.swift under \(root): no file named Gone.swift; reported as the file ID\n"
    let writers =
      "called from InboxKit/Gone.swift:9, Sources/InboxKit/InboxModel.swift:35, Sources/InboxKit/InboxView.swift:61"
    let gcc = try launchedBindiag("summary", "--format", "gcc", "--source-root", root, path)
    #expect(gcc.stderr == warning)
    #expect(
      gcc.stdout.hasSuffix(
        """
        InboxKit/Gone.swift:9:1: note: called from here [mapped-bool-set-true]
        Sources/InboxKit/InboxModel.swift:35:1: note: called from here [mapped-bool-set-true]
        Sources/InboxKit/InboxView.swift:61:1: note: called from here [mapped-bool-set-true]
        Sources/App/Detail.swift:7:1: warning: A binding unwrapped from an optional was written after it became nil: 1 event in 1 record, first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC. [unwrapped-write-after-nil]

        """), "\(gcc.stdout)")
    let github = try launchedBindiag("summary", "--format", "github", "--source-root", root, path)
    #expect(github.status == 0)
    #expect(github.stderr == warning)
    #expect(
      github.stdout == """
        ::error file=Sources/InboxKit/InboxModel.swift,line=18,title=mapped-bool-set-true (bindiag)::A Binding<Bool> mapped from an optional was set to true: 9 events in 4 records, \(writers), first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:34 UTC.
        ::warning file=Sources/App/Detail.swift,line=7,title=unwrapped-write-after-nil (bindiag)::A binding unwrapped from an optional was written after it became nil: 1 event in 1 record, first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC.

        """)
    let junit = try launchedBindiag("check", "--format", "junit", "--source-root", root, path)
    #expect(junit.status == 3)
    #expect(junit.stderr.hasPrefix(warning))
    #expect(
      junit.stdout.contains(
        """
            <testcase name="mapped-bool-set-true at InboxKit/InboxModel.swift:18" classname="InboxKit/InboxModel.swift" file="Sources/InboxKit/InboxModel.swift" line="18" time="0">
              <failure type="mapped-bool-set-true" message="A Binding&lt;Bool&gt; mapped from an optional was set to true: 9 events in 4 records, \(writers), first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:34 UTC.">9 counted (warning and above), 10 in all (--max-events 0)</failure>
            </testcase>

        """), "\(junit.stdout)")
  }

  @Test func manyWritersAreNamedAFewAtATime() throws {
    let events = (1...5).map { index in
      fixtureEvent(seq: index, writer: "App/Row\(index).swift:\(index)")
    }
    let gcc = try bindiag("summary", "--format", "gcc", try writeFixture(jsonLines(events)))
    #expect(
      gcc.stdout == """
        App/ContentView.swift:42:1: error: A Binding<Bool> mapped from an optional was set to true: 5 events in 5 records, called from App/Row1.swift:1, App/Row2.swift:2, App/Row3.swift:3 and 2 more, first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC. [mapped-bool-set-true]
        App/Row1.swift:1:1: note: called from here [mapped-bool-set-true]
        App/Row2.swift:2:1: note: called from here [mapped-bool-set-true]
        App/Row3.swift:3:1: note: called from here [mapped-bool-set-true]

        """)
  }

  @Test func sarifRelatesEachResultToItsWriters() throws {
    let root = try temporaryTree([
      "Sources/InboxKit/InboxModel.swift", "Sources/InboxKit/InboxView.swift",
      "Sources/App/Detail.swift",
    ])
    let result = try bindiag(
      "summary", "--format", "sarif", "--source-root", root, try jsonFixture())
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let log = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let runs = try #require(log["runs"] as? [[String: Any]])
    let results = try #require(runs.first?["results"] as? [[String: Any]])
    #expect(results.count == 2)
    func uri(_ location: [String: Any]) -> String? {
      ((location["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?[
        "uri"] as? String
    }
    func line(_ location: [String: Any]) -> Int? {
      ((location["physicalLocation"] as? [String: Any])?["region"] as? [String: Any])?[
        "startLine"] as? Int
    }
    let inbox = results[0]
    let location = try #require((inbox["locations"] as? [[String: Any]])?.first)
    #expect(uri(location) == "Sources/InboxKit/InboxModel.swift")
    #expect(line(location) == 18)
    let related = try #require(inbox["relatedLocations"] as? [[String: Any]])
    #expect(
      related.map(uri) == ["Sources/InboxKit/InboxModel.swift", "Sources/InboxKit/InboxView.swift"])
    #expect(related.map(line) == [35, 61])
    #expect(related.map { $0["id"] as? Int } == [0, 1])
    #expect(
      related.map { ($0["message"] as? [String: Any])?["text"] as? String } == [
        "called from InboxKit/InboxModel.swift:35", "called from InboxKit/InboxView.swift:61",
      ])
    #expect(inbox["occurrenceCount"] as? Int == 8)
    let properties = try #require(inbox["properties"] as? [String: Any])
    #expect(properties["events"] as? Int == 8)
    #expect(
      properties["writers"] as? [String] == [
        "InboxKit/InboxModel.swift:35", "InboxKit/InboxView.swift:61",
      ])
    // The site without a writer has neither.
    #expect(results[1]["relatedLocations"] == nil)
    #expect((results[1]["properties"] as? [String: Any])?["writers"] == nil)

    guard schemaValidatorAvailable else { return }
    let sarif = try temporaryFile(result.stdout, name: "writers.sarif")
    let validation = try runProduct(
      executableInPath("python3")!, ["-c", validateSARIF, sarifSchemaPath, sarif])
    #expect(validation.stdout == "valid\n")
    #expect(validation.status == 0)
  }

  @Test(.enabled(if: sarifTools != nil, "sarif-tools not installed (pip install sarif-tools)"))
  func sarifToolsReadsTheWritersBack() throws {
    let result = try bindiag("summary", "--format", "sarif", try jsonFixture())
    let directory = try temporaryDirectory()
    let sarifPath = directory + "/writers.sarif"
    try result.stdout.write(toFile: sarifPath, atomically: true, encoding: .utf8)
    let csvPath = directory + "/writers.csv"
    let csv = try runProduct(sarifTools!, ["csv", "--output", csvPath, sarifPath])
    #expect(csv.status == 0)
    #expect(
      try String(contentsOfFile: csvPath, encoding: .utf8) == """
        Tool,Severity,Code,Description,Location,Line
        bindiag,error,mapped-bool-set-true,"A Binding<Bool> mapped from an optional was set to true: 8 events in 3 records, called from InboxKit/InboxModel.swift:35, InboxKit/InboxView.swift:61, first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:34 UTC.",InboxKit/InboxModel.swift,18
        bindiag,warning,unwrapped-write-after-nil,"A binding unwrapped from an optional was written after it became nil: 1 event in 1 record, first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC.",App/Detail.swift,7

        """)
  }
}

/// A writer is text from the input like any other: it never steers an editor to a line of its
/// choosing, never reaches a terminal raw, and keeps SARIF valid.
@Suite struct BindiagHostileWriterTests {
  let path: String

  init() throws {
    let writers = [
      "../../../etc/passwd:3", "App/red\u{1b}[31m.swift:4", "src/main.c:1:1: error: fake:9",
      "no line", "App/Fine.swift:12",
    ]
    path = try writeFixture(
      jsonLines(
        writers.enumerated().map { index, writer in
          fixtureEvent(seq: index + 1, writer: writer)
        }))
  }

  @Test func gccNotesOnlyPlainPaths() throws {
    let gcc = try bindiag("summary", "--format", "gcc", "--top", "1", path)
    #expect(gcc.status == 0)
    #expect(
      gcc.stdout == """
        App/ContentView.swift:42:1: error: A Binding<Bool> mapped from an optional was set to true: 5 events in 5 records, called from ../../../etc/passwd:3, App/Fine.swift:12, App/red\\u001b[31m.swift:4 and 2 more, first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC. [mapped-bool-set-true]
        App/Fine.swift:12:1: note: called from here [mapped-bool-set-true]
        App/red\\u001b[31m.swift:4:1: note: called from here [mapped-bool-set-true]

        """)
  }

  @Test(
    .enabled(
      if: schemaValidatorAvailable,
      "Python jsonschema and rfc3986-validator not installed (pip install jsonschema rfc3986-validator)"
    ))
  func sarifStaysValid() throws {
    let result = try bindiag(
      "summary", "--format", "sarif", "--source-root", try temporaryDirectory(), path)
    #expect(result.status == 0)
    #expect(result.stdout.contains(#""name": "../../../etc/passwd""#))
    let sarif = try temporaryFile(result.stdout, name: "hostile-writers.sarif")
    let validation = try runProduct(
      executableInPath("python3")!, ["-c", validateSARIF, sarifSchemaPath, sarif])
    #expect(validation.stdout == "valid\n")
  }
}
