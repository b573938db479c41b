// Benchmarks for BindingDiagnostics (release build). Each mode prints `name value unit` lines;
// Benchmarks/run.sh runs them beside their peers and prints the ratios.
//
//   BindingBenchmarks mapping                correct path of a mapping vs a hand-written Binding
//   BindingBenchmarks misuse                 one misuse into a null sink and the stderr sink
//   BindingBenchmarks element                correct path of an element binding vs one by index
//   BindingBenchmarks element-calls W N      N of W (element-read, element-write, index-read,
//                                            index-write), for callgrind
//   BindingBenchmarks misuse-calls N         N misuses into a null sink only (for callgrind)
//   BindingBenchmarks jsonl PATH N           misuses into the JSON Lines file sink
//   BindingBenchmarks jsonl-threads PATH N T N misuses from T threads into one JSON Lines sink
//   BindingBenchmarks jsonl-rate PATH R S T  R misuses a second for S seconds from T threads,
//                                            default options (queue size): are any dropped?
//   BindingBenchmarks journald N             misuses into the journald sink
//   BindingBenchmarks generate N SEED        N contract records with realistic sites, to stdout
//   BindingBenchmarks export HOST N SEED     N journal entries of one host in journal export
//                                            format (for systemd-journal-remote), to stdout
//   BindingBenchmarks export-mixed HOST N UNRELATED SEED
//                                            the same N entries among UNRELATED ordinary log
//                                            entries of other services, export format, to stdout
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

/// Keeps results alive so the optimizer cannot delete the measured work.
nonisolated(unsafe) var blackhole = 0

@inline(never) func consume(_ value: Bool) { blackhole &+= value ? 1 : 0 }

