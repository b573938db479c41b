// Misuses into the sinks that write: the JSON Lines file sink (`jsonl`, `jsonl-threads`,
// `jsonl-rate`, `jsonl-rotate`) and the journald sink (`journald`).
import BindingDiagnostics
import Foundation

#if canImport(SwiftUI)
  import SwiftUI
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func runJSONLines(path: String, count: Int, maxBytes: Int? = nil, keep: Int = 5) {
  nonisolated(unsafe) let model = Model()
  let base = Binding<String?>(get: { model.alert }, set: { model.alert = $0 })
  let sink: JSONLinesFileSink
  let options = JSONLinesFileSink.Options(maxBytes: maxBytes, keep: keep, queueCapacity: 1 << 20)
  switch JSONLinesFileSink.open(path: path, options: options) {
  case .success(let opened): sink = opened
  case .failure(let error): fatalError("\(error)")
  }
  let diagnostics = Diagnostics(configuration: DiagnosticsConfiguration(sink: sink, rateLimit: nil))
  let start = nanoseconds()
  var callerTotal: UInt64 = 0
  var callerCPU: UInt64 = 0
  DiagnosticsSystem.withDiagnostics(diagnostics) {
    let flag = base.mappedToBool()
    let batch = 1000
    var done = 0
    while done < count {
      let begin = nanoseconds()
      let beginCPU = threadCPUNanoseconds()
      for _ in 0..<min(batch, count - done) { flag.wrappedValue = true }
      callerCPU += threadCPUNanoseconds() - beginCPU
      callerTotal += nanoseconds() - begin
      done += batch
    }
  }
  sink.flush()
  let elapsed = Double(nanoseconds() - start) / 1e9
  let stats = sink.statistics
  report("jsonl.caller_side", Double(callerTotal) / Double(count), "ns/event")
  report("jsonl.caller_cpu", Double(callerCPU) / Double(count), "ns/event")
  report("jsonl.sustained", Double(stats.written) / elapsed, "records/s")
  report("jsonl.dropped", Double(stats.dropped), "records")
  report("jsonl.rotations", Double(stats.rotations), "rotations")
  report("jsonl.seconds", elapsed, "s")
}

/// Runs `body(thread)` on `threads` threads at once (released together) and waits for them.
func onThreads(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let ready = DispatchSemaphore(value: 0)
  let go = DispatchSemaphore(value: 0)
  let done = DispatchGroup()
  for thread in 0..<threads {
    done.enter()
    Thread {
      ready.signal()
      go.wait()
      body(thread)
      done.leave()
    }.start()
  }
  for _ in 0..<threads { ready.wait() }
  for _ in 0..<threads { go.signal() }
  done.wait()
}

func openSink(_ path: String, _ options: JSONLinesFileSink.Options) -> JSONLinesFileSink {
  switch JSONLinesFileSink.open(path: path, options: options) {
  case .success(let opened): return opened
  case .failure(let error): fatalError("\(error)")
  }
}

