import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// Issue 19: the reader's peak memory stays within a fixed budget (64 MiB plus 16 MiB per
/// thread) whatever the line mix, and distinct groups cost little each. Peak RSS is GNU time's
/// (`wait4`'s `ru_maxrss` of the child), a memory bound with a wide margin, not a timing.
@Suite struct BindiagReaderMemoryTests {
  /// Peak RSS in KiB and stdout of `bindiag arguments`.
  static func peak(_ arguments: [String]) throws -> (kib: Int, stdout: String) {
    let result = try runProduct(
      "/usr/bin/time",
      ["-f", "maxrss_kib=%M", productsDirectory().appendingPathComponent("bindiag").path]
        + arguments)
    let kib = try #require(
      result.stderr.split(separator: "\n").last.flatMap { Int($0.dropFirst("maxrss_kib=".count)) })
    return (kib, result.stdout)
  }

  /// 16 MiB of one short line repeated: other output, malformed JSON, malformed logfmt.
  /// Before the bound, a chunk kept a whole event-sized entry per line (about 1.1 GB per 8 MiB
  /// chunk per thread).
  @Test(arguments: ["x", "{", "v=1 kind=a"], [1, 2, 4])
  func shortJunkLinesStayWithinTheBudget(line: String, threads: Int) throws {
    let path = try temporaryDirectory() + "/junk.txt"
    let one = Data((line + "\n").utf8)
    let block = Data(String(repeating: line + "\n", count: 65_536).utf8)
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    var written = 0
    while written < 16 << 20 {
      try handle.write(contentsOf: block)
      written += block.count
    }
    try handle.close()
    let (kib, stdout) = try Self.peak([
      "summary", "--format", "json", "--threads", String(threads), path,
    ])
    let lines = written / one.count
    let counted = line == "x" ? #""malformed":0,"other":\#(lines),"# : #""malformed":\#(lines),"#
    #expect(stdout.contains(counted), "\(stdout.prefix(120))")
    #expect(kib < (64 + 16 * threads) * 1024, "peak memory \(kib) KiB")
  }

  /// 200 000 sites, one record each: the summary's memory grows by well under 2 KiB a group
  /// (it was about 3 KiB with a 64-bucket histogram per group).
  @Test func distinctGroupsCostLittleEach() throws {
    let path = try temporaryDirectory() + "/sites.jsonl"
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    let record = jsonLines([fixtureEvent(seq: 1, line: 424_242)])
    var text = ""
    for seq in 1...200_000 {
      text += record.replacingOccurrences(of: #""line":424242,"#, with: #""line":\#(seq),"#)
        .replacingOccurrences(of: #""seq":1,"#, with: #""seq":\#(seq),"#)
      if seq % 10_000 == 0 {
        try handle.write(contentsOf: Data(text.utf8))
        text = ""
      }
    }
    try handle.close()
    let (kib, stdout) = try Self.peak(["summary", "--format", "table", "--threads", "2", path])
    #expect(stdout.hasPrefix("200,000 events in 200,000 records"), "\(stdout.prefix(300))")
    #expect(kib < 64 * 1024 + 200_000 * 1536 / 1024, "peak memory \(kib) KiB")
  }
}
