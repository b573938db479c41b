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

    let rule = try #require(try sarifRules(of: [(kind: kind, level: kind.defaultLevel)]).first)
    #expect(rule["id"] as? String == kind.code)
    #expect(
      (rule["defaultConfiguration"] as? [String: String]) == ["level": sarifLevel])
    #expect(
      (rule["shortDescription"] as? [String: String])?["text"] == entry.headline)
    #expect(
      (rule["properties"] as? [String: String]) == ["messageId": kind.messageID])
  }
}
