import BindingDiagnostics
import Foundation
import Testing

@testable import BindingDiagnosticsReport

/// The terminal table at a width: shortened, thinned, coloured, and never wider than asked.
@Suite struct TableFittingTests {
  /// Groups a person triages: long paths, labels, two hosts, several levels, folded records.
  func triageSummary() -> Summary {
    var aggregator = Aggregator()
    func add(
      _ seq: Int, _ kind: MisuseKind, _ file: String, _ line: Int, label: String?,
      host: String = "build-01", suppressed: Int = 0, at time: String = "2026-11-30T04:12:33Z"
    ) {
      var event = sampleEvent()
      event.seq = seq
      event.kind = kind
      event.level = kind.defaultLevel
      event.file = file
      event.line = line
      event.label = label
      event.host = host
      event.suppressed = suppressed
      event.timestamp = Timestamp(rfc3339: time)!
      aggregator.add(event)
    }
    add(
      1, .mappedBoolSetTrue, "InboxFeature/Sources/Views/Compose/ComposeSheetView.swift", 118,
      label: "discard-draft-confirmation", suppressed: 1_499)
    add(
      2, .unwrappedWriteAfterNil, "InboxFeature/Sources/Views/MessageDetailView.swift", 64,
      label: "message-detail", host: "build-02", at: "2026-11-30T06:40:00Z")
    add(
      3, .unwrappedReadAfterNil, "InboxFeature/Sources/Views/MessageDetailView.swift", 61,
      label: "message-detail", suppressed: 41, at: "2026-11-30T05:00:00Z")
    // seq 4 and 5 never arrived: lost.
    add(6, .mappedBoolSetTrue, "App/SettingsView.swift", 12, label: nil, host: "build-02")
    return aggregator.summary()
  }

