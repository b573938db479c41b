import Foundation

/// Finds the source file of each `#fileID` (`Module/File.swift`) under a source root, so CI
/// reports can point at a path: among the files named `File.swift` under the root, the only
/// one, or else the only one inside a folder named `Module` (SwiftPM's `Sources/Module/…`, an
/// Xcode target folder). Hidden folders (`.build`, `.git`, `.swiftpm`) are skipped and symbolic
/// links are not followed.
package struct SourceRootResolver: Sendable {
  /// What became of one `#fileID`.
  package enum Resolution: Sendable, Hashable {
    /// The file's path relative to the root.
    case resolved(String)
    /// No file of that name under the root.
    case missing
    /// Not a `#fileID` (`Module/File.swift`): absolute, or with a `..`, `.` or empty component.
    case invalid
    /// Several files of that name, and not exactly one inside a folder named after the module;
    /// the candidates' paths relative to the root, sorted.
    case ambiguous([String])
  }

  /// The source root, as given.
  package let root: String

  /// A resolver for `root`.
  /// - Parameter root: A directory.
  package init(root: String) {
    self.root = root
  }

  /// Resolves each of `fileIDs`, walking the root once.
  /// - Parameter fileIDs: `#fileID`s of call sites.
  /// - Returns: A resolution for each distinct `#fileID`.
  package func resolve(_ fileIDs: some Sequence<String>) -> [String: Resolution] {
    let wanted = Set(fileIDs)
    let candidates = files(
      named: Set(
        wanted.filter { SourceRootResolver.relativePath($0) != nil }.map(
          SourceRootResolver.fileName)))
    var resolutions: [String: Resolution] = [:]
    for fileID in wanted {
      guard SourceRootResolver.relativePath(fileID) != nil else {
        resolutions[fileID] = .invalid
        continue
      }
      let found = candidates[SourceRootResolver.fileName(of: fileID)] ?? []
      resolutions[fileID] = SourceRootResolver.choose(
        found, module: SourceRootResolver.module(of: fileID))
    }
    return resolutions
  }

  /// `path` when it is a plain relative path that stays inside the directory it is relative
  /// to (no leading `/`, no `..`, `.` or empty component, no backslash); else `nil`. CI
  /// reports write no other path, so a hostile `#fileID` such as `../../../../etc/passwd`
  /// never becomes one.
  /// - Parameter path: A path from the input or the resolver.
  package static func relativePath(_ path: String) -> String? {
    guard !path.isEmpty, !path.contains("\\") else { return nil }
    for component in path.split(separator: "/", omittingEmptySubsequences: false) {
      if component.isEmpty || component == "." || component == ".." { return nil }
    }
    return path
  }

  /// The `#fileID`s among `fileIDs` that are not regular files relative to `directory`: what
  /// a CI report without `--source-root` cannot point at.
  /// - Parameters:
  ///   - fileIDs: `#fileID`s of call sites.
  ///   - directory: The directory they would be relative to, the working one by default.
  /// - Returns: The distinct ones that are not files, sorted.
  package static func notFiles(_ fileIDs: some Sequence<String>, in directory: String = ".")
    -> [String]
  {
    Set(fileIDs).filter { fileID in
      guard let path = relativePath(fileID) else { return true }
      var isDirectory: ObjCBool = false
      return !FileManager.default.fileExists(
        atPath: directory + "/" + path, isDirectory: &isDirectory)
        || isDirectory.boolValue
    }.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
  }

  /// The chosen candidate: the only one, or the only one with a folder named `module` above it.
  static func choose(_ candidates: [String], module: String?) -> Resolution {
    if candidates.isEmpty { return .missing }
    if candidates.count == 1 { return .resolved(candidates[0]) }
    if let module {
      let inModule = candidates.filter {
        $0.split(separator: "/").dropLast().contains(Substring(module))
      }
      if inModule.count == 1 { return .resolved(inModule[0]) }
    }
    return .ambiguous(candidates)
  }

  /// The file name of a `#fileID`: its last component.
  static func fileName(of fileID: String) -> String {
    String(fileID.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
  }

  /// The module of a `#fileID`: its first component, when it has more than one.
  static func module(of fileID: String) -> String? {
    let parts = fileID.split(separator: "/", omittingEmptySubsequences: false)
    return parts.count > 1 ? String(parts[0]) : nil
  }

  /// Regular files under the root whose name is one of `names`, by name, paths relative to
  /// the root and sorted.
  private func files(named names: Set<String>) -> [String: [String]] {
    var found: [String: [String]] = [:]
    guard !names.isEmpty else { return found }
    let base = URL(fileURLWithPath: root, isDirectory: true).standardizedFileURL
    let keys: [URLResourceKey] = [.isRegularFileKey]
    guard
      let walker = FileManager.default.enumerator(
        at: base, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
    else { return found }
    let prefix = base.path.hasSuffix("/") ? base.path : base.path + "/"
    for case let url as URL in walker {
      let name = url.lastPathComponent
      guard names.contains(name),
        (try? url.resourceValues(forKeys: Set(keys)))?.isRegularFile == true
      else { continue }
      let path = url.standardizedFileURL.path
      guard path.hasPrefix(prefix) else { continue }
      found[name, default: []].append(String(path.dropFirst(prefix.count)))
    }
    for name in found.keys {
      found[name]!.sort { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
    }
    return found
  }
}
