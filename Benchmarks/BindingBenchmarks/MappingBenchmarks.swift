// The correct path of a mapping beside a hand-written Binding, and the cost of one misuse
// (`mapping`, `misuse`, `misuse-calls`).
import BindingDiagnostics

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// The state a view's bindings point into. Each benchmark uses its model from one thread and
/// holds it as `nonisolated(unsafe)`, so `Binding`'s `@Sendable` closures can capture it.
final class Model {
  var alert: String? = "Saved"
}

/// A sink that takes every event and does nothing with it: the pipeline's own cost.
struct NullSink: DiagnosticsSink {
  func receive(_ event: MisuseEvent) { blackhole &+= event.seq }
}

func runMapping() {
  nonisolated(unsafe) let model = Model()
  let base = Binding<String?>(get: { model.alert }, set: { model.alert = $0 })
  let iterations = 5_000_000
  // Interleave the two so frequency changes hit both alike.
  var mapped = Double.infinity
  var manual = Double.infinity
  for _ in 0..<5 {
    mapped = min(
      mapped,
      measure(rounds: 3, iterations: iterations) { count in
        for index in 0..<count {
          let flag = base.mappedToBool()
          consume(flag.wrappedValue)
          if index & 1 == 0 { flag.wrappedValue = false } else { model.alert = "Saved" }
        }
      })
    manual = min(
      manual,
      measure(rounds: 3, iterations: iterations) { count in
        for index in 0..<count {
          let flag = Binding<Bool>(
            get: { base.wrappedValue != nil },
            set: { if !$0 { base.wrappedValue = nil } })
          consume(flag.wrappedValue)
          if index & 1 == 0 { flag.wrappedValue = false } else { model.alert = "Saved" }
        }
      })
  }
  report("mapping.correct_path", mapped, "ns/op")
  report("handwritten.correct_path", manual, "ns/op")
}

func runMisuse() {
  nonisolated(unsafe) let model = Model()
  let base = Binding<String?>(get: { model.alert }, set: { model.alert = $0 })
  let null = Diagnostics(configuration: DiagnosticsConfiguration(sink: NullSink(), rateLimit: nil))
  let nullCost = DiagnosticsSystem.withDiagnostics(null) {
    let flag = base.mappedToBool()
    return measure(iterations: 200_000) { count in for _ in 0..<count { flag.wrappedValue = true } }
  }
  report("misuse.null_sink", nullCost, "ns/event")
  let nullCPU = DiagnosticsSystem.withDiagnostics(null) {
    let flag = base.mappedToBool()
    return measure(iterations: 200_000, clock: threadCPUNanoseconds) { count in
      for _ in 0..<count { flag.wrappedValue = true }
    }
  }
  report("misuse.null_sink_cpu", nullCPU, "ns/event")
  let limited = Diagnostics(configuration: DiagnosticsConfiguration(sink: NullSink()))
  let limitedCost = DiagnosticsSystem.withDiagnostics(limited) {
    let flag = base.mappedToBool()
    return measure(iterations: 200_000) { count in for _ in 0..<count { flag.wrappedValue = true } }
  }
  report("misuse.rate_limited_fold", limitedCost, "ns/event")
  let stderrSink = Diagnostics(
    configuration: DiagnosticsConfiguration(sink: StandardErrorSink(), rateLimit: nil))
  let stderrCost = DiagnosticsSystem.withDiagnostics(stderrSink) {
    let flag = base.mappedToBool()
    return measure(rounds: 3, iterations: 100_000) { count in
      for _ in 0..<count { flag.wrappedValue = true }
    }
  }
  report("misuse.stderr_sink", stderrCost, "ns/event")
}

/// `count` misuses into the null sink and nothing else: the run `valgrind --tool=callgrind`
/// counts instructions of (per misuse = total / count, after subtracting a run with count 0).
func runMisuseCalls(count: Int) {
  nonisolated(unsafe) let model = Model()
  let base = Binding<String?>(get: { model.alert }, set: { model.alert = $0 })
  let null = Diagnostics(configuration: DiagnosticsConfiguration(sink: NullSink(), rateLimit: nil))
  DiagnosticsSystem.withDiagnostics(null) {
    let flag = base.mappedToBool()
    for _ in 0..<count { flag.wrappedValue = true }
  }
  report("misuse.calls", Double(count), "events")
}

// MARK: The write checks (issue 30)

/// A view's text field and its optional detail, for the write checks' benchmarks.
final class FormModel {
  var title = "Draft"
  var detail: String? = "Lunch on Friday?"
}