  @Test func unlimitedWidthShowsEveryTriageColumn() {
    #expect(
      TableRenderer().render(triageSummary()) == """
        1,544 events in 4 records from 1 run, 2026-11-30 04:12:33 to 06:40:00 UTC

        LEVEL    EVENTS  RECORDS  KIND                       SITE                                                           LABEL                       PROCS  HOSTS     FIRST SEEN  LAST SEEN  TIMELINE
        error     1,500        1  mapped-bool-set-true       InboxFeature/Sources/Views/Compose/ComposeSheetView.swift:118  discard-draft-confirmation      1  build-01  04:12:33    04:12:33   █
        info         42        1  unwrapped-read-after-nil   InboxFeature/Sources/Views/MessageDetailView.swift:61          message-detail                  1  build-01  05:00:00    05:00:00     █
        error         1        1  mapped-bool-set-true       App/SettingsView.swift:12                                                                      1  build-02  04:12:33    04:12:33   █
        warning       1        1  unwrapped-write-after-nil  InboxFeature/Sources/Views/MessageDetailView.swift:64          message-detail                  1  build-02  06:40:00    06:40:00          █

        Lost records: 2 in 1 run (Demo run 0123456789abcdef on build-01: 2)
        Runs: 0 ended, 1 running, 0 stale

        """)
  }

  @Test func eightyColumnsDropTimesFirstAndNeverRewriteKindsFileNamesOrLines() {
    #expect(
      TableRenderer(width: 80).render(triageSummary()) == """
        1,544 events in 4 records from 1 run, 2026-11-30 04:12:33 to 06:40:00 UTC

        LEVEL    EVENTS  KIND                       SITE                        LABEL
        error     1,500  mapped-bool-set-true       ComposeSheetView.swift:118  discard…
        info         42  unwrapped-read-after-nil   MessageDetailView.swift:61  message…
        error         1  mapped-bool-set-true       App/SettingsView.swift:12
        warning       1  unwrapped-write-after-nil  MessageDetailView.swift:64  message…

        Lost records: 2 in 1 run (Demo run 0123456789abcdef on build-01: 2)
        Runs: 0 ended, 1 running, 0 stale

        """)
    // Wider, paths keep whole folders from the end and labels get the room left.
    #expect(
      TableRenderer(width: 100).render(triageSummary()).contains(
        """
        LEVEL    EVENTS  KIND                       SITE                          LABEL             HOSTS
        error     1,500  mapped-bool-set-true       …/ComposeSheetView.swift:118  discard-draft-c…  build-01
        """))
  }

  @Test func aCellLimitCapsEveryCellOfTextFromTheInput() {
    var aggregator = Aggregator()
    var event = sampleEvent()
    event.label = String(repeating: "l", count: 1_000_000)
    event.host = String(repeating: "h", count: 1_000)
    event.file = String(repeating: "Deep/", count: 100) + "View.swift"
    event.process = String(repeating: "p", count: 1_000)
    event.seq = 2
    aggregator.add(event)
    event.host = "other"
    event.seq = 3
    aggregator.add(event)
    let text = TableRenderer(cellLimit: 20).render(aggregator.summary())
    #expect(
      text.contains(
        "error       2        2  mapped-bool-set-true  …/Deep/View.swift:42  lllllllllllllllllll…      1  hhhhhhhhhhhhhhhhhhh…"
      ))
    for line in text.split(separator: "\n") { #expect(line.count < 200, "\(line)") }
    #expect(
      text.contains(
        "Lost records: 1 in 1 run (ppppppppppppppppppp… run 0123456789abcdef on hhhhhhhhhhhhhhhhhhh…: 1)"
      ))
  }

  @Test(arguments: [200, 120, 100, 90, 80, 72, 64, 60])
  func nothingIsWiderThanTheWidth(width: Int) {
    var random = SeededGenerator(seed: UInt64(width))
    for round in 0..<40 {
      var aggregator = Aggregator(
        groupBy: round % 3 == 0 ? [.kind, .host, .function] : [.kind, .file, .line])
      for seq in 1...(1 + round % 12) {
        var event = randomEvent(&random, seq: seq, run: "00000000000000aa")
        if round % 2 == 0 { event.file = String(repeating: "Deep/", count: 12) + event.file }
        aggregator.add(event)
      }
      let text = TableRenderer(top: nil, width: width).render(aggregator.summary())
      for line in text.split(separator: "\n") {
        #expect(TextFitting.width(String(line)) <= width, "\(width): \(line)")
      }
    }
  }

  @Test func coloursFollowJournalctlAndDoNotMoveColumns() {
    let summary = triageSummary()
    let plain = TableRenderer(width: 100).render(summary)
    let coloured = TableRenderer(width: 100, color: true).render(summary)
    #expect(coloured != plain)
    #expect(
      coloured.replacingOccurrences(
        of: "\u{1b}\\[[0-9;]*m", with: "", options: .regularExpression) == plain)
    #expect(coloured.contains("\u{1b}[0;1;31merror\u{1b}[0m"))
    #expect(coloured.contains("\u{1b}[0;1;38;5;185mwarning\u{1b}[0m"))
    #expect(coloured.contains("\u{1b}[0;1;31mLost records: 2 in 1 run"))
    #expect(TerminalColor.sequence(for: .notice) == "\u{1b}[0;1;39m")
    #expect(TerminalColor.sequence(for: .info) == nil)
    #expect(TerminalColor.sequence(for: .debug) == "\u{1b}[0;38;5;245m")
    #expect(TerminalColor.sequence(for: .critical) == "\u{1b}[0;1;31m")
  }

  @Test func shorteningKeepsWhatIdentifies() {
    #expect(
      TextFitting.keepingEnd("App/Views/ContentView.swift:42", 22) == "…/ContentView.swift:42")
    #expect(TextFitting.keepingStart("discard-draft-confirmation", 14) == "discard-draft…")
    #expect(TextFitting.keepingEnd("short", 10) == "short")
    #expect(
      TextFitting.keepingPathEnd("InboxKit/Sources/InboxModel.swift:29", 30)
        == "…/Sources/InboxModel.swift:29")
    #expect(
      TextFitting.keepingPathEnd("InboxKit/Sources/InboxModel.swift:29", 20)
        == "InboxModel.swift:29")
    #expect(TextFitting.keepingPathEnd("InboxKit/InboxModel.swift:29", 10) == "….swift:29")
    #expect(TextFitting.width("日本語.swift") == 12)
    #expect(TextFitting.keepingEnd("App/日本語.swift", 10) == "…語.swift")
  }

  @Test func progressTextSaysHowFarAndHowFast() {
    let file = InputReader.Progress(
      source: "app.jsonl", bytes: 120 << 20, size: 480 << 20, events: 600_000)
    #expect(
      ProgressText.line(file, source: (2, 3), events: 1_000_000, seconds: 2, width: 200)
        == "reading app.jsonl (2 of 3): 120.0 of 480.0 MiB (25 %), 1,000,000 events, 500,000 events/s"
    )
    let pipe = InputReader.Progress(source: "<stdin>", bytes: 1_572_864, size: nil, events: 1)
    #expect(
      ProgressText.line(pipe, source: (1, 1), events: 1, seconds: 0.5, width: 200)
        == "reading <stdin>: 1.5 MiB, 1 event, 2 events/s")
    let journal = InputReader.Progress(source: "journal", bytes: nil, size: nil, events: 4096)
    #expect(
      ProgressText.line(journal, source: (1, 1), events: 4096, seconds: 1, width: 30)
        == "reading journal: 4,096 events…")
  }

  @Test func numbersAndCountsHaveOneForm() {
    #expect(HumanText.number(0) == "0")
    #expect(HumanText.number(999) == "999")
    #expect(HumanText.number(1_234_567) == "1,234,567")
    #expect(HumanText.count(1, "run") == "1 run")
    #expect(HumanText.count(2, "run") == "2 runs")
    #expect(HumanText.count(1_000, "event") == "1,000 events")
    #expect(HumanText.mebibytes(0) == "0.0 MiB")
    #expect(HumanText.mebibytes(3 << 19) == "1.5 MiB")
  }
}
