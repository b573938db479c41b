package import BindingDiagnostics

/// A call site as CI reports and baselines key it: the kind, the `#fileID` and the line.
package struct SiteKey: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The misuse kind's code.
  package var kind: String
  /// The call site's `#fileID` (`Module/File.swift`).
  package var file: String
  /// The call site's line.
  package var line: Int

  /// A site.
  /// - Parameters:
  ///   - kind: The kind's code.
  ///   - file: The `#fileID`.
  ///   - line: The line.
  package init(kind: String, file: String, line: Int) {
    self.kind = kind
    self.file = file
    self.line = line
  }

  /// Orders by file, then line, then kind, comparing text by code points, so a sorted list
  /// reads file by file and does not depend on the locale.
  package static func < (lhs: SiteKey, rhs: SiteKey) -> Bool {
    if lhs.file != rhs.file {
      return lhs.file.unicodeScalars.lexicographicallyPrecedes(rhs.file.unicodeScalars)
    }
    if lhs.line != rhs.line { return lhs.line < rhs.line }
    return lhs.kind.unicodeScalars.lexicographicallyPrecedes(rhs.kind.unicodeScalars)
  }

  /// Whether `groupBy` keys groups by site: exactly kind, file and line, in any order.
  /// - Parameter groupBy: Grouping fields.
  package static func isKey(_ groupBy: [GroupField]) -> Bool {
    groupBy.count == 3 && Set(groupBy) == [.kind, .file, .line]
  }

  /// `kind at File.swift:LINE`.
  package var description: String { "\(kind) at \(file):\(line)" }
}

extension Summary {
  /// Whether the groups are keyed by exactly kind, file and line (`--group-by site`, in any
  /// order), which SARIF, annotations and baselines need.
  package var isGroupedBySite: Bool { SiteKey.isKey(groupBy) }

  /// The site of `group`, or `nil` when the summary is not grouped by site.
  /// - Parameter group: One of this summary's groups.
  package func site(of group: Group) -> SiteKey? {
    guard isGroupedBySite else { return nil }
    var site = SiteKey(kind: "", file: "", line: 0)
    for (field, part) in zip(groupBy, group.key) {
      switch (field, part) {
      case (.kind, .text(let kind)): site.kind = kind
      case (.file, .text(let file)): site.file = file
      case (.line, .number(let line)): site.line = line
      default: return nil
      }
    }
    return site
  }
}

extension Summary.Group {
  /// The most severe level among the group's events.
  package var mostSevereLevel: MisuseLevel? { levels.keys.max() }
}
