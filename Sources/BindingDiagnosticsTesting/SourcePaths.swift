import BindingDiagnostics
import Foundation

/// Finds the source file a `#fileID` names, so a failure can carry a real path for editors.
///
/// An event carries the mapping's `#fileID` (`Module/File.swift`), not its path. Starting from a
/// file known to be in the same SwiftPM package (the test's own), this walks up to the directory
/// holding `Package.swift` and looks for the file under `Sources/Module` and `Tests/Module`.
/// Anything else (another package, an Xcode project, a renamed target directory) keeps the
/// `#fileID`, which test output shows just as well.
package enum SourcePaths {
  private static let cache = Lock<[String: String]>([:])

  /// The path of the file `fileID` names, or `fileID` itself when it cannot be found.
  /// - Parameters:
  ///   - fileID: `Module/File.swift`.
  ///   - anchorFileID: The `#fileID` of a file of the same package, whose path is known.
  ///   - anchorPath: That file's path.
  /// - Returns: An existing file's path, or `fileID`.
  package static func path(of fileID: String, anchorFileID: String, anchorPath: String) -> String {
    if fileID == anchorFileID { return anchorPath }
    guard let root = packageRoot(containing: anchorPath) else { return fileID }
    let key = root + "\u{0}" + fileID
    if let known = cache.withLock({ $0[key] }) { return known }
    let found = search(fileID, under: root) ?? fileID
    cache.withLock { $0[key] = found }
    return found
  }

  /// The nearest directory above `path` that holds a `Package.swift`.
  private static func packageRoot(containing path: String) -> String? {
    var directory = URL(fileURLWithPath: path).deletingLastPathComponent()
    while directory.path != "/" && !directory.path.isEmpty {
      let manifest = directory.appendingPathComponent("Package.swift").path
      if FileManager.default.fileExists(atPath: manifest) { return directory.path }
      directory = directory.deletingLastPathComponent()
    }
    return nil
  }

  private static func search(_ fileID: String, under root: String) -> String? {
    let parts = fileID.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
    let module = String(parts[0])
    let name = String(parts[1])
    for folder in ["Sources", "Tests"] {
      let base = root + "/" + folder + "/" + module
      guard let walker = FileManager.default.enumerator(atPath: base) else { continue }
      while let relative = walker.nextObject() as? String {
        if relative == name || relative.hasSuffix("/" + name) { return base + "/" + relative }
      }
    }
    return nil
  }
}
