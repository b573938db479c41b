package import Testing

extension MisuseSite {
  /// Where an issue for this site is recorded: the writer's line when it is known, else the
  /// mapping's, in the file its `#fileID` names (the writer's own path when known, else a real
  /// path when ``SourcePaths`` finds one near `anchor`).
  ///
  /// A site Swift Testing cannot point at (a `fileID` without `/`, a line below 1, possible
  /// for app-defined reports) falls back to `anchor`.
  /// - Parameters:
  ///   - anchor: A location in the same package: the test's, or the caller's.
  ///   - writerPath: The writer's file path, when the debug information named it.
  /// - Returns: The source location.
  package func sourceLocation(near anchor: SourceLocation, writerPath: String? = nil)
    -> SourceLocation
  {
    if let (writerFileID, writerLine) = MisuseSite.split(writer), writerFileID.contains("/"),
      !writerFileID.hasPrefix("/"), writerLine > 0
    {
      let path =
        writerPath
        ?? SourcePaths.path(
          of: writerFileID, anchorFileID: anchor.fileID, anchorPath: anchor.filePath)
      return SourceLocation(fileID: writerFileID, filePath: path, line: writerLine, column: 1)
    }
    guard fileID.contains("/"), !fileID.hasPrefix("/"), line > 0 else { return anchor }
    let path = SourcePaths.path(
      of: fileID, anchorFileID: anchor.fileID, anchorPath: anchor.filePath)
    return SourceLocation(fileID: fileID, filePath: path, line: line, column: 1)
  }

  /// `Module/File.swift:35` as its file and line.
  package static func split(_ writer: String?) -> (fileID: String, line: Int)? {
    guard let writer, let colon = writer.lastIndex(of: ":"),
      let line = Int(writer[writer.index(after: colon)...])
    else { return nil }
    return (String(writer[..<colon]), line)
  }
}
