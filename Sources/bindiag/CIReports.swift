import BindingDiagnostics
import BindingDiagnosticsReport
import Foundation

/// The formats that point at call sites (`sarif`, `github`, `gcc`, `junit`: those whose renderer
/// ``SummaryRenderer/pointsAtSites``): resolves `#fileID`s under `--source-root`, saying once on
/// standard error which ones stay unresolved.
enum CIReports {
  /// The resolved path of each `#fileID` the shown sites and their writers name.
  static func paths(_ summary: Summary, options: ReportOptions) -> [String: String] {
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
    return paths
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