/// `count` misuses split over `threads` threads into one sink (queue large enough for the run:
/// this measures throughput, not drops). Records/s counts until the flush returns.
func runJSONLinesThreads(path: String, count: Int, threads: Int) {
  let sink = openSink(path, JSONLinesFileSink.Options(queueCapacity: 1 << 20))
  let diagnostics = Diagnostics(configuration: DiagnosticsConfiguration(sink: sink, rateLimit: nil))
  let perThread = count / threads
  let slowest = LockedValue<UInt64>(0)
  let callersCPU = LockedValue<UInt64>(0)
  let start = nanoseconds()
  let startCPU = processCPUNanoseconds()
  onThreads(threads) { _ in
    nonisolated(unsafe) let model = Model()
    let base = Binding<String?>(get: { model.alert }, set: { model.alert = $0 })
    let begin = nanoseconds()
    let beginCPU = threadCPUNanoseconds()
    DiagnosticsSystem.withDiagnostics(diagnostics) {
      let flag = base.mappedToBool()
      for _ in 0..<perThread { flag.wrappedValue = true }
    }
    let spent = nanoseconds() - begin
    let spentCPU = threadCPUNanoseconds() - beginCPU
    slowest.value = max(slowest.value, spent)
    callersCPU.value += spentCPU
  }
  sink.flush()
  let elapsed = Double(nanoseconds() - start) / 1e9
  let processCPU = Double(processCPUNanoseconds() - startCPU)
  let stats = sink.statistics
  report("jsonl.threads", Double(threads), "threads")
  report("jsonl.threads_records_per_s", Double(stats.written) / elapsed, "records/s")
  report(
    "jsonl.threads_caller_side", Double(slowest.value) / Double(perThread),
    "ns/event")
  report("jsonl.threads_dropped", Double(stats.dropped), "records")
  // CPU time per record, which a loaded machine does not inflate: the misusing threads', and
  // the whole process's (the writer thread included).
  report("jsonl.threads_caller_cpu", Double(callersCPU.value) / Double(count), "ns/record")
  report("jsonl.threads_process_cpu", processCPU / Double(count), "ns/record")
}

/// `rate` misuses a second for `seconds` seconds, paced in steps of 1 ms, from `threads`
/// threads, into a sink with the default options (the default queue size).
func runJSONLinesRate(path: String, rate: Int, seconds: Int, threads: Int) {
  let sink = openSink(path, JSONLinesFileSink.Options())
  let diagnostics = Diagnostics(configuration: DiagnosticsConfiguration(sink: sink, rateLimit: nil))
  let perStep = rate / 1000 / threads
  let steps = seconds * 1000
  let start = nanoseconds()
  onThreads(threads) { _ in
    nonisolated(unsafe) let model = Model()
    let base = Binding<String?>(get: { model.alert }, set: { model.alert = $0 })
    DiagnosticsSystem.withDiagnostics(diagnostics) {
      let flag = base.mappedToBool()
      let begin = nanoseconds()
      for step in 0..<steps {
        for _ in 0..<perStep { flag.wrappedValue = true }
        let due = begin + UInt64(step + 1) * 1_000_000
        let now = nanoseconds()
        if due > now { usleep(UInt32((due - now) / 1000)) }
      }
    }
  }
  let sent = Double(nanoseconds() - start) / 1e9
  sink.flush()
  let stats = sink.statistics
  report("jsonl.rate_offered", Double(perStep * threads * steps) / sent, "records/s")
  report("jsonl.rate_written", Double(stats.written), "records")
  report("jsonl.rate_dropped", Double(stats.dropped), "records")
}

func runJournald(count: Int) {
  nonisolated(unsafe) let model = Model()
  let base = Binding<String?>(get: { model.alert }, set: { model.alert = $0 })
  // A queue as large as the run and a generous flush: this measures throughput, not drops.
  let sink = JournaldSink(fallback: NullSink(), queueCapacity: count, flushTimeout: 600)
  guard sink.isAvailable else {
    print("journald.unavailable 0 \(sink.unavailableReason ?? "")")
    return
  }
  let diagnostics = Diagnostics(configuration: DiagnosticsConfiguration(sink: sink, rateLimit: nil))
  let start = nanoseconds()
  DiagnosticsSystem.withDiagnostics(diagnostics) {
    let flag = base.mappedToBool(label: "bench")
    for _ in 0..<count { flag.wrappedValue = true }
  }
  let caller = Double(nanoseconds() - start) / Double(count)
  sink.flush()
  let elapsed = Double(nanoseconds() - start) / 1e9
  report("journald.sink", Double(sink.sent) / elapsed, "entries/s")
  report("journald.caller_side", caller, "ns/event")
  report("journald.dropped", Double(sink.dropped), "entries")
  print("journald.run \(diagnostics.run) id")
}