func nanoseconds() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// CPU time of the calling thread: unlike the wall clock, it does not count the time other
/// processes on a loaded machine take the core away.
func threadCPUNanoseconds() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// CPU time of the whole process (every thread).
func processCPUNanoseconds() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// The best of `rounds` timings of `body(iterations)`, in ns per iteration, on `clock`.
func measure(
  rounds: Int = 7, iterations: Int, clock: () -> UInt64 = nanoseconds, _ body: (Int) -> Void
) -> Double {
  var best = Double.infinity
  for _ in 0..<rounds {
    let start = clock()
    body(iterations)
    best = min(best, Double(clock() - start) / Double(iterations))
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

/// One host's misuse entries in journal export format: events from four app runs (a restart
/// each quarter of `count`), with the fields journald adds for a native-protocol sender, so
/// `systemd-journal-remote` turns them into the file a real host would upload.
struct HostExport {
  let host: String
  let count: Int
  var random: SplitMix64
  let files = (0..<12).map { "App/Features/Feature\($0)/Views/Screen\($0)View.swift" }
  let processes = ["Mail", "Notes"]
  let bootID: String
  let runs: [String]
  let encoder = JournalFieldsEncoder()
  var micros: Int64
  var seq = 0
  var lastRun = 0

  init(host: String, count: Int, seed: UInt64) {
    self.host = host
    self.count = count
    random = SplitMix64(state: seed)
    let high = String(random.next(), radix: 16).leftPad(16)
    bootID = high + String(random.next(), radix: 16).leftPad(16)
    var runs: [String] = []
    for _ in 0..<4 { runs.append(String(random.next(), radix: 16).leftPad(16)) }
    self.runs = runs
    micros = 1_796_000_000_000_000 + Int64(random.next() % 60_000_000)
  }

  /// The fields of entry `index` (0 up to `count`, in order), and its realtime.
  mutating func entry(_ index: Int) -> (realtime: Int64, fields: [(String, String)]) {
    let runIndex = index * runs.count / max(count, 1)
    if runIndex != lastRun { (seq, lastRun) = (0, runIndex) }
    seq += random.next() % 2000 == 0 ? 2 : 1  // one record in two thousand is lost
    micros += Int64(random.next() % 8_000_000)
    let site = Int(random.next() % 40)
    let kind = MisuseKind.builtIn[Int(random.next() % 3)]
    let pid = 1000 + runIndex
    let process = processes[runIndex % 2]
    let event = MisuseEvent(
      timestamp: Timestamp(microsecondsSinceEpoch: micros), level: kind.defaultLevel, kind: kind,
      message: "A Binding<Bool> mapped from an optional was set to true; the write had no effect.",
      file: files[site % 12], line: 20 + site * 7, function: "body",
      valueType: "Swift.Optional<Swift.String>", valuePresent: random.next() % 2 == 0,
      value: "<private>", process: process, pid: pid, host: host, run: runs[runIndex], seq: seq,
      suppressed: random.next() % 10 == 0 ? Int(random.next() % 50) : 0)
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
    return (micros + 40, trusted + encoder.fields(event))
  }
}

/// Appends one export-format entry (fields and the blank line that ends it).
func appendExport(_ fields: [(String, String)], into out: inout [UInt8]) {
  for (name, value) in fields {
    out.append(contentsOf: name.utf8)
    out.append(UInt8(ascii: "="))
    out.append(contentsOf: value.utf8)
    out.append(UInt8(ascii: "\n"))
  }
  out.append(UInt8(ascii: "\n"))
}

/// One host's journal as `journalctl -o export` would print it: N entries of ``HostExport``.
func runGenerateExport(host: String, count: Int, seed: UInt64) {
  var entries = HostExport(host: host, count: count, seed: seed)
  var out = [UInt8]()
  out.reserveCapacity(1 << 22)
  for index in 0..<count {
    appendExport(entries.entry(index).fields, into: &out)
    if out.count > (1 << 22) - 8192 {
      writeOut(out)
      out.removeAll(keepingCapacity: true)
    }
  }
  writeOut(out)
}

/// Ordinary log entries of a server's other services (nginx, sshd, the kernel firewall,
/// postgres, systemd, cron) in journal export format, with the fields journald gives each
/// transport; their messages vary as real ones do, so most of an entry's data is new to the
/// journal file.
struct UnrelatedExport {
  var random: SplitMix64
  let host: String
  static let machineID = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"

  /// The fields every entry shares, per service: transport, unit, process.
  let prefixes: [[UInt8]]

  /// - Parameter bootID: The boot the misuse entries were written in, shared by these.
  init(host: String, bootID: String, seed: UInt64) {
    self.host = host
    random = SplitMix64(state: seed)
    func service(
      _ transport: String, _ identifier: String, _ unit: String, pid: Int, uid: Int,
      comm: String, exe: String, cmdline: String, extra: String = ""
    ) -> [UInt8] {
      Array(
        """
        _BOOT_ID=\(bootID)
        _MACHINE_ID=\(UnrelatedExport.machineID)
        _HOSTNAME=\(host)
        _TRANSPORT=\(transport)
        SYSLOG_IDENTIFIER=\(identifier)
        _PID=\(pid)
        _UID=\(uid)
        _GID=\(uid)
        _COMM=\(comm)
        _EXE=\(exe)
        _CMDLINE=\(cmdline)
        _CAP_EFFECTIVE=0
        _SELINUX_CONTEXT=unconfined
        _SYSTEMD_CGROUP=/system.slice/\(unit)
        _SYSTEMD_UNIT=\(unit)
        _SYSTEMD_SLICE=system.slice
        _SYSTEMD_INVOCATION_ID=\(String(unit.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }, radix: 16).leftPad(32))

        """.utf8) + Array(extra.utf8)
    }
    prefixes = [
      service(
        "stdout", "nginx", "nginx.service", pid: 812, uid: 33, comm: "nginx",
        exe: "/usr/sbin/nginx", cmdline: "nginx: worker process",
        extra: "PRIORITY=6\nSYSLOG_FACILITY=3\n"),
      service(
        "syslog", "sshd", "ssh.service", pid: 2231, uid: 0, comm: "sshd", exe: "/usr/sbin/sshd",
        cmdline: "sshd: deploy [priv]", extra: "PRIORITY=6\nSYSLOG_FACILITY=4\n"),
      service(
        "kernel", "kernel", "kernel", pid: 0, uid: 0, comm: "swapper", exe: "/",
        cmdline: "kernel", extra: "PRIORITY=4\nSYSLOG_FACILITY=0\n"),
      service(
        "stdout", "postgres", "postgresql@15-main.service", pid: 1502, uid: 108,
        comm: "postgres", exe: "/usr/lib/postgresql/15/bin/postgres",
        cmdline: "/usr/lib/postgresql/15/bin/postgres -D /var/lib/postgresql/15/main",
        extra: "PRIORITY=6\nSYSLOG_FACILITY=3\n"),
      service(
        "journal", "systemd", "init.scope", pid: 1, uid: 0, comm: "systemd",
        exe: "/usr/lib/systemd/systemd", cmdline: "/sbin/init",
        extra:
          "PRIORITY=6\nSYSLOG_FACILITY=3\nMESSAGE_ID=39f53479d3a045ac8e11786248231fbf\n"
          + "CODE_FILE=src/core/job.c\nCODE_LINE=581\nCODE_FUNC=job_emit_done_message\n"
          + "JOB_TYPE=start\nJOB_RESULT=done\n"),
      service(
        "syslog", "CRON", "cron.service", pid: 611, uid: 0, comm: "cron", exe: "/usr/sbin/cron",
        cmdline: "/usr/sbin/cron -f", extra: "PRIORITY=6\nSYSLOG_FACILITY=9\n"),
    ]
  }

  /// Appends one entry written at `realtime`.
  mutating func append(realtime: Int64, into out: inout [UInt8]) {
    let roll = random.next()
    // Mostly web and database traffic, as on a busy server.
    let service = [0, 0, 0, 0, 3, 3, 1, 2, 4, 5][Int(roll % 10)]
    out += "__REALTIME_TIMESTAMP=".utf8
    number(realtime, &out)
    out += "\n__MONOTONIC_TIMESTAMP=".utf8
    number(realtime - 1_795_999_000_000_040, &out)
    out += "\n_SOURCE_REALTIME_TIMESTAMP=".utf8
    number(realtime - 7, &out)
    out.append(UInt8(ascii: "\n"))
    out += prefixes[service]
    let bits = random.next()
    out += "MESSAGE=".utf8
    switch service {
    case 0:
      ip(bits, &out)
      out += " - - [30/Nov/2026:04:12:33 +0000] \"GET /api/items/".utf8
      number(Int64(bits >> 32 % 1_000_000), &out)
      out += "?page=".utf8
      number(Int64(bits >> 8 & 0xff), &out)
      out += " HTTP/1.1\" ".utf8
      out += ["200", "200", "304", "404"][Int(bits >> 60 & 3)].utf8
      out.append(UInt8(ascii: " "))
      number(Int64(bits >> 40 & 0xffff), &out)
      out += " \"-\" \"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0\"".utf8
      out += "\n_STREAM_ID=".utf8
      hex(random.next(), &out)
    case 1:
      out += "Accepted publickey for deploy from ".utf8
      ip(bits, &out)
      out += " port ".utf8
      number(Int64(bits >> 40 & 0x7fff) + 32768, &out)
      out += " ssh2: ED25519 SHA256:".utf8
      hex(random.next(), &out)
      hex(random.next(), &out)
      out += "\nSYSLOG_PID=".utf8
      number(Int64(bits >> 48 & 0x7fff) + 3000, &out)
      out += "\nSYSLOG_TIMESTAMP=Nov 30 04:12:33 ".utf8
    case 2:
      out += "[UFW BLOCK] IN=eth0 OUT= MAC=52:54:00:12:34:56:52:54:00:65:43:21:08:00 SRC=".utf8
      ip(bits, &out)
      out += " DST=10.0.0.5 LEN=60 TOS=0x00 PREC=0x00 TTL=52 ID=".utf8
      number(Int64(bits >> 16 & 0xffff), &out)
      out += " DF PROTO=TCP SPT=".utf8
      number(Int64(bits >> 32 & 0xffff), &out)
      out += " DPT=22 WINDOW=64240 RES=0x00 SYN URGP=0\n_SOURCE_MONOTONIC_TIMESTAMP=".utf8
      number(realtime - 1_795_999_000_000_100, &out)
    case 3:
      out += "2026-11-30 04:12:33.123 UTC [1502] LOG:  duration: ".utf8
      number(Int64(bits % 100_000), &out)
      out += " us  statement: SELECT id, name, updated_at FROM items WHERE owner_id = ".utf8
      number(Int64(bits >> 20 % 10_000_000), &out)
      out += "\n_STREAM_ID=".utf8
      hex(random.next(), &out)
    case 4:
      out += "Started session-".utf8
      number(Int64(bits % 100_000), &out)
      out += ".scope - Session of User deploy.\nUNIT=session-".utf8
      number(Int64(bits % 100_000), &out)
      out += ".scope\nINVOCATION_ID=".utf8
      hex(bits, &out)
      hex(random.next(), &out)
    default:
      out += "(root) CMD (   cd / && run-parts --report /etc/cron.hourly)\nSYSLOG_PID=".utf8
      number(Int64(bits % 30_000) + 3000, &out)
    }
    out += "\n\n".utf8
  }

  private func number(_ value: Int64, _ out: inout [UInt8]) {
    out += String(value).utf8
  }

  private func hex(_ value: UInt64, _ out: inout [UInt8]) {
    out += String(value, radix: 16).leftPad(16).utf8
  }

  private func ip(_ bits: UInt64, _ out: inout [UInt8]) {
    out += "10.".utf8
    number(Int64(bits & 0xff), &out)
    out.append(UInt8(ascii: "."))
    number(Int64(bits >> 8 & 0xff), &out)
    out.append(UInt8(ascii: "."))
    number(Int64(bits >> 16 & 0xff), &out)
  }
}

/// `count` misuse entries of ``HostExport`` with `unrelated` ordinary entries of other services
/// spread evenly before them, in time order. The misuse entries are the same whatever
/// `unrelated` is, and so are their times, so two streams differ only in what a reader should
/// skip. Two in every thousand look like ours but are not sound: one without `BINDING_SCHEMA`
/// (not ours, by the contract), one with a `BINDING_SEQ` that is not a number (malformed).
func runGenerateMixedExport(host: String, count: Int, unrelated: Int, seed: UInt64) {
  var ours = HostExport(host: host, count: count, seed: seed)
  var others = UnrelatedExport(host: host, bootID: ours.bootID, seed: seed ^ 0x5bd1_e995)
  var out = [UInt8]()
  out.reserveCapacity(1 << 22)
  var previous = ours.micros
  var written = 0
  for index in 0..<count {
    var (realtime, fields) = ours.entry(index)
    if index % 1000 == 999 { fields.removeAll { $0.0 == "BINDING_SCHEMA" } }
    if index % 1000 == 499, let seq = fields.firstIndex(where: { $0.0 == "BINDING_SEQ" }) {
      fields[seq].1 = "x"
    }
    let gap = unrelated * (index + 1) / count - written
    for step in 0..<gap {
      others.append(
        realtime: previous + (realtime - previous) * Int64(step + 1) / Int64(gap + 1), into: &out)
    }
    written += gap
    previous = realtime
    appendExport(fields, into: &out)
    if out.count > (1 << 22) - 65536 {
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
case "element": runElement()
case "element-calls" where arguments.count == 4:
  runElementCalls(which: arguments[2], count: Int(arguments[3])!)
case "misuse-calls" where arguments.count == 3: runMisuseCalls(count: Int(arguments[2])!)
case "jsonl" where arguments.count == 4: runJSONLines(path: arguments[2], count: Int(arguments[3])!)
case "jsonl-threads" where arguments.count == 5:
  runJSONLinesThreads(path: arguments[2], count: Int(arguments[3])!, threads: Int(arguments[4])!)
case "jsonl-rate" where arguments.count == 6:
  runJSONLinesRate(
    path: arguments[2], rate: Int(arguments[3])!, seconds: Int(arguments[4])!,
    threads: Int(arguments[5])!)
case "jsonl-rotate" where arguments.count == 6:
  runJSONLines(
    path: arguments[2], count: Int(arguments[3])!, maxBytes: Int(arguments[4])!,
    keep: Int(arguments[5])!)
case "journald" where arguments.count == 3: runJournald(count: Int(arguments[2])!)
case "generate" where arguments.count == 4:
  runGenerate(count: Int(arguments[2])!, seed: UInt64(arguments[3])!)
case "export" where arguments.count == 5:
  runGenerateExport(host: arguments[2], count: Int(arguments[3])!, seed: UInt64(arguments[4])!)
case "export-mixed" where arguments.count == 6:
  runGenerateMixedExport(
    host: arguments[2], count: Int(arguments[3])!, unrelated: Int(arguments[4])!,
    seed: UInt64(arguments[5])!)
default:
  print(
    "usage: BindingBenchmarks mapping | misuse | element | element-calls W N | misuse-calls N | jsonl PATH N"
      + " | jsonl-threads PATH N T | jsonl-rate PATH R S T | journald N | generate N SEED"
      + " | export HOST N SEED | export-mixed HOST N UNRELATED SEED")
  exit(64)
}
