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
