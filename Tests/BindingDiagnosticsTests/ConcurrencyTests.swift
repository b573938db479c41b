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

  @Test func checkedBindingsOverLockedValuesWrittenFromEightThreadsAtOnce() {
    // Bindings made off the main thread over state that threads write (a `LockedValue`) may be
    // written from any thread: one binding of each kind, written by eight threads at once. No
    // write is re-entrant and every one sticks, so nothing is reported; under ThreadSanitizer
    // (Benchmarks/tsan.sh) the write checks race with nothing.
    let rows = LockedValue((0..<8).map { ConcurrentRow(id: $0, count: 0) })
    let progress = LockedValue(0)
    let draft = LockedValue<String?>("draft")
    let sink = RecordingSink()
    let diagnostics = Diagnostics(
      configuration: DiagnosticsConfiguration(sink: sink, rateLimit: nil))
    let bindings = Box<(Binding<ConcurrentRow>, Binding<Int>, Binding<String>, Binding<Bool>)?>(nil)
    let made = DispatchSemaphore(value: 0)
    Thread {
      bindings.value = (
        Binding(element: 3, in: rows, label: "row")!,
        progress.binding.diagnosed(label: "progress"),
        Binding(unwrapping: draft.binding, label: "draft")!,
        draft.binding.mappedToBool(default: "new", label: "editing")
      )
      made.signal()
    }.start()
    made.wait()
    let (row, counter, text, editing) = bindings.value!
    // Threads of their own, started together, so that their writes overlap even where a
    // sanitizer slows them down.
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for thread in 0..<8 {
      done.enter()
      Thread {
        start.wait()
        DiagnosticsSystem.withDiagnostics(diagnostics) {
          for n in 0..<2_000 {
            row.wrappedValue = ConcurrentRow(id: 3, count: n)
            counter.wrappedValue = thread * 10_000 + n
            text.wrappedValue = "thread \(thread)"
            editing.wrappedValue = true
          }
        }
        done.leave()
      }.start()
    }
    for _ in 0..<8 { start.signal() }
    done.wait()
    diagnostics.flush()
    #expect(sink.events.map(\.kind) == [])
    #expect(rows.value.map(\.count) == [0, 0, 0, 1_999, 0, 0, 0, 0])
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

/// A row of a collection that threads write.
private struct ConcurrentRow: Identifiable, Equatable, Sendable {
  let id: Int
  var count: Int
}
