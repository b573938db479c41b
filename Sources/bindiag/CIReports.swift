import BindingDiagnostics
import BindingDiagnosticsReport
import Foundation

/// `--format sarif`, `github`, `gcc` and `junit`: resolves `#fileID`s under `--source-root` (saying
/// once on standard error which ones stay unresolved), then renders.
enum CIReports {
  static func render(
    _ summary: Summary, options: ReportOptions, readFailed: Bool, verdict: CheckVerdict?
  ) -> String {
    var paths: [String: String] = [:]
    if let root = options.ci.sourceRoot {
      // The sites' files, and their writers' (the reports point at both).
      var fileIDs = Set<String>()
      for group in summary.groups.prefix(options.top ?? Int.max) {
        guard let site = summary.site(of: group) else { continue }
        fileIDs.insert(site.file)
        for writer in group.writers {
          if let place = SiteMessage.location(ofWriter: writer) { fileIDs.insert(place.fileID) }
        }
      }
      let resolutions = SourceRootResolver(root: root).resolve(fileIDs)
      for fileID in resolutions.keys.sorted() {
        switch resolutions[fileID]! {
        case .resolved(let path): paths[fileID] = path
        case .missing: warn(fileID, root: root, "no file named \(fileName(fileID))")
        case .invalid:
          Output.err(
            DisplayText.escapingControls(
              "warning: \(fileID) is not a #fileID (Module/File.swift); reported without a file")
              + "\n")
        case .ambiguous(let candidates):
          warn(
            fileID, root: root,
            "\(candidates.count) files named \(fileName(fileID)) (\(candidates.joined(separator: ", "))), "
              + "not one alone in a folder named after the module")
        }
      }
    }
    if options.ci.sourceRoot == nil {
      let notFiles = SourceRootResolver.notFiles(
        summary.groups.prefix(options.top ?? Int.max).compactMap { summary.site(of: $0)?.file })
      if let example = notFiles.first {
        Output.err(
          DisplayText.escapingControls(
            "warning: \(notFiles.count == 1 ? "1 #fileID is not a file" : "\(notFiles.count) #fileIDs are not files") "
              + "here (such as \(example)); --source-root DIR finds their files")
            + "\n")
      }
    }
    switch options.format {
    case .github:
      return GitHubAnnotationRenderer(top: options.top, paths: paths).render(summary)
    case .gcc:
      return GCCRenderer(top: options.top, paths: paths).render(summary)
    case .junit:
      // As `check` decides: the one verdict its exit code reads.
      return JUnitRenderer(top: options.top, paths: paths, verdict: verdict!).render(summary)
    default:
      return SARIFRenderer(
        toolVersion: Bindiag.version, top: options.top, paths: paths,
        sourceRoot: options.ci.sourceRoot.map {
          URL(fileURLWithPath: $0, isDirectory: true).standardizedFileURL.path
        },
        executionSuccessful: !readFailed,
        sources: options.ci.sourceRoot.map { root in
          SourceLineHash.hashes(
            summary.groups.prefix(options.top ?? Int.max).compactMap { summary.site(of: $0) },
            root: root, paths: paths)
        } ?? [:]
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
}
