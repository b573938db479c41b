package import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Follows a JSON Lines file across rotation, like `tail -F`, without losing records: every
/// record appended while it runs is handed over once, in order per file, as long as the rotated
/// files still exist.
///
/// The JSON Lines sink rotates by renaming `PATH` to a generation named after the time of the
/// rotation (`PATH.20261201T141530.123456Z`: names sort oldest first), then creating a new
/// `PATH` (earlier versions renamed `PATH` to `PATH.1`, `PATH.1` to `PATH.2` and so on; such
/// names are read too, as older than every timestamped one); several processes may share one
/// file, and one that has not yet noticed a rotation can still append a batch to the file now
/// under its generation name. So the follower keeps each file it has seen open by its device and
/// inode, whatever name it has now, and on each ``poll(_:)``:
/// 1. looks for new files (newer than the newest one it knows: after it in `PATH.N … PATH.1,
///    PATH.<oldest time> … PATH.<newest time>, PATH`) and orders them by age, which is that order;
/// 2. takes every file's size, newest first, then reads each one up to that size, oldest first:
///    a record found in a newer file was written after everything its process had written to
///    an older one, so that is within the older file's size taken afterwards, and comes first;
/// 3. stops reading a file once no name links to it for a while, or when more than
///    ``maxFiles`` newer ones are followed.
/// A file that shrinks was truncated and is read again from its start.
package final class FileFollower {
  /// What a poll found.
  package enum Item: Sendable {
    /// A valid event (not yet filtered).
    case event(MisuseEvent)
    /// A line that looks like an event but is not one: the file's name, line number, why.
    case malformed(source: String, line: Int, reason: String)
    /// The file shrank; it is read again from its start.
    case truncated(source: String)
  }

  /// The path followed (its rotated generations are `path.<UTC time>`, or `path.1`, `path.2`, …
  /// from earlier versions).
  package let path: String
  /// The directory holding `path`, for watching.
  package let directory: String
  private let filter: EventFilter
  private let maxLineBytes: Int
  /// Followed files, oldest first.
  private var files: [FollowedFile] = []
  /// When each file no name links to was first seen so (it is still read for a while: a
  /// process may not have noticed yet).
  private var unlinkedSince: [FollowIO.Identity: ContinuousClock.Instant] = [:]
  private var classifier = LineClassifier()
  private let scratch: UnsafeMutableRawBufferPointer

  /// The most files followed at once; older ones are read to their end, then let go.
  package static let maxFiles = 64
  /// The most files newly found per poll (the oldest ones first; the rest at the next poll).
  static let maxNewFilesPerPoll = 256
  /// How long a file no name links to any more is still read.
  static let unlinkedGrace = Duration.seconds(2)

  /// Starts following `path` and its rotated siblings.
  /// - Parameters:
  ///   - path: The file.
  ///   - start: Which records already written the first ``poll(_:)`` hands over: the last `n`
  ///     events `filter` accepts (counted back through the rotated generations when needed), or
  ///     everything.
  ///   - filter: Decides which events count for `start`; polls hand over every event.
  ///   - maxLineBytes: Longer lines are malformed.
  package init(
    path: String, start: FollowStart, filter: EventFilter = EventFilter(),
    maxLineBytes: Int = 1 << 20
  ) {
    self.path = path
    self.filter = filter
    self.maxLineBytes = maxLineBytes
    if let slash = path.lastIndex(of: "/") {
      let parent = String(path[..<slash])
      directory = parent.isEmpty ? "/" : parent
    } else {
      directory = "."
    }
    scratch = .allocate(byteCount: FollowedFile.chunkBytes, alignment: 16)
    discover(initial: true)
    switch start {
    case .beginning:
      for file in files { file.move(to: 0) }
    case .last(let count):
      var wanted = count
      for file in files.reversed() where wanted > 0 {
        let found = file.startOfLastEvents(
          &wanted, before: file.offset, filter: filter, maxLineBytes: maxLineBytes,
          classifier: &classifier)
        file.move(to: found ?? 0)
      }
    }
  }

  deinit {
    scratch.deallocate()
  }

  /// Reads what was appended since the last poll to every followed file, and the files
  /// rotated in since, handing each event, malformed line and truncation to `body`.
  /// - Parameter body: Receives each item; returns `false` to stop.
  /// - Returns: `false` when `body` did.
  package func poll(_ body: (Item) -> Bool) -> Bool {
    discover(initial: false)
    var ends = [Int64?](repeating: nil, count: files.count)
    var linked = [Bool](repeating: true, count: files.count)
    for index in files.indices.reversed() {
      guard let status = files[index].status() else { continue }
      ends[index] = status.size
      linked[index] = status.linked
    }
    for (index, file) in files.enumerated() {
      guard let end = ends[index] else { continue }
      if end < file.offset {
        file.move(to: 0)
        guard body(.truncated(source: file.name)) else { return false }
      }
      guard
        file.read(
          upTo: end, maxLineBytes: maxLineBytes, scratch: scratch, classifier: &classifier, body)
      else { return false }
    }
    letGo(linked: linked)
    return true
  }

  /// Closes files no name has linked to for ``unlinkedGrace``, and the oldest beyond
  /// ``maxFiles``; all of them were just read to their end.
  private func letGo(linked: [Bool]) {
    let now = ContinuousClock.now
    var kept: [FollowedFile] = []
    for (index, file) in files.enumerated() {
      if linked[index] {
        unlinkedSince[file.identity] = nil
        kept.append(file)
        continue
      }
      let since = unlinkedSince[file.identity] ?? now
      if now - since < FileFollower.unlinkedGrace {
        unlinkedSince[file.identity] = since
        kept.append(file)
      } else {
        unlinkedSince[file.identity] = nil
      }
    }
    if kept.count > FileFollower.maxFiles {
      for file in kept.prefix(kept.count - FileFollower.maxFiles) {
        unlinkedSince[file.identity] = nil
      }
      kept.removeFirst(kept.count - FileFollower.maxFiles)
    }
    files = kept
  }
}

