// Benchmarks for BindingDiagnostics (release build). Each mode prints `name value unit` lines;
// Benchmarks/run.sh runs them beside their peers and prints the ratios.
//
//   BindingBenchmarks mapping                correct path of a mapping vs a hand-written Binding
//   BindingBenchmarks misuse                 one misuse into a null sink and the stderr sink
//   BindingBenchmarks jsonl PATH N           misuses into the JSON Lines file sink
//   BindingBenchmarks journald N             misuses into the journald sink
//   BindingBenchmarks generate N SEED        N contract records with realistic sites, to stdout
//   BindingBenchmarks export HOST N SEED     N journal entries of one host in journal export
//                                            format (for systemd-journal-remote), to stdout
import BindingDiagnostics

#if canImport(SwiftUI)
  import SwiftUI
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Keeps results alive so the optimizer cannot delete the measured work.
nonisolated(unsafe) var blackhole = 0

@inline(never) func consume(_ value: Bool) { blackhole &+= value ? 1 : 0 }

func nanoseconds() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// The best of `rounds` timings of `body(iterations)`, in ns per iteration.
func measure(rounds: Int = 7, iterations: Int, _ body: (Int) -> Void) -> Double {
  var best = Double.infinity
  for _ in 0..<rounds {
    let start = nanoseconds()
    body(iterations)
    best = min(best, Double(nanoseconds() - start) / Double(iterations))
  }
  return best
}

/// The state a view's bindings point into. Each benchmark uses its model from one thread and
/// holds it as `nonisolated(unsafe)`, so `Binding`'s `@Sendable` closures can capture it.
final class Model {
  var alert: String? = "Saved"
}

/// A sink that takes every event and does nothing with it: the pipeline's own cost.
struct NullSink: DiagnosticsSink {
  func receive(_ event: MisuseEvent) { blackhole &+= event.seq }
}

