import BindingDiagnostics
import BindingDiagnosticsReport
import Foundation
import Testing

/// The write kinds (issue 30) reach every place the other kinds do: the journald catalog, the
/// SARIF rules, and the readers, which give them back their own level.
@Suite struct WriteKindCatalogTests {
  @Test(arguments: [
    (
      MisuseKind.setOffMainThread,
      "A binding made on the main thread was written from another thread",
      "Hop to"
    ),
    (
      MisuseKind.writeNotApplied, "A write through a binding did not stick",
      "normalises: true"
    ),
    (
      MisuseKind.reentrantWrite,
      "A binding was written while a write to it was still running", "The inner"
    ),
  ])
  func catalogAndSARIFRuleExplainTheKind(kind: MisuseKind, headline: String, phrase: String)
    throws
  {
    let entry = try #require(MessageCatalog.entry(for: kind.code))
    #expect(MessageCatalog.text.contains("-- \(kind.messageID)\nSubject: \(entry.subject)\n"))
    #expect(entry.paragraphs.joined(separator: " ").contains(phrase))
    #expect(entry.headline == headline)

    let rule = try #require(try sarifRules(of: [(kind: kind, level: kind.defaultLevel)]).first)
    #expect(rule["id"] as? String == kind.code)
    #expect((rule["defaultConfiguration"] as? [String: String]) == ["level": "warning"])
    #expect((rule["properties"] as? [String: String]) == ["messageId": kind.messageID])
  }

  /// Every built-in kind has its catalog entry, and reads back at its own level: the decoder's
  /// levels come from `MisuseKind.builtIn`.
  @Test func everyBuiltInKindIsCatalogedAndReadsBackAtItsLevel() {
    #expect(MessageCatalog.entries.map(\.kind) == MisuseKind.builtIn)
    for kind in MisuseKind.builtIn {
      var event = sampleEvent()
      event.kind = kind
      event.level = .critical
      for form in [JSONLinesEncoder().encode(event), LogfmtEncoder().encode(event)] {
        let (fast, exact) = classifyBytes(form.filter { $0 != UInt8(ascii: "\n") })
        for read in [fast, exact] {
          guard case .event(let decoded) = read else {
            Issue.record("\(kind.code): \(read)")
            continue
          }
          #expect(decoded.kind.defaultLevel == kind.defaultLevel, "\(kind.code)")
        }
      }
    }
  }
}
