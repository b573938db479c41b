import BindingDiagnostics
import BindingDiagnosticsReport
import Testing

@Suite struct BaselineTests {
  /// Sites in three files, added out of order.
  func summary(_ sites: [(kind: MisuseKind, file: String, line: Int, events: Int)]) -> Summary {
    var aggregator = Aggregator()
    var event = sampleEvent()
    for site in sites {
      event.seq += 1
      event.kind = site.kind
      event.file = site.file
      event.line = site.line
      event.suppressed = site.events - 1
      aggregator.add(event)
    }
    return aggregator.summary()
  }

  let sites: [(kind: MisuseKind, file: String, line: Int, events: Int)] = [
    (.unwrappedReadAfterNil, "App/ContentView.swift", 42, 3),
    (.mappedBoolSetTrue, "App/ContentView.swift", 42, 11),
    (.mappedBoolSetTrue, "App/ContentView.swift", 9, 1),
    (.unwrappedWriteAfterNil, "App/Détail \"quoted\".swift", 7, 2),
    (.mappedBoolSetTrue, "App/B.swift", 100, 5),
  ]

  @Test func theFileIsSortedWithOneSitePerLine() {
    #expect(
      Baseline(summary: summary(sites)).text == #"""
        {
          "schema": 2,
          "sites": [
            {"kind": "mapped-bool-set-true", "file": "App/B.swift", "function": "body", "label": "", "line": 100, "events": 5},
            {"kind": "mapped-bool-set-true", "file": "App/ContentView.swift", "function": "body", "label": "", "line": 9, "events": 1},
            {"kind": "mapped-bool-set-true", "file": "App/ContentView.swift", "function": "body", "label": "", "line": 42, "events": 11},
            {"kind": "unwrapped-read-after-nil", "file": "App/ContentView.swift", "function": "body", "label": "", "line": 42, "events": 3},
            {"kind": "unwrapped-write-after-nil", "file": "App/Détail \"quoted\".swift", "function": "body", "label": "", "line": 7, "events": 2}
          ]
        }

        """#)
    #expect(Baseline(entries: []).text == "{\n  \"schema\": 2,\n  \"sites\": []\n}\n")
  }

  @Test func theTextDoesNotDependOnInputOrder() {
    #expect(
      Baseline(summary: summary(sites)).text == Baseline(summary: summary(sites.reversed())).text)
  }

  @Test func theTextReadsBack() throws {
    let baseline = Baseline(summary: summary(sites))
    #expect(try Baseline.parse(Array(baseline.text.utf8)).get() == baseline)
  }

  @Test(arguments: [
    ("", "invalid JSON: unexpected end of line"),
    ("[]", #"expected an object with "schema": 2 (or 1) and a "sites" array"#),
    (
      #"{"schema": 3, "sites": []}"#,
      #"expected an object with "schema": 2 (or 1) and a "sites" array"#
    ),
    (
      #"{"schema": 2, "sites": [{"kind": "k", "file": "A/B.swift", "line": 3, "events": 1}]}"#,
      #"site 1: expected "function" and "label" strings"#
    ),
    (
      #"{"schema": 1, "sites": [{"kind": "k", "file": "A/B.swift", "line": 3}]}"#,
      #"site 1: expected "kind" and "file" strings, a "line" and a count of "events""#
    ),
    (
      #"{"schema": 1, "sites": [{"kind": "k", "file": "A/B.swift", "line": 3, "events": 1},"#
        + #" {"kind": "k", "file": "A/B.swift", "line": 3, "events": 2}]}"#,
      "site 2: k at A/B.swift:3 is listed twice"
    ),
  ])
  func invalidFilesAreRefused(text: String, reason: String) {
    #expect(throws: MalformedReason(stringLiteral: reason)) {
      try Baseline.parse(Array(text.utf8)).get()
    }
  }

  @Test(arguments: [
    ("2", true), ("1", true), ("1.5", true), ("10.25", true), ("1.0001", true), ("0.5", false),
    ("0", false), ("1.", false), (".5", false), ("1.23456", false), ("-2", false), ("2x", false),
    ("", false), ("1e3", false),
  ])
  func growthFactorsAreDecimalsOfAtLeastOne(text: String, valid: Bool) {
    #expect((GrowthFactor(text) != nil) == valid)
  }

  @Test(arguments: [
    ("2", 10, 20, false), ("2", 10, 21, true), ("1.5", 3, 4, false), ("1.5", 3, 5, true),
    ("1.1", 100, 110, false), ("1.1", 100, 111, true), ("1", 7, 7, false), ("1", 7, 8, true),
    ("1000000", Int.max / 2, Int.max, false),
  ])
  func growthIsComparedExactly(factor: String, baseline: Int, current: Int, exceeded: Bool) throws {
    let factor = try #require(GrowthFactor(factor))
    #expect(factor.isExceeded(by: current, baseline: baseline) == exceeded)
  }

  @Test func comparisonFindsNewGrownAndUnseenSites() throws {
    let baseline = Baseline(summary: summary(sites))
    let now = summary([
      (.mappedBoolSetTrue, "App/ContentView.swift", 42, 30),
      (.unwrappedReadAfterNil, "App/ContentView.swift", 42, 4),
      (.mappedBoolSetTrue, "App/New.swift", 1, 2),
      (.mappedBoolSetTrue, "App/B.swift", 100, 5),
      (.unwrappedReadAfterNil, "App/A.swift", 5, 1),
    ])
    let comparison = BaselineComparison(now, baseline: baseline, maxGrowth: GrowthFactor("2"))
    #expect(
      comparison.new.map(\.site.description) == [
        "unwrapped-read-after-nil at App/A.swift:5", "mapped-bool-set-true at App/New.swift:1",
      ])
    #expect(comparison.newEvents == 3)
    #expect(
      comparison.grown.map(\.site.description) == [
        "mapped-bool-set-true at App/ContentView.swift:42"
      ])
    #expect(comparison.grown.map(\.baselineEvents) == [11])
    #expect(comparison.known == 3)
    #expect(
      comparison.unseen.map(\.description) == [
        "mapped-bool-set-true at App/ContentView.swift:9",
        "unwrapped-write-after-nil at App/Détail \"quoted\".swift:7",
      ])
    #expect(BaselineComparison(now, baseline: baseline).grown.isEmpty)
  }
}
