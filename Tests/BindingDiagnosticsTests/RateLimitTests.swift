import BindingDiagnostics
import BindingDiagnosticsTesting
import Foundation
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif

@Suite struct RateLimitTests {
  @Test func excessIsFoldedAndFlushedSoTotalsAreExact() {
    let alert = Box<String?>("x")
    let configuration = DiagnosticsConfiguration(rateLimit: RateLimit(burst: 10, interval: 3600))
    let (events, _) = recordingMisuses(configuration: configuration) {
      let flag = alert.binding.mappedToBool()
      for _ in 0..<1000 { flag.wrappedValue = true }
    }
    // An hour-long refill: exactly the burst, then one record for the rest at flush.
    #expect(events.count == 11)
    #expect(events.prefix(10).allSatisfy { $0.suppressed == 0 })
    #expect(events.last?.suppressed == 989)
    #expect(events.reduce(0) { $0 + 1 + $1.suppressed } == 1000)
    #expect(events.map(\.seq) == Array(1...11))
  }

  @Test func foldedEventsReachTheSinkWithinOneIntervalWithoutAnotherMisuse() {
    let alert = Box<String?>("x")
    let recorder = RecordingSink()
    let diagnostics = Diagnostics(
      configuration: DiagnosticsConfiguration(
        sink: recorder, rateLimit: RateLimit(burst: 2, interval: 20)))
    let flag = alert.binding.mappedToBool()
    func misuseFiveTimes(_ diagnostics: Diagnostics) {
      DiagnosticsSystem.withDiagnostics(diagnostics) {
        for _ in 0..<5 { flag.wrappedValue = true }
      }
    }
    // In a test process the first record of a call site looks its writer up in the debug
    // information, which can take longer than the interval: done once beforehand, so the five
    // misuses fall inside one interval as an app's would.
    misuseFiveTimes(Diagnostics(configuration: DiagnosticsConfiguration(sink: RecordingSink())))
    misuseFiveTimes(diagnostics)
    // No flush and no further misuse: the limiter's timer writes the 3 folded events. (An
    // interval of 20 s, not less: a token comes back every 10 s, and on a loaded machine the
    // five misuses, whose first two records name their writer, took over 2.5 s.)
    for _ in 0..<3_000 where recorder.events.count < 3 { Thread.sleep(forTimeInterval: 0.01) }
    #expect(
      recorder.events.map(\.suppressed) == [0, 0, 2],
      "\(recorder.events.map { "\($0.kind) \($0.test ?? "-") +\($0.suppressed)" })")
    // The next misuse is a record of its own; nothing is counted twice.
    DiagnosticsSystem.withDiagnostics(diagnostics) { flag.wrappedValue = true }
    diagnostics.flush()
    #expect(recorder.events.map(\.suppressed) == [0, 0, 2, 0])
    #expect(recorder.events.reduce(0) { $0 + $1.events } == 6)
  }

  @Test func limitsArePerCallSite() {
    let alert = Box<String?>("x")
    let configuration = DiagnosticsConfiguration(rateLimit: RateLimit(burst: 1, interval: 3600))
    let (events, _) = recordingMisuses(configuration: configuration) {
      let first = alert.binding.mappedToBool()
      let second = alert.binding.mappedToBool()
      for _ in 0..<3 {
        first.wrappedValue = true
        second.wrappedValue = true
      }
    }
    let lines = Set(events.map(\.line))
    #expect(lines.count == 2)
    #expect(events.count == 4)
    #expect(events.reduce(0) { $0 + $1.events } == 6)
  }

  @Test func offWritesEveryMisuse() {
    let alert = Box<String?>("x")
    let (events, _) = recordingMisuses(configuration: DiagnosticsConfiguration(rateLimit: nil)) {
      let flag = alert.binding.mappedToBool()
      for _ in 0..<500 { flag.wrappedValue = true }
    }
    #expect(events.count == 500)
    #expect(events.allSatisfy { $0.suppressed == 0 })
  }

  @Test(arguments: [("10/1", "10/1"), ("100/0.5", "100/0.5"), ("3/60", "3/60")])
  func parses(text: String, description: String) {
    #expect(RateLimit(parsing: text)?.description == description)
  }

  @Test(arguments: ["", "10", "0/1", "10/0", "x/1", "10/-1", "10/1/2", "10/inf"])
  func rejects(text: String) {
    #expect(RateLimit(parsing: text) == nil)
  }
}