extension FileFollower {
  /// A file seen under a rotation name.
  private struct Sighting: Equatable {
    var identity: FollowIO.Identity
    var name: String
  }

  /// Finds files not yet followed and puts them in order of age among the followed ones.
  /// The names are looked at until two looks agree, so that a rotation by another process
  /// in the middle of a look cannot make a file be missed or misplaced. At the start, it goes
  /// on until every file found could be opened as it was seen: a file found later is read
  /// from its start.
  private func discover(initial: Bool) {
    for _ in 0..<(initial ? 8 : 1) {
      var seen = look(initial: initial)
      for _ in 0..<8 {
        let again = look(initial: initial)
        if again == seen { break }
        seen = again
      }
      if adopt(seen, initial: initial) { return }
    }
  }

  /// The files under `path` and its generations, from the newest one already followed on (or
  /// the newest ``maxFiles`` at the start), oldest first.
  ///
  /// Names are looked at newest first, down to a file already followed: a rotation in the
  /// middle of a look then makes a file be seen twice or not yet, never misplaced (the caller
  /// looks again until two looks agree).
  private func look(initial: Bool) -> [Sighting] {
    let known = Set(files.map(\.identity))
    let limit = initial ? FileFollower.maxFiles : FileFollower.maxNewFilesPerPoll + files.count
    var sightings: [Sighting] = []
    for name in namesNewestFirst() where sightings.count < limit {
      guard case .success(let info) = FollowIO.pathStatus(name), info.st_mode & S_IFMT != S_IFDIR
      else { continue }
      let identity = FollowIO.Identity(info)
      if !sightings.contains(where: { $0.identity == identity }) {
        sightings.append(Sighting(identity: identity, name: name))
      }
      if known.contains(identity) { break }
    }
    return sightings.reversed()
  }

  /// `path`, its timestamped generations newest first, then the numbered ones of earlier
  /// versions (`path.1`, `path.2`, … up to two missing in a row).
  private func namesNewestFirst() -> [String] {
    let slash = path.lastIndex(of: "/")
    let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
    let prefix = base + "."
    var names = [path]
    if case .success(let entries) = FileDescriptorIO.directoryEntries(directory) {
      names += entries.filter { entry in
        entry.hasPrefix(prefix)
          && LogRotation.isGenerationSuffix(entry.utf8.dropFirst(prefix.utf8.count))
      }.sorted(by: >).map { slash == nil ? $0 : directory + "/" + $0 }
    }
    var missing = 0
    var generation = 1
    while missing < 2 && generation <= FileFollower.maxNewFilesPerPoll + files.count {
      let name = "\(path).\(generation)"
      if case .success = FollowIO.pathStatus(name) {
        names.append(name)
        missing = 0
      } else {
        missing += 1
      }
      generation += 1
    }
    return names
  }

  /// Opens the files of `sightings` not yet followed, each placed after the followed files
  /// seen before it and before those seen after it. At the start they are read from their
  /// last complete line; later ones from their start (they were created since).
  /// - Returns: `false` when a file had been renamed since the look: it and the newer ones are
  ///   left for the next look (adopting a newer file first would lose it, as the next look
  ///   stops at the newest followed file).
  private func adopt(_ sightings: [Sighting], initial: Bool) -> Bool {
    var cursor = 0
    var added = 0
    for (index, sighting) in sightings.enumerated() {
      if let known = files.firstIndex(where: { $0.identity == sighting.identity }) {
        files[known].name = sighting.name
        cursor = max(cursor, known + 1)
        continue
      }
      guard added < FileFollower.maxNewFilesPerPoll else { break }
      let file: FollowedFile
      switch FollowedFile.open(sighting.name, expected: sighting.identity) {
      case .opened(let opened): file = opened
      case .failed: continue
      case .moved:
        // Renamed since the look: the newer ones are found at the next poll, below it.
        return false
      }
      added += 1
      if initial, let size = file.status()?.size {
        file.move(to: file.lineBoundary(atOrBefore: size))
      }
      let successor = sightings[(index + 1)...].lazy.compactMap { later in
        self.files.firstIndex { $0.identity == later.identity }
      }.first
      let position = max(cursor, successor ?? files.count)
      files.insert(file, at: position)
      cursor = position + 1
    }
    return true
  }

  /// `paths` without repeats, and without `X.N` or `X.<UTC time>` when `X` is named too (it is
  /// part of `X`'s rotation, which is followed anyway).
  /// - Parameter paths: Files named on the command line.
  package static func rotationSets(_ paths: [String]) -> [String] {
    var result: [String] = []
    for path in paths where !result.contains(path) {
      let isGeneration = paths.contains { base in
        path.hasPrefix(base + ".")
          && LogRotation.isGenerationSuffix(path.utf8.dropFirst(base.utf8.count + 1))
      }
      if isGeneration { continue }
      if let dot = path.lastIndex(of: "."),
        !path[path.index(after: dot)...].isEmpty,
        path[path.index(after: dot)...].allSatisfy(\.isASCII),
        path[path.index(after: dot)...].allSatisfy(\.isNumber),
        paths.contains(String(path[..<dot]))
      {
        continue
      }
      result.append(path)
    }
    return result
  }
}
