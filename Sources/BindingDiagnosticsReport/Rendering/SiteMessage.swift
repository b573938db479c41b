import BindingDiagnostics

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
    var text = headline(kind: kind) + ": " + HumanText.count(group.events, "event") + " in "
    text += HumanText.count(group.records, "record")
    text += ", first seen \(utc(group.first)) UTC"
    text += ", last seen \(utc(group.last)) UTC"
    if !group.labels.isEmpty {
      text += group.labels.count == 1 ? ", label " : ", labels "
      text += group.labels.map { "\"\($0)\"" }.joined(separator: ", ")
    }
    return text + "."
  }

  /// `2026-11-30 04:12:33`.
  private static func utc(_ timestamp: Timestamp) -> String {
    let clock = DisplayTimeZone.utc.wallClock(timestamp)
    return clock.date + " " + clock.time
  }
}
