extension FileFollower {
  /// `paths` without a file named twice: a path naming the same file (device and inode, a
  /// symlink followed) as an earlier one is left out, as `summary` counts such duplicates
  /// once. A path that names no file yet can only be compared by its text.
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
    return result
  }
}
