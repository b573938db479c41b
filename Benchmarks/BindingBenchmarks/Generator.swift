// Test data with a fixed seed (`generate N SEED`): contract records as the file sink writes them,
// and the helpers the journal export generators share.
import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
