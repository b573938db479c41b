#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Size rotation of a JSON Lines file, at the same cost whatever ``keep`` is.
///
/// A full file is renamed once, to a *generation* named after the UTC time of its rotation:
/// `PATH.20261201T141530.123456Z` (ISO 8601 basic format, microseconds, always this width), so
/// generations sort by name in the order they were rotated, oldest first, and a shell glob
/// (`PATH.2* PATH`) lists them in age order, the live file last. Then the oldest generations
/// beyond ``keep`` are deleted: one, as a rule, and never more than
/// ``maxDeletionsPerRotation``. No other file is renamed, so a reader holding a generation
/// open keeps reading it, and a writer that has not yet noticed the rotation appends to the
/// generation it was writing. Names of another form (`PATH.1` of earlier versions) are left
/// alone.
///
/// The generations are listed from the directory at the first rotation and again every
/// ``keep`` rotations (so that those other processes made are found); in between, the list is
/// kept in memory. So a rotation costs one rename and one deletion, plus a directory listing
/// spread over ``keep`` rotations.
///
/// The caller holds the file's exclusive `flock`, so one process rotates a given file at once.
package struct LogRotation {
  /// The live file.
  let path: String
  /// Generations kept.
  let keep: Int
  /// The generations' names, oldest first, as last listed and rotated since.
  private var generations: [String] = []
  /// Rotations until the directory is listed again.
  private var rotationsUntilListing = 0

  /// The most generations one rotation deletes (after `keep` was lowered, the surplus goes over
  /// the next rotations, so that none takes long).
  static let maxDeletionsPerRotation = 16

  /// Rotation of `path`, keeping `keep` generations.
  init(path: String, keep: Int) {
    self.path = path
    self.keep = keep
  }

  /// Renames the file at ``path`` to a new generation and deletes the oldest beyond ``keep``.
  /// - Returns: The `rename(2)` failure, if it failed.
  mutating func rotate() -> Result<Void, SystemError> {
    let (directory, base) = directoryAndBase
    if rotationsUntilListing == 0 {
      rotationsUntilListing = keep
      if case .success(let entries) = FileDescriptorIO.directoryEntries(directory) {
        let prefix = base + "."
        // A name dated more than a day ahead is no generation of ours (planted by someone
        // else, or left by a clock far off): left alone, as names of other forms are, so that
        // it neither orders nor blocks the names rotation gives.
        let latest =
          prefix
          + LogRotation.generationSuffix(
            Timestamp(
              microsecondsSinceEpoch: Timestamp.now().microsecondsSinceEpoch + 86_400_000_000))
        generations = entries.filter { entry in
          entry.hasPrefix(prefix)
            && LogRotation.isGenerationSuffix(entry.utf8.dropFirst(prefix.utf8.count))
            && entry <= latest
        }.sorted()
      }
    }
    rotationsUntilListing -= 1
    var name = base + "." + LogRotation.generationSuffix(Timestamp.now())
    // A name taken (a clock that stands still or went back): the next free one after it.
    var attempt = 0
    while attempt < 1000,
      generations.last.map({ $0 >= name }) == true
        || (try? FileDescriptorIO.linkStatus(directory + "/" + name).get()) != nil
    {
      attempt += 1
      name = (generations.last ?? name).prefix(base.utf8.count + 24) + "-\(attempt)"
    }
    // Never over another file: the rotation fails instead (the caller says so and goes on).
    if (try? FileDescriptorIO.linkStatus(directory + "/" + name).get()) != nil {
      return .failure(SystemError("rename", code: EEXIST))
    }
    if case .failure(let error) = FileDescriptorIO.renameFile(path, directory + "/" + name) {
      return .failure(error)
    }
    generations.append(name)
    let surplus = min(generations.count - keep, LogRotation.maxDeletionsPerRotation)
    if surplus > 0 {
      for old in generations.prefix(surplus) {
        _ = FileDescriptorIO.unlinkFile(directory + "/" + old)
      }
      generations.removeFirst(surplus)
    }
    return .success(())
  }

  /// The directory of ``path`` and the file's name in it.
  private var directoryAndBase: (directory: String, base: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let directory = String(path[..<slash])
    return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
  }

  /// `20261201T141530.123456Z` for `time`.
  static func generationSuffix(_ time: Timestamp) -> String {
    var text: [UInt8] = []
    time.appendRFC3339(to: &text)
    return String(
      decoding: text.filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: ":") }, as: UTF8.self)
  }

  /// Whether `suffix` is a generation's: `YYYYMMDDTHHMMSS.ffffffZ`, optionally `-N`.
  /// - Parameter suffix: What follows `PATH.` in a file's name.
  package static func isGenerationSuffix(_ suffix: Substring.UTF8View) -> Bool {
    let bytes = Array(suffix)
    guard bytes.count >= 23 else { return false }
    let digit: (UInt8) -> Bool = { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    for (index, byte) in bytes.prefix(23).enumerated() {
      let ok =
        switch index {
        case 8: byte == UInt8(ascii: "T")
        case 15: byte == UInt8(ascii: ".")
        case 22: byte == UInt8(ascii: "Z")
        default: digit(byte)
        }
      guard ok else { return false }
    }
    let rest = bytes.dropFirst(23)
    return rest.isEmpty
      || (rest.first == UInt8(ascii: "-") && rest.count > 1 && rest.dropFirst().allSatisfy(digit))
  }
}
