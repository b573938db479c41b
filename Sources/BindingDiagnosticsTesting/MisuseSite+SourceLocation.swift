package import Testing

extension MisuseSite {
  /// Where a failure for this site is recorded: the mapping's line, in the file its `#fileID`
  /// names (a real path when ``SourcePaths`` finds one near `anchor`).
  ///
  /// A site Swift Testing cannot point at (a `fileID` without `/`, a line below 1, possible
  /// for app-defined reports) falls back to `anchor`.
  /// - Parameter anchor: A location in the same package: the test's, or the caller's.
  /// - Returns: The source location.
  package func sourceLocation(near anchor: SourceLocation) -> SourceLocation {
    guard fileID.contains("/"), !fileID.hasPrefix("/"), line > 0 else { return anchor }
    let path = SourcePaths.path(
      of: fileID, anchorFileID: anchor.fileID, anchorPath: anchor.filePath)
    return SourceLocation(fileID: fileID, filePath: path, line: line, column: 1)
  }
}
