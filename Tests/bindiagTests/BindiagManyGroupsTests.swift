import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// Many distinct groups are all counted and, in JSON (streamed group by group), all written.
/// Their memory cost (under 512 bytes a group over 64 MiB, on 200 000 groups) is a budget of
/// `Benchmarks/budgets.sh`, which CI runs on a release build.
@Suite struct BindiagManyGroupsTests {
  static let groups = 2_000

  /// `groups` records in `directory`, each in a group of its own: a site of its own (distinct
  /// lines), or a label of its own at one site.
  static func distinctGroups(in directory: String, byLabel: Bool) throws -> String {
    var event = fixtureEvent(seq: 1, line: 424_242)
    event.label = "label-424242"
    let record = jsonLines([event])
    var text = ""
    for seq in 1...groups {
      let line = record.replacingOccurrences(of: #""seq":1,"#, with: #""seq":\#(seq),"#)
      text += line.replacingOccurrences(
        of: byLabel ? "label-424242" : #""line":424242,"#,
        with: byLabel ? "label-\(seq)" : #""line":\#(seq),"#)
    }
    let path = directory + "/groups.jsonl"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test(arguments: [("table", "site"), ("json", "site"), ("json", "label")])
  func everyDistinctGroupIsCounted(format: String, groupBy: String) throws {
    let path = try Self.distinctGroups(in: try temporaryDirectory(), byLabel: groupBy == "label")
    let result = try bindiag(arguments: [
      "summary", "--format", format, "--group-by", groupBy, "--threads", "2", path,
    ])
    #expect(result.status == 0)
    if format == "table" {
      #expect(
        result.stdout.hasPrefix("2,000 events in 2,000 records"), "\(result.stdout.prefix(300))")
    } else {
      // The whole document, streamed group by group: valid JSON with every group.
      #expect(result.stdout.hasPrefix(#"{"schema":1,"events":2000,"records":2000,"#))
      let document = try #require(
        try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
      #expect((document["groups"] as? [Any])?.count == Self.groups)
    }
  }
}