func report(_ name: String, _ value: Double, _ unit: String) {
  print("\(name) \(value) \(unit)")
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
  DiagnosticsSystem.withDiagnostics(diagnostics) {
    let flag = base.mappedToBool()
    let batch = 1000
    var done = 0
    while done < count {
      let begin = nanoseconds()
      for _ in 0..<min(batch, count - done) { flag.wrappedValue = true }
      callerTotal += nanoseconds() - begin
      done += batch
    }
  }
  sink.flush()
  let elapsed = Double(nanoseconds() - start) / 1e9
  let stats = sink.statistics
  report("jsonl.caller_side", Double(callerTotal) / Double(count), "ns/event")
  report("jsonl.sustained", Double(stats.written) / elapsed, "records/s")
  report("jsonl.dropped", Double(stats.dropped), "records")
  report("jsonl.rotations", Double(stats.rotations), "rotations")
  report("jsonl.seconds", elapsed, "s")
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

/// SplitMix64: fixed-seed numbers, the same on every machine.
struct SplitMix64 {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}

/// Contract records with a fixed seed: 40 call sites over 12 files, 3 kinds, 4 processes on
/// 3 hosts, some suppressed, a few lost — what a fleet's logs look like.
func runGenerate(count: Int, seed: UInt64) {
  var random = SplitMix64(state: seed)
  func next() -> UInt64 { random.next() }
  let files = (0..<12).map { "App/Features/Feature\($0)/Views/Screen\($0)View.swift" }
  let sites = (0..<40).map { index in
    (file: files[index % 12], line: 20 + index * 7, function: "body")
  }
  let processes = ["Mail", "Calendar", "Notes", "Photos"]
  let hosts = ["mac-build-01", "mac-build-02", "ci-runner-7"]
  let types = [
    "Swift.Optional<Swift.String>", "Swift.Optional<App.Item>", "Swift.Optional<Swift.Int>",
  ]
  let runs = (0..<16).map { _ in String(next(), radix: 16).leftPad(16) }
  var seqs = [Int](repeating: 0, count: runs.count)
  let encoder = JSONLinesEncoder()
  var out = [UInt8]()
  out.reserveCapacity(1 << 22)
  var micros: Int64 = 1_796_000_000_000_000
  for _ in 0..<count {
    let site = sites[Int(next() % UInt64(sites.count))]
    let kind = MisuseKind.builtIn[Int(next() % 3)]
    let runIndex = Int(next() % UInt64(runs.count))
    seqs[runIndex] += next() % 1000 == 0 ? 2 : 1  // one record in a thousand is lost
    micros += Int64(next() % 20_000)
    let event = MisuseEvent(
      timestamp: Timestamp(microsecondsSinceEpoch: micros), level: kind.defaultLevel, kind: kind,
      message: "A Binding<Bool> mapped from an optional was set to true; the write had no effect.",
      file: site.file, line: site.line, function: site.function,
      valueType: types[Int(next() % 3)], valuePresent: next() % 2 == 0, value: "<private>",
      process: processes[runIndex % 4], pid: 1000 + runIndex, host: hosts[runIndex % 3],
      run: runs[runIndex], seq: seqs[runIndex], suppressed: next() % 10 == 0 ? Int(next() % 50) : 0)
    encoder.encode(event, into: &out)
    if out.count > (1 << 22) - 4096 {
      writeOut(out)
      out.removeAll(keepingCapacity: true)
    }
  }
  writeOut(out)
}

/// One host's journal as `journalctl -o export` would print it: N entries of misuse events from
/// four app runs (a restart each quarter), with the fields journald adds for a native-protocol
/// sender, so `systemd-journal-remote` turns it into the file a real host would upload.
func runGenerateExport(host: String, count: Int, seed: UInt64) {
  var random = SplitMix64(state: seed)
  func next() -> UInt64 { random.next() }
  let files = (0..<12).map { "App/Features/Feature\($0)/Views/Screen\($0)View.swift" }
  let processes = ["Mail", "Notes"]
  let bootID = String(next(), radix: 16).leftPad(16) + String(next(), radix: 16).leftPad(16)
  let runs = (0..<4).map { _ in String(next(), radix: 16).leftPad(16) }
  let encoder = JournalFieldsEncoder()
  var out = [UInt8]()
  out.reserveCapacity(1 << 22)
  var micros: Int64 = 1_796_000_000_000_000 + Int64(next() % 60_000_000)
  var seq = 0
  var lastRun = 0
  for index in 0..<count {
    let runIndex = index * runs.count / max(count, 1)
    if runIndex != lastRun { (seq, lastRun) = (0, runIndex) }
    seq += next() % 2000 == 0 ? 2 : 1  // one record in two thousand is lost
    micros += Int64(next() % 8_000_000)
    let site = Int(next() % 40)
    let kind = MisuseKind.builtIn[Int(next() % 3)]
    let pid = 1000 + runIndex
    let process = processes[runIndex % 2]
    let event = MisuseEvent(
      timestamp: Timestamp(microsecondsSinceEpoch: micros), level: kind.defaultLevel, kind: kind,
      message: "A Binding<Bool> mapped from an optional was set to true; the write had no effect.",
      file: files[site % 12], line: 20 + site * 7, function: "body",
      valueType: "Swift.Optional<Swift.String>", valuePresent: next() % 2 == 0, value: "<private>",
      process: process, pid: pid, host: host, run: runs[runIndex], seq: seq,
      suppressed: next() % 10 == 0 ? Int(next() % 50) : 0)
    let trusted: [(String, String)] = [
      ("__REALTIME_TIMESTAMP", String(micros + 40)),
      ("__MONOTONIC_TIMESTAMP", String(micros - 1_795_999_000_000_000)),
      ("_BOOT_ID", bootID), ("_TRANSPORT", "journal"), ("_PID", String(pid)), ("_UID", "1000"),
      ("_GID", "1000"), ("_COMM", process), ("_EXE", "/opt/\(process)/bin/\(process)"),
      ("_CMDLINE", "/opt/\(process)/bin/\(process) --serve"),
      ("_SYSTEMD_CGROUP", "/system.slice/\(process.lowercased()).service"),
      ("_SYSTEMD_UNIT", "\(process.lowercased()).service"), ("_HOSTNAME", host),
      ("_SOURCE_REALTIME_TIMESTAMP", String(micros)),
    ]
    for (name, value) in trusted + encoder.fields(event) {
      out.append(contentsOf: name.utf8)
      out.append(UInt8(ascii: "="))
      out.append(contentsOf: value.utf8)
      out.append(UInt8(ascii: "\n"))
    }
    out.append(UInt8(ascii: "\n"))
    if out.count > (1 << 22) - 8192 {
      writeOut(out)
      out.removeAll(keepingCapacity: true)
    }
  }
  writeOut(out)
}

func writeOut(_ bytes: [UInt8]) {
  bytes.withUnsafeBytes { buffer in
    var offset = 0
    while offset < buffer.count {
      let written = write(1, buffer.baseAddress! + offset, buffer.count - offset)
      if written <= 0 { exit(1) }
      offset += written
    }
  }
}

extension String {
  func leftPad(_ width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}

let arguments = CommandLine.arguments
switch arguments.count > 1 ? arguments[1] : "" {
case "mapping": runMapping()
case "misuse": runMisuse()
case "jsonl" where arguments.count == 4: runJSONLines(path: arguments[2], count: Int(arguments[3])!)
case "jsonl-rotate" where arguments.count == 6:
  runJSONLines(
    path: arguments[2], count: Int(arguments[3])!, maxBytes: Int(arguments[4])!,
    keep: Int(arguments[5])!)
case "journald" where arguments.count == 3: runJournald(count: Int(arguments[2])!)
case "generate" where arguments.count == 4:
  runGenerate(count: Int(arguments[2])!, seed: UInt64(arguments[3])!)
case "export" where arguments.count == 5:
  runGenerateExport(host: arguments[2], count: Int(arguments[3])!, seed: UInt64(arguments[4])!)
default:
  print(
    "usage: BindingBenchmarks mapping | misuse | jsonl PATH N | journald N | generate N SEED"
      + " | export HOST N SEED")
  exit(64)
}
