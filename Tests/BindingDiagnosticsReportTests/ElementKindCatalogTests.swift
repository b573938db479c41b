import BindingDiagnostics
import BindingDiagnosticsReport
import Foundation
import Testing

/// The element kinds reach every place the catalog feeds: the journald catalog's text and the
/// SARIF rules, with their levels.
@Suite struct ElementKindCatalogTests {
  @Test(arguments: [
    (MisuseKind.elementReadAfterRemoval, "note", "returned the element's last value instead"),
    (MisuseKind.elementWriteAfterRemoval, "warning", "so the user's edit was lost"),
  ])
  func catalogAndSARIFRuleExplainTheKind(kind: MisuseKind, sarifLevel: String, phrase: String)
    throws
  {
    let entry = try #require(MessageCatalog.entry(for: kind.code))
    #expect(MessageCatalog.text.contains("-- \(kind.messageID)\nSubject: \(entry.subject)\n"))
    #expect(entry.paragraphs.joined(separator: " ").contains(phrase))
    #expect(
      entry.headline
        == (kind == .elementReadAfterRemoval
          ? "A binding to a collection element was read after the element was removed"
          : "A binding to a collection element was written after the element was removed"))

    var event = sampleEvent()
    event.kind = kind
    event.level = kind.defaultLevel
    var aggregator = Aggregator()
    aggregator.add(event)
    let log = try #require(
      try JSONSerialization.jsonObject(
        with: Data(SARIFRenderer(toolVersion: "1").render(aggregator.summary()).utf8))
        as? [String: Any])
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
    let rule = try #require((driver["rules"] as? [[String: Any]])?.first)
    #expect(rule["id"] as? String == kind.code)
    #expect(
      (rule["defaultConfiguration"] as? [String: String]) == ["level": sarifLevel])
    #expect(
      (rule["shortDescription"] as? [String: String])?["text"] == entry.headline)
    #expect(
      (rule["properties"] as? [String: String]) == ["messageId": kind.messageID])
  }
}
