import BindingDiagnostics
import BindingDiagnosticsReport
import Testing

/// One verdict decides `check`'s outcome and the JUnit report's failures: they agree on every
/// kind of input `check` gates on, and the report's failure texts are the verdict's.
@Suite struct CheckVerdictTests {
  static func event(
    seq: Int, kind: MisuseKind = .unwrappedWriteAfterNil, line: Int = 42, suppressed: Int = 0
  ) -> MisuseEvent {
    var event = sampleEvent()
    event.kind = kind
    event.level = kind.defaultLevel
    event.seq = seq
    event.line = line
    event.suppressed = suppressed
    return event
  }

  /// The summary of `events` as `check` reads them: filtered at `level`.
  static func summary(_ events: [MisuseEvent], level: MisuseLevel = .warning) -> Summary {
    var filter = EventFilter()
    filter.minimumLevel = level
    var aggregator = Aggregator(filter: filter)
    for event in events { aggregator.add(event) }
    return aggregator.summary()
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var events: [MisuseEvent]
    var level: MisuseLevel = .warning
    var thresholds = CheckVerdict.Thresholds()
    var baseline: [MisuseEvent]?
    var maxGrowth: String?
    var outcome: CheckVerdict.Outcome
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "nothing", events: [], outcome: .passed),
    Case(
      name: "within --max-events", events: [event(seq: 1)],
      thresholds: .init(maxEvents: 1), outcome: .passed),
    Case(
      name: "below the level", events: [event(seq: 1, kind: .unwrappedReadAfterNil)],
      outcome: .passed),
    Case(
      name: "fail by level", events: [event(seq: 1, kind: .unwrappedReadAfterNil)], level: .info,
      thresholds: .init(failingLevel: .info), outcome: .crossed),
    Case(
      name: "fail by count", events: [event(seq: 1), event(seq: 2, line: 7)], outcome: .crossed),
    Case(
      name: "lost records", events: [event(seq: 1), event(seq: 3)],
      thresholds: .init(maxEvents: 10), outcome: .crossed),
    Case(
      name: "lost records allowed", events: [event(seq: 1), event(seq: 3)],
      thresholds: .init(maxEvents: 10, maxLost: 1), outcome: .passed),
    Case(
      name: "baseline knows the site", events: [event(seq: 1)], baseline: [event(seq: 1)],
      outcome: .passed),
    Case(
      name: "fail by baseline", events: [event(seq: 1), event(seq: 2, kind: .mappedBoolSetTrue)],
      baseline: [event(seq: 1)], outcome: .crossed),
    Case(
      name: "fail by growth", events: [event(seq: 1, suppressed: 9)], baseline: [event(seq: 1)],
      maxGrowth: "2", outcome: .crossed),
    Case(
      name: "growth allowed", events: [event(seq: 1, suppressed: 1)], baseline: [event(seq: 1)],
      maxGrowth: "2", outcome: .passed),
  ]

  @Test(arguments: cases)
  func theJUnitReportFailsExactlyWhenTheVerdictDoes(_ input: Case) {
    let summary = Self.summary(input.events, level: input.level)
    var baseline = CheckVerdict.Baseline.none
    if let recorded = input.baseline {
      let comparison = BaselineComparison(
        summary, baseline: Baseline(summary: Self.summary(recorded)),
        maxGrowth: input.maxGrowth.flatMap(GrowthFactor.init))
      baseline = .compared(comparison, maxGrowth: input.maxGrowth.flatMap(GrowthFactor.init))
    }
    let verdict = CheckVerdict(
      summary, thresholds: input.thresholds, summaryLevel: input.level, baseline: baseline)
    #expect(verdict.outcome == input.outcome)
    #expect((verdict.outcome == .crossed) == !verdict.crossed.isEmpty)
    let report = JUnitRenderer(verdict: verdict).render(summary)
    let failed = report.contains("<failure ")
    #expect(failed == (verdict.outcome == .crossed), "\(report)")
  }

  /// Counting with the summary's events or by visiting its groups gives the same verdict.
  @Test func theCountIsTheSameWhetherOrNotTheSummaryWasFilteredAtTheLevel() {
    let events = [
      Self.event(seq: 1), Self.event(seq: 2, kind: .unwrappedReadAfterNil, line: 7),
      Self.event(seq: 3, kind: .mappedBoolSetTrue, line: 9, suppressed: 4),
    ]
    let filtered = CheckVerdict(
      Self.summary(events), thresholds: .init(), summaryLevel: .warning)
    let unfiltered = CheckVerdict(
      Self.summary(events, level: .trace), thresholds: .init(), summaryLevel: nil)
    #expect(filtered.countedEvents == 6)
    #expect(unfiltered.countedEvents == 6)
    #expect(filtered.crossed == ["6 events (--max-events 0)"])
    #expect(unfiltered.crossed == filtered.crossed)
  }

  /// Refusals come first, in `check`'s order, whatever the thresholds say.
  @Test func refusalsComeBeforeTheThresholds() {
    let summary = Self.summary([Self.event(seq: 1)])
    func outcome(_ refusals: CheckVerdict.Refusals) -> CheckVerdict.Outcome {
      CheckVerdict(summary, thresholds: .init(), summaryLevel: .warning, refusals: refusals)
        .outcome
    }
    #expect(outcome(.init(readFailed: true, unmatchedFilters: 1)) == .readFailed)
    #expect(outcome(.init(unmatchedFilters: 1, skippedInputs: 2)) == .unmatchedFilters)
    #expect(outcome(.init(skippedInputs: 2, strictMalformed: 3)) == .skippedInputs(2))
    #expect(outcome(.init(strictMalformed: 3)) == .malformed(3))
    #expect(outcome(.init()) == .crossed)
    #expect(CheckVerdict.refusal(.init()) == nil)
  }

  /// With `--max-stale`, stale runs are a case of the report, failing as `check` does.
  @Test func staleRunsAreACaseOfTheReportWhenGated() {
    var aggregator = Aggregator(
      filter: {
        var filter = EventFilter()
        filter.minimumLevel = .warning
        return filter
      }())
    aggregator.add(Self.event(seq: 1))
    var heartbeat = Self.event(seq: 2)
    heartbeat.kind = .runHeartbeat
    heartbeat.level = .debug
    heartbeat.runRecords = 2
    aggregator.add(heartbeat)
    var later = Self.event(seq: 1, line: 7)
    later.run = "fedcba9876543210"
    later.timestamp = Timestamp(rfc3339: "2026-11-30T05:12:33.123456Z")!
    aggregator.add(later)
    let summary = aggregator.summary()
    #expect(summary.runStates.stale == 1)
    let gated = CheckVerdict(
      summary, thresholds: .init(maxEvents: 10, maxStale: 0), summaryLevel: .warning)
    #expect(gated.outcome == .crossed)
    #expect(gated.crossed == ["1 stale run (--max-stale 0)"])
    let report = JUnitRenderer(verdict: gated).render(summary)
    #expect(
      report.contains(
        "    <testcase name=\"stale runs\" classname=\"bindiag\" time=\"0\">\n"
          + "      <failure type=\"stale-runs\" message=\"1 stale run (--max-stale 0)\">"
          + "1 stale run</failure>\n    </testcase>\n"))
    let ungated = CheckVerdict(summary, thresholds: .init(maxEvents: 10), summaryLevel: .warning)
    #expect(ungated.outcome == .passed)
    #expect(!JUnitRenderer(verdict: ungated).render(summary).contains("stale runs"))
  }
}
