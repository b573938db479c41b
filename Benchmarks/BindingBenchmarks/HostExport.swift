// One host's misuse entries in journal export format (`export HOST N SEED`).
import BindingDiagnostics

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
