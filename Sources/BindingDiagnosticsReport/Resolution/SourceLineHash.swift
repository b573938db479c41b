import Foundation

/// Hashes of call sites' source lines under a source root, as GitHub's code scanning keys
/// alerts by their line's text: whitespace is left out, so re-indenting a line keeps its hash,
/// and a line moved down by an edit above it keeps it too.
package enum SourceLineHash {
  /// The largest source file read.
  static let maxBytes = 16 << 20

  /// The hash of each site's line in a summary grouped by site, finding the files under `root`
  /// with ``SourceRootResolver`` (sites whose file does not resolve have none).
  /// - Parameters:
  ///   - summary: The summary.
  ///   - root: The source root.
  package static func hashes(of summary: Summary, root: String) -> [SiteKey: String] {
    let sites = summary.groups.compactMap { summary.site(of: $0) }
    var paths: [String: String] = [:]
    for (fileID, resolution) in SourceRootResolver(root: root).resolve(sites.map(\.file)) {
      if case .resolved(let path) = resolution { paths[fileID] = path }
    }
    return hashes(sites, root: root, paths: paths)
  }

  /// The hash of each site's line, for the sites whose file resolved and has that line.
  /// - Parameters:
  ///   - sites: Call sites.
  ///   - root: The source root.
  ///   - paths: Each `#fileID`'s path relative to the root (see ``SourceRootResolver``).
  /// - Returns: 16 lowercase hex digits by site.
  package static func hashes(
    _ sites: some Sequence<SiteKey>, root: String, paths: [String: String]
  ) -> [SiteKey: String] {
    var lines: [String: [Substring]] = [:]
    var hashes: [SiteKey: String] = [:]
    for site in sites {
      guard let path = paths[site.file].flatMap(SourceRootResolver.relativePath) else { continue }
      if lines[path] == nil {
        let url = URL(fileURLWithPath: root, isDirectory: true).appendingPathComponent(path)
        guard let data = try? Data(contentsOf: url), data.count <= maxBytes else { continue }
        lines[path] = String(decoding: data, as: UTF8.self).split(
          separator: "\n", omittingEmptySubsequences: false)
      }
      guard let file = lines[path], site.line >= 1, site.line <= file.count else { continue }
      let text = String(file[site.line - 1].filter { !$0.isWhitespace })
      hashes[site] = SiteIdentity.hex(SiteIdentity.fnv1a([text]))
    }
    return hashes
  }
}
