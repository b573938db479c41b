import Foundation

/// A new directory under the temporary directory holding an empty file at each of `paths`
/// (relative, folders created as needed); returns the directory's path.
public func temporaryTree(_ paths: [String]) throws -> String {
  let root = try temporaryDirectory()
  for path in paths {
    let url = URL(fileURLWithPath: root + "/" + path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data().write(to: url)
  }
  return root
}

/// The first executable called `name` in the directories of `PATH`, or `nil`.
public func executableInPath(_ name: String) -> String? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
  for directory in path.split(separator: ":") where !directory.isEmpty {
    let candidate = directory + "/" + name
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
  }
  return nil
}
