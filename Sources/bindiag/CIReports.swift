import BindingDiagnosticsReport
import Foundation

/// `--format sarif` and `--format github`: resolves `#fileID`s under `--source-root` (saying
/// once on standard error which ones stay unresolved), then renders.
enum CIReports {
  static func render(_ summary: Summary, options: ReportOptions, readFailed: Bool) -> String {
    var paths: [String: String] = [:]
    if let root = options.ci.sourceRoot {
      let fileIDs = summary.groups.prefix(options.top ?? Int.max).compactMap {
        summary.site(of: $0)?.file
      }
      let resolutions = SourceRootResolver(root: root).resolve(fileIDs)
      for fileID in resolutions.keys.sorted() {
        switch resolutions[fileID]! {
        case .resolved(let path): paths[fileID] = path
        case .missing: warn(fileID, root: root, "no file named \(fileName(fileID))")
        case .ambiguous(let candidates):
          warn(
            fileID, root: root,
            "\(candidates.count) files named \(fileName(fileID)) (\(candidates.joined(separator: ", "))), "
              + "not one alone in a folder named after the module")
        }
      }
    }
    switch options.format {
    case .github:
      let prefix = options.ci.sourceRoot.map(repositoryPrefix) ?? ""
      return GitHubAnnotationRenderer(top: options.top, paths: paths.mapValues { prefix + $0 })
        .render(summary)
    default:
      return SARIFRenderer(
        toolVersion: Bindiag.version, top: options.top, paths: paths,
        sourceRoot: options.ci.sourceRoot.map {
          URL(fileURLWithPath: $0, isDirectory: true).standardizedFileURL.path
        },
        executionSuccessful: !readFailed
      ).render(summary)
    }
  }

  private static func fileName(_ fileID: String) -> String {
    String(fileID.split(separator: "/").last ?? Substring(fileID))
  }

  private static func warn(_ fileID: String, root: String, _ reason: String) {
    Output.err(
      DisplayText.escapingControls(
        "warning: cannot resolve \(fileID) under \(root): \(reason); reported as the file ID")
        + "\n")
  }

  /// What goes before a path relative to the source root to make it relative to the
  /// working directory (the repository root in CI): `""` for `.`, `ios/` for `./ios`.
  static func repositoryPrefix(_ root: String) -> String {
    var root = Substring(root)
    while root.hasPrefix("./") { root = root.dropFirst(2) }
    while root.hasSuffix("/") && root.count > 1 { root = root.dropLast() }
    return root.isEmpty || root == "." ? "" : root + "/"
  }
}
