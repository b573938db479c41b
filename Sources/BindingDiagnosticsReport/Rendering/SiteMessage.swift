/// The one-line text CI reports give a call site: what went wrong, how often, when, and the
/// labels the callers gave their mappings.
enum SiteMessage {
  /// The catalog's headline for a built-in kind; `Misuse of kind CODE` for an application's
  /// own (not the bare code: viewers such as sarif-tools strip a leading rule id).
  static func headline(kind: String) -> String {
    MessageCatalog.entry(for: kind)?.headline ?? "Misuse of kind \(kind)"
  }

  /// `Headline: 11 events in 2 records, first seen …, last seen …, label "x".`
  static func text(_ group: Summary.Group, kind: String) -> String {
    var text = headline(kind: kind) + ": " + counted(group.events, "event") + " in "
    text += counted(group.records, "record")
    text += ", first seen \(TableRenderer.short(group.first)) UTC"
    text += ", last seen \(TableRenderer.short(group.last)) UTC"
    if !group.labels.isEmpty {
      text += group.labels.count == 1 ? ", label " : ", labels "
      text += group.labels.map { "\"\($0)\"" }.joined(separator: ", ")
    }
    return text + "."
  }

  /// `1 event`, `2 events`.
  static func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }
}
