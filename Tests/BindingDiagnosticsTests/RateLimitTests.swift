import BindingDiagnostics
import BindingDiagnosticsTesting
import Foundation
import Testing

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

  @Test func foldedEventsRideOnTheNextRecord() {
    let alert = Box<String?>("x")
    let configuration = DiagnosticsConfiguration(rateLimit: RateLimit(burst: 2, interval: 0.05))
    let (events, _) = recordingMisuses(configuration: configuration) {
      let flag = alert.binding.mappedToBool()
      for _ in 0..<5 { flag.wrappedValue = true }
      // Wait out the refill: the next record carries the 3 folded events.
      Thread.sleep(forTimeInterval: 0.12)
      flag.wrappedValue = true
    }
    #expect(events.map(\.suppressed) == [0, 0, 3])
    #expect(events.reduce(0) { $0 + $1.events } == 6)
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
