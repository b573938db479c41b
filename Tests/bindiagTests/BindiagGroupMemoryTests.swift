import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// Issue 19: a distinct group costs well under 1 KB of peak memory, whatever the output. Peak
/// RSS is GNU time's (`wait4`'s `ru_maxrss` of the child `bindiag`), a memory bound with a wide
/// margin, not a timing. Before groups were kept compact, one cost 1.4 KB (table) to 2.1 KB
/// (JSON, built whole before it was written): 200 000 of them peaked near 300 and 450 MB.
@Suite struct BindiagGroupMemoryTests {
  static let groups = 200_000
  /// The bound per group, over a fixed 64 MiB for the program and the reader's chunks.
  static let bytesPerGroup = 512

  /// `groups` records in `directory`, each in a group of its own: a site of its own (distinct
  /// lines), or a label of its own at one site.
  static func distinctGroups(in directory: String, byLabel: Bool) throws -> String {
    let path = directory + "/groups.jsonl"
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    var event = fixtureEvent(seq: 1, line: 424_242)
    event.label = "label-424242"
    let record = jsonLines([event])
    var text = ""
    for seq in 1...groups {
      var line = record.replacingOccurrences(of: #""seq":1,"#, with: #""seq":\#(seq),"#)
      line = line.replacingOccurrences(
        of: byLabel ? "label-424242" : #""line":424242,"#,
        with: byLabel ? "label-\(seq)" : #""line":\#(seq),"#)
      text += line
      if seq % 10_000 == 0 {
        try handle.write(contentsOf: Data(text.utf8))
        text = ""
      }
    }
    try handle.close()
    return path
  }

  @Test(arguments: [("table", "site"), ("json", "site"), ("json", "label")])
  func distinctGroupsCostUnderHalfAKilobyteEach(format: String, groupBy: String) throws {
    let directory = try temporaryDirectory()
    // About 100 MB: not left behind.
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = try Self.distinctGroups(in: directory, byLabel: groupBy == "label")
    let (kib, stdout) = try BindiagReaderMemoryTests.peak([
      "summary", "--format", format, "--group-by", groupBy, "--threads", "2", path,
    ])
    if format == "table" {
      #expect(stdout.hasPrefix("200,000 events in 200,000 records"), "\(stdout.prefix(300))")
    } else {
      // The whole document, streamed group by group: valid JSON with every group.
      #expect(stdout.hasPrefix(#"{"schema":1,"events":200000,"records":200000,"#))
      let document = try #require(
        try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
      #expect((document["groups"] as? [Any])?.count == Self.groups)
    }
    #expect(
      kib < 64 * 1024 + Self.groups * Self.bytesPerGroup / 1024,
      "peak memory \(kib) KiB: \((kib - 64 * 1024) * 1024 / Self.groups) bytes a group over 64 MiB")
  }
}