/// Today's `Binding(unwrapping:)` before the write checks, replicated with the public API: the
/// same closures and the same last-value box, so the checked one is measured beside it in the
/// same run.
final class UncheckedLastValue<Value> {
  var value: Value
  init(_ value: Value) { self.value = value }
}

func uncheckedUnwrapping<Value>(_ base: Binding<Value?>) -> Binding<Value>? {
  guard let initial = base.wrappedValue else { return nil }
  nonisolated(unsafe) let base = base
  nonisolated(unsafe) let last = UncheckedLastValue(initial)
  return Binding(
    get: {
      if let value = base.wrappedValue {
        last.value = value
        return value
      }
      return last.value
    },
    set: { newValue, transaction in
      guard base.wrappedValue != nil else { return }
      base.transaction(transaction).wrappedValue = newValue
      last.value = newValue
    })
}

/// One of the write checks' measured operations, `count` times: `W` is `diagnosed-write`,
/// `handwritten-write`, `diagnosed-read`, `handwritten-read`, `unwrapped` (make, read, write),
/// `unwrapped-unchecked` (today's replica), `mapping` or `handwritten-mapping` (make, read,
/// write `false`, as `runMapping`).
@inline(never)
func exerciseWrites(_ which: String, count: Int) {
  nonisolated(unsafe) let model = FormModel()
  let title = Binding<String>(get: { model.title }, set: { model.title = $0 })
  let detail = Binding<String?>(get: { model.detail }, set: { model.detail = $0 })
  let values = ["Draft", "Final"]
  switch which {
  case "diagnosed-write", "handwritten-write":
    writeTitles(which == "diagnosed-write" ? title.diagnosed() : title, values, count: count)
  case "diagnosed-read", "handwritten-read":
    readTitles(which == "diagnosed-read" ? title.diagnosed() : title, count: count)
  case "unwrapped", "unwrapped-unchecked":
    for index in 0..<count {
      let binding =
        which == "unwrapped" ? Binding(unwrapping: detail)! : uncheckedUnwrapping(detail)!
      blackhole &+= binding.wrappedValue.utf8.count
      binding.wrappedValue = values[index & 1]
    }
  case "mapping", "handwritten-mapping":
    for index in 0..<count {
      let flag =
        which == "mapping"
        ? detail.mappedToBool()
        : Binding<Bool>(
          get: { detail.wrappedValue != nil }, set: { if !$0 { detail.wrappedValue = nil } })
      consume(flag.wrappedValue)
      if index & 1 == 0 { flag.wrappedValue = false } else { model.detail = "Saved" }
    }
  default:
    fatalError("unknown operation \(which)")
  }
}

/// Writes `values` in turn through `binding`, `count` times: out of line, so both bindings are
/// called the same way (neither closure is known to the loop).
@inline(never)
func writeTitles(_ binding: Binding<String>, _ values: [String], count: Int) {
  for index in 0..<count { binding.wrappedValue = values[index & 1] }
}

/// Reads `binding` `count` times, out of line as `writeTitles`.
@inline(never)
func readTitles(_ binding: Binding<String>, count: Int) {
  for _ in 0..<count { blackhole &+= binding.wrappedValue.utf8.count }
}

/// ns per operation of the write checks beside their peers, interleaved, on the thread's CPU
/// clock, best of 15: a diagnosed binding's write and read beside a hand-written
/// `Binding(get:set:)` (an `Equatable` `String`), an unwrapped binding (made, read, written)
/// beside today's replica, a mapped flag beside a hand-written one.
func runWrites() {
  let pairs = [
    ("diagnosed-write", "handwritten-write", 2_000_000),
    ("diagnosed-read", "handwritten-read", 2_000_000),
    ("unwrapped", "unwrapped-unchecked", 1_000_000),
    ("mapping", "handwritten-mapping", 2_000_000),
  ]
  for (ours, peer, iterations) in pairs {
    var oursBest = Double.infinity
    var peerBest = Double.infinity
    for _ in 0..<5 {
      oursBest = min(
        oursBest,
        measure(rounds: 3, iterations: iterations, clock: threadCPUNanoseconds) {
          exerciseWrites(ours, count: $0)
        })
      peerBest = min(
        peerBest,
        measure(rounds: 3, iterations: iterations, clock: threadCPUNanoseconds) {
          exerciseWrites(peer, count: $0)
        })
    }
    report("writes.\(ours)", oursBest, "ns/op")
    report("writes.\(peer)", peerBest, "ns/op")
  }
}
