import BindingDiagnostics
import BindingDiagnosticsTesting
import Foundation
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif

@Suite struct ConcurrencyTests {
  @Test func eightThreadsOfTenThousandMisusesGiveContiguousSeq() {
    let sink = RecordingSink()
    let diagnostics = Diagnostics(
      configuration: DiagnosticsConfiguration(sink: sink, rateLimit: nil))
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      DiagnosticsSystem.withDiagnostics(diagnostics) {
        let flag = Box<Int?>(1).binding.mappedToBool()
        for _ in 0..<10_000 { flag.wrappedValue = true }
      }
    }
    diagnostics.flush()
    let events = sink.events
    #expect(events.count == 80_000)
    #expect(events.map(\.seq).sorted() == Array(1...80_000))
    #expect(Set(events.map(\.run)) == [diagnostics.run])
  }

  @Test func rateLimitedTotalsStayExactUnderContention() {
    let sink = RecordingSink()
    let diagnostics = Diagnostics(
      configuration: DiagnosticsConfiguration(
        sink: sink, rateLimit: RateLimit(burst: 5, interval: 0.01)))
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      DiagnosticsSystem.withDiagnostics(diagnostics) {
        let flag = Binding<Int?>(get: { 1 }, set: { _ in }).mappedToBool()
        for _ in 0..<5_000 { flag.wrappedValue = true }
      }
    }
    diagnostics.flush()
    let events = sink.events
    #expect(events.reduce(0) { $0 + $1.events } == 40_000)
    #expect(events.map(\.seq).sorted() == Array(1...events.count))
    #expect(events.count < 40_000)
  }

  @Test func taskLocalOverrideReachesChildTasks() async {
    let sink = RecordingSink()
    let diagnostics = Diagnostics(
      configuration: DiagnosticsConfiguration(sink: sink, rateLimit: nil))
    await DiagnosticsSystem.withDiagnostics(diagnostics) {
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<4 {
          group.addTask {
            Binding<Int?>(get: { nil }, set: { _ in }).mappedToBool().wrappedValue = true
          }
        }
      }
    }
    #expect(sink.events.count == 4)
  }
}
