/// Where a misusing read or write was made: the first caller outside this package, for the
/// record's `writer` and a test's issue.
///
/// `fileID` is in `#fileID` style (`InboxKit/InboxModel.swift`), made from the path the debug
/// information names; `path` is that absolute path, for a test issue an editor can open.
package struct WriterSite: Sendable, Hashable {
  /// `Module/File.swift`.
  package let fileID: String
  /// The source file's path as the debug information names it.
  package let path: String
  /// The line.
  package let line: Int

  /// A writer from its parts.
  /// - Parameters:
  ///   - fileID: `Module/File.swift`.
  ///   - path: The file's path.
  ///   - line: The line.
  package init(fileID: String, path: String, line: Int) {
    self.fileID = fileID
    self.path = path
    self.line = line
  }

  /// The record's `writer`: `InboxKit/InboxModel.swift:35`.
  package var text: String { "\(fileID):\(line)" }

  /// The `#fileID`-style name of the file at `path`: the directory after the last `Sources` or
  /// `Tests` component (a SwiftPM target, named as its module usually is) and the file's name;
  /// elsewhere the file's directory and name.
  /// - Parameter path: An absolute or relative path.
  /// - Returns: `Module/File.swift`, or the file's name alone when the path has no directory.
  package static func fileID(ofPath path: String) -> String {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true)
    guard let name = parts.last else { return path }
    let folders = parts.dropLast()
    if let root = folders.lastIndex(where: { $0 == "Sources" || $0 == "Tests" }),
      root + 1 < folders.endIndex
    {
      return folders[root + 1] + "/" + name
    }
    guard let directory = folders.last else { return String(name) }
    return directory + "/" + name
  }
}
