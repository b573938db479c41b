import BindingDiagnostics

/// `--format gcc`: one line per call site in the shape compilers print and editors parse
/// (vim's quickfix, Emacs' compilation mode, VS Code's problem matchers):
///
///     Sources/App/ContentView.swift:42:1: error: A Binding<Bool> mapped … [mapped-bool-set-true]
///
/// The severity comes from the site's most severe level: `error` for error and critical,
/// `warning`, else `note`. Column 1 stands for "the line" (events carry none). A site whose
/// file is not a plain relative path, or holds a `:` (a file named `src/main.c:1:1: error: fake`
/// would steer problem matchers to a line of its choosing), is written as
/// `bindiag: SEVERITY: …`, as compilers write what has no file. Text from the input has its
/// control characters escaped: one site, one line. When the site's records carry writers (where
/// the misusing calls were made), the message names them and a `note` line for each of the
/// first few follows, as compilers point at related places:
///
///     Sources/App/InboxModel.swift:35:1: note: called from here [mapped-bool-set-true]
package struct GCCRenderer: Sendable {
  /// At most this many sites (all when `nil`).
  package var top: Int?
  /// The path for each `#fileID`, relative to the source root; a `#fileID` not in it is
  /// written as it is when it is a plain relative path.
  package var paths: [String: String]

  /// A renderer.
  /// - Parameters:
  ///   - top: The site limit, or `nil` for all.
  ///   - paths: Paths by `#fileID` (see ``SourceRootResolver``).
  package init(top: Int? = nil, paths: [String: String] = [:]) {
    self.top = top
    self.paths = paths
  }

  /// One line per call site. Groups must be keyed by site (kind, file, line); other groups
  /// are left out.
  /// - Parameter summary: The summary.
  package func render(_ summary: Summary) -> String {
    var out = ""
    for group in summary.groups.prefix(top ?? Int.max) {
      guard let site = summary.site(of: group) else { continue }
      var line = "bindiag: "
      if let path = SourceRootResolver.relativePath(paths[site.file] ?? site.file),
        !path.contains(":")
      {
        line = path + (site.line >= 1 ? ":\(site.line):1" : "") + ": "
      }
      line += GCCRenderer.severity(group.mostSevereLevel ?? .warning) + ": "
      line += SiteMessage.text(group, kind: site.kind) + " [\(site.kind)]"
      out += DisplayText.escapingControls(line) + "\n"
      for writer in group.writers.prefix(SiteMessage.writersShown) {
        guard let place = SiteMessage.location(ofWriter: writer),
          let path = SourceRootResolver.relativePath(paths[place.fileID] ?? place.fileID),
          !path.contains(":")
        else { continue }
        out +=
          DisplayText.escapingControls(
            "\(path):\(place.line):1: note: called from here [\(site.kind)]") + "\n"
      }
    }
    return out
  }

  /// `error` for error and critical, `warning`, else `note`.
  static func severity(_ level: MisuseLevel) -> String {
    switch level {
    case .critical, .error: "error"
    case .warning: "warning"
    case .notice, .info, .debug, .trace: "note"
    }
  }
}

extension GCCRenderer: SummaryRenderer {
  /// `FILE:LINE: lines for editors` in `--format` help.
  package static var formatNote: String? { "FILE:LINE: lines for editors" }
  /// It points at call sites.
  package static var pointsAtSites: Bool { true }

  /// The sites' paths resolved under the source root.
  package init(for summary: Summary, context: RenderContext) {
    self.init(top: context.top, paths: context.paths)
  }
}
