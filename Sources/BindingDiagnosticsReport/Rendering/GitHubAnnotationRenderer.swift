import BindingDiagnostics

/// `--format github`: one GitHub Actions workflow command per call site
/// (`::error file=…,line=…,title=…::message`), so each site shows as an annotation on the
/// pull request's line without an upload step. The annotation sits at the site that made the
/// binding; its message names the writers the records carry (where the misusing calls were
/// made, by their path under the source root when it is known, as `gcc` points at them) and the
/// site's count of events.
///
/// Escaping follows the runner's rules: in the message `%`, CR and LF become `%25`, `%0D` and
/// `%0A`; in property values `:` and `,` also become `%3A` and `%2C`. Any other control
/// character is then written as a `\u00XX` escape so that nothing reaches the log raw.
package struct GitHubAnnotationRenderer: Sendable {
  /// At most this many annotations (all when `nil`).
  package var top: Int?
  /// The path to annotate for each `#fileID`, relative to the source root; a `#fileID` not in
  /// it is written as it is when it is a plain relative path
  /// (``SourceRootResolver/relativePath(_:)``), and the annotation has no file otherwise. The
  /// writers named in the message are resolved through it too.
  package var paths: [String: String]

  /// A renderer.
  /// - Parameters:
  ///   - top: The annotation limit, or `nil` for all.
  ///   - paths: Paths by `#fileID`.
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
      var properties: [(String, String)] = []
      if let file = SourceRootResolver.relativePath(paths[site.file] ?? site.file) {
        properties.append(("file", file))
        if site.line >= 1 { properties.append(("line", String(site.line))) }
      }
      properties.append(("title", "\(site.kind) (bindiag)"))
      out += "::" + GitHubAnnotationRenderer.command(group.mostSevereLevel ?? .warning) + " "
      out += properties.map { "\($0.0)=\(GitHubAnnotationRenderer.escapeProperty($0.1))" }
        .joined(separator: ",")
      out +=
        "::"
        + GitHubAnnotationRenderer.escapeData(
          SiteMessage.text(group, kind: site.kind, paths: paths))
      out += "\n"
    }
    return out
  }

  /// `error` for error and critical, `warning`, else `notice`.
  static func command(_ level: MisuseLevel) -> String {
    switch level {
    case .critical, .error: "error"
    case .warning: "warning"
    case .notice, .info, .debug, .trace: "notice"
    }
  }

  /// A message: `%` → `%25`, CR → `%0D`, LF → `%0A`, other controls escaped.
  /// - Parameter text: The message.
  package static func escapeData(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "%": out += "%25"
      case "\r": out += "%0D"
      case "\n": out += "%0A"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return DisplayText.escapingControls(out)
  }

  /// A property value: as ``escapeData(_:)``, and `:` → `%3A`, `,` → `%2C`.
  /// - Parameter text: The value.
  package static func escapeProperty(_ text: String) -> String {
    var out = ""
    for scalar in escapeData(text).unicodeScalars {
      switch scalar {
      case ":": out += "%3A"
      case ",": out += "%2C"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}

extension GitHubAnnotationRenderer: SummaryRenderer {
  /// `workflow-command annotations` in `--format` help.
  package static var formatNote: String? { "workflow-command annotations" }
  /// It points at call sites.
  package static var pointsAtSites: Bool { true }

  /// The sites' paths resolved under the source root.
  package init(for summary: Summary, context: RenderContext) {
    self.init(top: context.top, paths: context.paths)
  }
}
