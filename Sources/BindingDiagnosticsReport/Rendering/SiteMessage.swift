import BindingDiagnostics

/// The one-line text CI reports give a call site: what went wrong, how often, from where
/// (the writers, when records carry them), when, and the labels the callers gave their mappings.
package enum SiteMessage {
  /// The catalog's headline for a built-in kind; `Misuse of kind CODE` for an application's
  /// own (not the bare code: viewers such as sarif-tools strip a leading rule id).
  static func headline(kind: String) -> String {
    MessageCatalog.entry(for: kind)?.headline ?? "Misuse of kind \(kind)"
  }

  /// Writers named in a message before `and N more`.
  static let writersShown = 3

  /// `Headline: 11 events in 2 records, called from App/Model.swift:35, first seen …, last
  /// seen …, label "x".` (`called from` only when the records carry a writer).
  /// - Parameters:
  ///   - group: The site's group.
  ///   - kind: The site's kind.
  ///   - paths: Paths by `#fileID` under the source root (``SourceRootResolver``): a writer
  ///     whose file is among them is named by its path (see ``writer(_:paths:)``).
  static func text(_ group: Summary.Group, kind: String, paths: [String: String] = [:]) -> String {
    var text = headline(kind: kind) + ": " + HumanText.count(group.events, "event") + " in "
    text += HumanText.count(group.records, "record")
    if let writers = writers(group, paths: paths) { text += ", called from " + writers }
    text += ", first seen \(utc(group.first)) UTC"
    text += ", last seen \(utc(group.last)) UTC"
    if !group.labels.isEmpty {
      text += group.labels.count == 1 ? ", label " : ", labels "
      text += group.labels.map { "\"\($0)\"" }.joined(separator: ", ")
    }
    return text + "."
  }

  /// The group's writers as text: `A.swift:35`, `A.swift:35, B.swift:9`, or the first
  /// ``writersShown`` and `and N more` (`at least` when the group's list is full); `nil` for none.
  /// Each is named as ``writer(_:paths:)`` names it.
  static func writers(_ group: Summary.Group, paths: [String: String] = [:]) -> String? {
    guard !group.writers.isEmpty else { return nil }
    var text = group.writers.prefix(writersShown).map { writer($0, paths: paths) }
      .joined(separator: ", ")
    let more = group.writers.count - writersShown
    if more > 0 {
      text += group.writers.count >= Summary.Group.maxWriters ? " and at least " : " and "
      text += "\(more) more"
    }
    return text
  }

  /// A writer as a message names it: `PATH:LINE` when `paths` holds its `#fileID`'s path under
  /// the source root and that path is a plain relative one, as `gcc`'s notes point at it
  /// (`Sources/App/Model.swift:35`); else as recorded (`App/Model.swift:35`).
  static func writer(_ writer: String, paths: [String: String]) -> String {
    guard let place = location(ofWriter: writer), let resolved = paths[place.fileID],
      let path = SourceRootResolver.relativePath(resolved)
    else { return writer }
    return "\(path):\(place.line)"
  }

  /// A writer's `#fileID` and line (`App/Model.swift:35`), `nil` when it is not of that shape.
  package static func location(ofWriter writer: String) -> (fileID: String, line: Int)? {
    guard let colon = writer.lastIndex(of: ":"),
      let line = Int(writer[writer.index(after: colon)...]), line >= 1,
      colon != writer.startIndex
    else { return nil }
    return (String(writer[..<colon]), line)
  }

  /// `2026-11-30 04:12:33`.
  private static func utc(_ timestamp: Timestamp) -> String {
    let clock = DisplayTimeZone.utc.wallClock(timestamp)
    return clock.date + " " + clock.time
  }
}
