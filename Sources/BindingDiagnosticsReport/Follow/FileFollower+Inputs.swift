import BindingDiagnostics

extension FileFollower {
  /// `paths` without a file named twice: a path naming the same file (device and inode, a
  /// symlink followed) as an earlier one is left out, as `summary` counts such duplicates
  /// once, and so is a rotated generation (`X.<UTC time>`, `X-<date>`, `X.N`) of a file `X` named too,
  /// whatever the spelling of their directory (it is part of `X`'s rotation, read anyway). A
  /// path that names no file yet can only be compared by its text.
  /// - Parameter paths: Files named on the command line, in order.
  package static func distinctFiles(_ paths: [String]) -> [String] {
    var seen: Set<FollowIO.Identity> = []
    var result: [String] = []
    for path in paths where !result.contains(path) {
      if case .success(let info) = FollowIO.pathStatus(path),
        !seen.insert(FollowIO.Identity(info)).inserted
      {
        continue
      }
      result.append(path)
    }
    let places = result.map(place)
    return result.indices.filter { index in
      guard let generation = places[index] else { return true }
      return !places.contains { base in
        guard let base, base.directory == generation.directory else { return false }
        return GenerationName.isGeneration(generation.name, of: base.name)
      }
    }.map { result[$0] }
  }

  /// The directory holding `path` (its device and inode: one whatever its spelling) and the
  /// name in it, or `nil` when the directory cannot be looked at.
  private static func place(_ path: String) -> (directory: FollowIO.Identity, name: String)? {
    let directory: String
    let name: String
    if let slash = path.lastIndex(of: "/") {
      let parent = String(path[..<slash])
      directory = parent.isEmpty ? "/" : parent
      name = String(path[path.index(after: slash)...])
    } else {
      directory = "."
      name = path
    }
    guard case .success(let info) = FollowIO.pathStatus(directory) else { return nil }
    return (FollowIO.Identity(info), name)
  }
}
