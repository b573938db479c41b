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
/// names are read too, as older than every timestamped one, and so are logrotate's `dateext`
/// names, `PATH-20261201`, between the two); several processes may share one
/// file, and one that has not yet noticed a rotation can still append a batch to the file now
/// under its generation name. So the follower keeps each file it has seen open by its device and
/// inode, whatever name it has now, and on each ``poll(_:)``:
/// 1. looks for new files (newer than the newest one it knows: after it in `PATH.N … PATH.1,
///    PATH-<oldest date> … PATH-<newest date>, PATH.<oldest time> … PATH.<newest time>, PATH`)
///    and orders them by age, which is that order;
/// 2. takes every file's size, newest first, then reads each one up to that size, oldest first:
///    a record found in a newer file was written after everything its process had written to
///    an older one, so that is within the older file's size taken afterwards, and comes first;
/// 3. stops reading a file once no name links to it for a while, or when more than
///    ``maxFiles`` newer ones are followed.
/// A file that shrinks, or no longer holds the bytes read of it (truncated and written again
/// past where it was read), was truncated in place, as logrotate's `copytruncate` does after
/// copying it to a generation: the rest of that copy is read first, then the file from its
/// start. A file's last line with no newline after it waits for the rest while the file is the
/// newest followed (a writer may finish it), and for ``writerGrace`` once a newer file follows
/// it (the newer files wait); then, once it is let go, and at ``finish(_:)``, it is read as the
/// file's last line, as `summary` reads it.
package final class FileFollower {
  /// What a poll found.
  package enum Item: Sendable {
    /// A valid event (not yet filtered).
    case event(MisuseEvent)
    /// A line that looks like an event but is not one: the file's name, line number, why.
    case malformed(source: String, line: Int, reason: String)
    /// The file was truncated (or rewritten in place) and no rotated copy of it holds what
    /// was appended since it was last read: that is lost. It is read again from its start.
    case truncated(source: String)
  }

  /// The path followed (its rotated generations are `path.<UTC time>`, logrotate's
  /// `path-<date>`, or `path.1`, `path.2`, … from earlier versions and logrotate).
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
  /// The newest timestamped generation looked at: the next look lists only those after it.
  private var watermark: GenerationName?
  /// The file the name `path` held when last taken: while it still does, no generation can
  /// have appeared, and the directory is not listed.
  private var liveIdentity: FollowIO.Identity?
  /// Whether the last look left generations for the next one (more than
  /// ``maxNewFilesPerLook`` were new, or `path` was rotated during it).
  private var morePending = false
  /// Numbered generations (`PATH.N`, of earlier versions) let go once more than ``maxFiles``
  /// newer ones were followed, all read: no watermark holds for their names, so each look
  /// meets them again, and they are not taken again.
  private var releasedNumbered: Set<FollowIO.Identity> = []
  /// Whether a look at the start left older timestamped generations out (more than
  /// ``maxFiles``): counting back for `-n` then goes on among them.
  private var olderLeftOut = false
  /// Whether the last look for copies (``copies(of:)``) took some: the newest file is looked at
  /// again before it is read, as more may have been made while they were read.
  private var copiesTaken = false
  /// Whether the last look for copies left some for the next one (more than
  /// ``maxNewFilesPerLook``): they come before the file.
  private var copiesLeft = false

  /// The most files followed at once; older ones are read to their end, then let go.
  package static let maxFiles = 64
  /// The most generations newly taken per look (the oldest ones first; a poll looks again
  /// until none is left, reading each batch before the next).
  static let maxNewFilesPerLook = 64
  /// The most numbered generations (`PATH.1`, … of earlier versions) looked at per look.
  static let maxNumberedPerLook = 256
  /// How long a writer may go on with a file after it was rotated (the sink looks at its path
  /// at most once a second): a file no name links to any more is still read this long, and a
  /// rotated file's unfinished last line waits this long for its rest.
  static let writerGrace = Duration.seconds(2)

  /// Starts following `path` and its rotated siblings.
  /// - Parameters:
  ///   - path: The file.
  ///   - start: Which records already written the first ``poll(_:)`` hands over: the last `n`
  ///     events `filter` accepts, run records not counted (back through the rotated
  ///     generations when needed, ``maxFiles`` at a time), or everything: every generation,
  ///     oldest first, ``maxNewFilesPerLook`` at a time.
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
    switch start {
    case .beginning:
      // Every generation from its start, oldest first, a batch per look as after a start (the
      // polls take the next ones), so memory and descriptors stay bounded however many there are.
      discover(initial: false)
    case .last(let count):
      discover(initial: true)
      // Rotated during the first look: the newer generations too, before the start is placed.
      for _ in 0..<8 where morePending { discover(initial: true) }
      var wanted = count
      for file in files.reversed() where wanted > 0 {
        // Older timestamped generations left out come before the numbered ones.
        if olderLeftOut, isNumbered(file.name) { break }
        let found = file.startOfLastEvents(
          &wanted, before: file.offset, filter: filter, maxLineBytes: maxLineBytes,
          classifier: &classifier)
        file.move(to: found ?? 0)
      }
      if wanted > 0, olderLeftOut { startFurtherBack(wanted) }
    }
  }

  /// Counts back for the `wanted` events still wanted through the timestamped generations
  /// older than those followed, newest first, ``maxFiles`` at a time (each open only while it
  /// is counted), and when the start lies among them, follows from there as `-n all` does:
  /// that generation from the start found, the newer ones whole, ``maxNewFilesPerLook`` at a
  /// time; then through the numbered generations (older than them all) if events are still
  /// wanted.
  private func startFurtherBack(_ wanted: Int) {
    var wanted = wanted
    let oldest = files.lazy.compactMap { self.generationName($0.name) }.min()
    guard var bound = oldest else { return }
    var start: (name: GenerationName, offset: Int64)?
    search: while wanted > 0 {
      let batch = generations(after: nil, upTo: GenerationName(justBefore: bound), initial: true)
      guard let first = batch.kept.first else { break }
      for name in batch.kept.reversed() {
        let full = directoryPrefix + name.text
        guard case .success(let info) = FollowIO.pathStatus(full),
          case .opened(let file) = FollowedFile.open(full, expected: FollowIO.Identity(info)),
          let size = file.status()?.size
        else { continue }
        let found = file.startOfLastEvents(
          &wanted, before: file.lineBoundary(atOrBefore: size), filter: filter,
          maxLineBytes: maxLineBytes, classifier: &classifier)
        start = (name, found ?? 0)
        if found != nil { break search }
      }
      bound = first
    }
    guard let start else { return }
    files.removeAll()
    unlinkedSince.removeAll()
    liveIdentity = nil
    watermark = GenerationName(justBefore: start.name)
    discover(initial: false)
    guard let index = files.firstIndex(where: { $0.name == directoryPrefix + start.name.text })
    else { return }
    files[index].move(to: start.offset)
    // Numbered generations, older than them all: counted back through when every timestamped
    // one is wanted whole, else not read.
    for file in files[..<index].reversed() {
      let end = file.lineBoundary(atOrBefore: file.status()?.size ?? 0)
      let found = file.startOfLastEvents(
        &wanted, before: end, filter: filter, maxLineBytes: maxLineBytes,
        classifier: &classifier)
      file.move(to: found ?? 0)
    }
  }

  /// The generation name of the file at `name` (`path.<UTC time>`, `path-<date>`), if it is one.
  private func generationName(_ name: String) -> GenerationName? {
    guard name.utf8.starts(with: directoryPrefix.utf8) else { return nil }
    return GenerationName(
      String(name.utf8.dropFirst(directoryPrefix.utf8.count))!, base: baseName)
  }

  /// Whether `name` is a numbered generation of `path` (`path.N`, of earlier versions).
  private func isNumbered(_ name: String) -> Bool {
    GenerationName.isNumbered(name, of: path)
  }

  deinit {
    scratch.deallocate()
  }

  /// Reads what was appended since the last poll to every followed file, and the files
  /// rotated in since, handing each event, malformed line and truncation to `body`.
  /// - Parameter body: Receives each item; returns `false` to stop.
  /// - Returns: `false` when `body` did.
  package func poll(_ body: (Item) -> Bool) -> Bool {
    poll(waiting: true, body)
  }

  /// Reads what was appended since the last poll as ``poll(_:)`` does (newer files do not wait
  /// for an older one's unfinished last line), then hands over each followed file's unfinished
  /// last line as its last line (see
  /// ``FollowedFile/finishLastLine(maxLineBytes:classifier:_:)``): following ends, and no
  /// writer's later bytes will be read.
  /// - Parameter body: Receives each item; returns `false` to stop.
  /// - Returns: `false` when `body` did.
  package func finish(_ body: (Item) -> Bool) -> Bool {
    guard poll(waiting: false, body) else { return false }
    for file in files {
      guard file.finishLastLine(maxLineBytes: maxLineBytes, classifier: &classifier, body)
      else { return false }
    }
    return true
  }

  /// ``poll(_:)``; `waiting`: newer files wait for an older one's unfinished last line.
  private func poll(waiting: Bool, _ body: (Item) -> Bool) -> Bool {
    repeat {
      discover(initial: false)
      guard let done = pollFollowed(waiting: waiting, body) else { return false }
      // Newer files wait for an older one's last line: no more of them are taken meanwhile.
      if !done { return true }
    } while morePending || copiesLeft
    return true
  }

  /// Reads every followed file up to the size it has now, then lets go of those done with.
  ///
  /// A file that shrank, or no longer holds what was read of it (truncated, then written past
  /// where it was read: the newest file is looked at every time, older ones when they grew), was
  /// truncated or rewritten in place: the rest of its rotated copy, if there is one, and the
  /// copies made after it are read first (see ``copies(of:)``), then the file from its start.
  /// So are the copies made since when the newest file, nothing of which was read yet, was
  /// modified (it may have been written, copied and truncated since, more than once). A file a
  /// newer one follows (rotated away, or replaced) has its unfinished last line read as its last
  /// before the newer files are read; while `waiting`, only once it has not grown for
  /// ``writerGrace`` (a writer that has not noticed the rotation may be appending the rest): the
  /// newer files wait.
  /// - Returns: `nil` when `body` returned `false`; `false` when newer files wait.
  private func pollFollowed(waiting: Bool, _ body: (Item) -> Bool) -> Bool? {
    var ends = [Int64?](repeating: nil, count: files.count)
    var linked = [Bool](repeating: true, count: files.count)
    var modified = [Bool](repeating: false, count: files.count)
    for index in files.indices.reversed() {
      guard let status = files[index].status() else { continue }
      ends[index] = status.size
      linked[index] = status.linked
      modified[index] = status.modified != files[index].modified
      files[index].modified = status.modified
    }
    var index = 0
    // The file a look for copies found none of (it is read now), and whether copies were taken.
    var looked: FollowedFile?
    var took = false
    while index < files.count {
      let file = files[index]
      guard let end = ends[index] else {
        index += 1
        continue
      }
      let newest = index == files.count - 1
      let replaced =
        end < file.offset || ((end > file.offset || newest) && !file.holds(whatWasReadOf: file))
      // Nothing read of the newest file yet, and it changed, or copies were just taken: more
      // may have been made since (while those were read).
      let unread = newest && file.offset == 0 && (modified[index] || copiesTaken)
      if replaced || (unread && file !== looked) {
        // More copies than one look takes: the next pass takes the next ones, after the files
        // read are let go.
        if !replaced, took, copiesLeft { break }
        // logrotate copies the file `path` names; another one is only truncated.
        let (copies, held) =
          liveFile() == file.identity ? copies(of: file) : ([], file.offset == 0)
        copiesTaken = !copies.isEmpty
        took = took || copiesTaken
        if copies.isEmpty { looked = file }
        file.move(to: 0)
        files.insert(contentsOf: copies, at: index)
        ends.insert(contentsOf: copies.map { $0.status()?.size }, at: index)
        linked.insert(contentsOf: copies.map { _ in true }, at: index)
        modified.insert(contentsOf: copies.map { _ in false }, at: index)
        if replaced, !held {
          guard body(.truncated(source: file.name)) else { return nil }
        }
        continue
      }
      guard
        file.read(
          upTo: end, maxLineBytes: maxLineBytes, scratch: scratch, classifier: &classifier, body)
      else { return nil }
      if index < files.count - 1 {
        if waiting, file.hasUnfinishedLine, .now - file.grewAt < FileFollower.writerGrace {
          return false
        }
        guard file.finishLastLine(maxLineBytes: maxLineBytes, classifier: &classifier, body)
        else { return nil }
      }
      index += 1
    }
    return letGo(linked: linked, body) ? true : nil
  }

  /// The copies logrotate's `copytruncate` made of `file` (`path.1`, `path-<date>`) since it
  /// was last read, oldest first, to be followed before it: the generations newer than every one
  /// followed. One that begins as what was read of `file` is its copy: it is read from where
  /// `file` was (its unfinished last line whole) when it holds all that was read
  /// (``FollowedFile/holds(whatWasReadOf:)``), else followed from its end (it was copied before
  /// `file` was read that far). The others are copies of later truncations, read whole; but not
  /// one that is empty or begins as `file` does now: it may still be being copied, and its
  /// truncation is still to come.
  /// At most ``maxNewFilesPerLook`` dated or timestamped ones are taken at a time, the oldest
  /// (``copiesLeft`` then says more are left).
  /// - Returns: The copies, and whether one held what was read (what was appended since the
  ///   last read is lost otherwise; nothing is, when nothing was read).
  private func copies(of file: FollowedFile) -> (copies: [FollowedFile], held: Bool) {
    let newest = files.lazy.compactMap { self.generationName($0.name) }.max()
    // Followed, or seen twice (renamed while looked at).
    var known = Set(files.map(\.identity))
    let listed = generations(after: newest, upTo: nil, initial: false)
    copiesLeft = listed.more
    let names =
      numberedSightings(initial: false).map(\.name)
      + listed.kept.map { directoryPrefix + $0.text }
    var copies: [FollowedFile] = []
    for name in names {
      guard case .success(let info) = FollowIO.pathStatus(name),
        known.insert(FollowIO.Identity(info)).inserted,
        case .opened(let copy) = FollowedFile.open(name, expected: FollowIO.Identity(info)),
        // Empty, or a copy of what `file` holds now: logrotate may still be copying it, and is
        // still to truncate `file`. It is looked at again at the next look.
        (copy.status()?.size ?? 0) > 0, !copy.beginsAsNow(file)
      else { continue }
      copies.append(copy)
    }
    var held = file.offset == 0
    for copy in copies where file.offset > 0 && copy.begins(like: file) {
      if (copy.status()?.size ?? 0) >= file.offset, copy.holds(whatWasReadOf: file) {
        copy.move(to: file.lineStart)
        held = true
      } else {
        copy.move(to: copy.status()?.size ?? 0)
      }
    }
    return (copies, held)
  }

  /// Closes files no name has linked to for ``writerGrace``, and the oldest beyond
  /// ``maxFiles``; all of them were just read to their end, and their unfinished last lines
  /// are read as their last.
  /// - Returns: `false` when `body` did.
  private func letGo(linked: [Bool], _ body: (Item) -> Bool) -> Bool {
    let now = ContinuousClock.now
    var kept: [FollowedFile] = []
    for (index, file) in files.enumerated() {
      if linked[index] {
        unlinkedSince[file.identity] = nil
        kept.append(file)
        continue
      }
      let since = unlinkedSince[file.identity] ?? now
      if now - since < FileFollower.writerGrace {
        unlinkedSince[file.identity] = since
        kept.append(file)
      } else {
        unlinkedSince[file.identity] = nil
        guard file.finishLastLine(maxLineBytes: maxLineBytes, classifier: &classifier, body)
        else {
          files = kept + files[(index + 1)...]
          return false
        }
      }
    }
    if kept.count > FileFollower.maxFiles {
      for file in kept.prefix(kept.count - FileFollower.maxFiles) {
        unlinkedSince[file.identity] = nil
        if isNumbered(file.name) { releasedNumbered.insert(file.identity) }
      }
      kept.removeFirst(kept.count - FileFollower.maxFiles)
    }
    files = kept
    return true
  }
}

extension FileFollower {
  /// A file seen under a rotation name.
  private struct Sighting: Equatable {
    var identity: FollowIO.Identity
    var name: String
  }

  /// Finds the files not yet followed and puts them in order of age among the followed ones,
  /// at most ``maxNewFilesPerLook`` generations at a time (``morePending`` then says the next
  /// look goes on from there).
  ///
  /// The names are not looked at while the name `path` still holds the file it held at the last
  /// look: the sink makes a generation only by renaming `path`, so none can have appeared
  /// (thousands of generations then cost a follow nothing per poll, and the writer no directory
  /// lock). Otherwise:
  /// 1. the directory is listed once for the generations after ``watermark`` (named after
  ///    their rotation time, so they sort in the order they were made), keeping the oldest
  ///    ``maxNewFilesPerLook`` (the newest ``maxFiles`` at a start from the last events): the
  ///    newest kept is the *cut*;
  /// 2. it is listed again for the generations up to the cut: each of them was made before the
  ///    one named the cut, which the first listing saw, so before the second listing began,
  ///    which therefore sees them all, a rotation during the first listing included;
  /// 3. `path` itself is looked at last, and taken only when no generation is left beyond the
  ///    cut (everything it holds is newer than them) and it still holds the file it held
  ///    before the listings: a file it holds only since may come after generations made after
  ///    the listings, which they missed (the next look lists them, then takes `path`).
  /// The watermark moves to the cut: a generation is never skipped, however many were made
  /// between two polls, as long as it still exists.
  private func discover(initial: Bool) {
    let before = liveFile()
    if !initial, !morePending, let before, before == liveIdentity { return }
    let first = generations(after: watermark, upTo: nil, initial: initial)
    var sightings: [Sighting] = numberedSightings(initial: initial)
    var more = false
    var cut = watermark
    if let firstCut = first.kept.last {
      let second = generations(after: watermark, upTo: firstCut, initial: initial)
      more = first.more || second.more
      cut = second.kept.last ?? firstCut
      for name in second.kept {
        let full = directoryPrefix + name.text
        guard case .success(let info) = FollowIO.pathStatus(full), info.st_mode & S_IFMT != S_IFDIR
        else { continue }
        sightings.append(Sighting(identity: FollowIO.Identity(info), name: full))
      }
    }
    let live = liveFile()
    // `path` changed during this look: generations made after the listings may be older than
    // the file it holds now (two rotations), and are not read yet. It is taken at the next
    // look, which lists them first.
    if live != before { more = true }
    if !more, let live { sightings.append(Sighting(identity: live, name: path)) }
    // A file seen twice (renamed between two looks at it) belongs at its newest place.
    var unique: [Sighting] = []
    for sighting in sightings.reversed() where !unique.contains(sighting) {
      if !unique.contains(where: { $0.identity == sighting.identity }) { unique.append(sighting) }
    }
    adopt(unique.reversed(), initial: initial)
    watermark = cut
    morePending = more
    if !more, let live, files.contains(where: { $0.identity == live }) { liveIdentity = live }
  }

  /// The file the name `path` holds now (`stat(2)`), or `nil` when none does.
  private func liveFile() -> FollowIO.Identity? {
    guard case .success(let info) = FollowIO.pathStatus(path), info.st_mode & S_IFMT != S_IFDIR
    else { return nil }
    return FollowIO.Identity(info)
  }

  /// `directory/`, or nothing when `path` has no directory part.
  private var directoryPrefix: String {
    path.contains("/") ? (directory.hasSuffix("/") ? directory : directory + "/") : ""
  }

  /// The name of `path` in its directory.
  private var baseName: String {
    path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
  }

  /// The timestamped and dated generations of `path` after `after` and up to `upTo`, oldest
  /// first, from one listing of the directory, in bounded memory: the oldest
  /// ``maxNewFilesPerLook`` of them, or at a start from the last events (`initial`) the newest
  /// ``maxFiles``, and whether more were left out (after the last kept). Names dated more than
  /// a day ahead are not the sink's (it leaves them alone too): they would hold the watermark
  /// far ahead.
  private func generations(
    after: GenerationName?, upTo: GenerationName?, initial: Bool
  ) -> (kept: [GenerationName], more: Bool) {
    let base = baseName
    let latest = GenerationName.latestPlausible()
    let limit = initial ? FileFollower.maxFiles : FileFollower.maxNewFilesPerLook
    var kept: [GenerationName] = []
    var more = false
    func trim() {
      kept.sort()
      guard kept.count > limit else { return }
      if initial {
        olderLeftOut = true
        kept.removeFirst(kept.count - limit)
      } else {
        more = true
        kept.removeLast(kept.count - limit)
      }
    }
    FollowIO.forEachName(in: directory) { entry in
      guard let name = GenerationName(entry, base: base), name <= latest else { return }
      if let after, name <= after { return }
      if let upTo, name > upTo {
        more = true
        return
      }
      kept.append(name)
      if kept.count >= 2 * limit { trim() }
    }
    trim()
    return (kept, more)
  }

  /// The numbered generations of earlier versions (`path.1`, `path.2`, …, up to two missing in
  /// a row), oldest first: older than every timestamped one, and looked at newest first down to
  /// one already followed, at most ``maxNumberedPerLook`` more than are followed (their names
  /// shift at each rotation, so no watermark holds for them).
  private func numberedSightings(initial: Bool) -> [Sighting] {
    let known = Set(files.map(\.identity))
    let limit = initial ? FileFollower.maxFiles : FileFollower.maxNumberedPerLook + files.count
    var sightings: [Sighting] = []
    var missing = 0
    var generation = 1
    while missing < 2 && sightings.count < limit {
      let name = "\(path).\(generation)"
      generation += 1
      guard case .success(let info) = FollowIO.pathStatus(name), info.st_mode & S_IFMT != S_IFDIR
      else {
        missing += 1
        continue
      }
      missing = 0
      let identity = FollowIO.Identity(info)
      // Let go, all read: the older ones were too.
      if releasedNumbered.contains(identity) { break }
      sightings.append(Sighting(identity: identity, name: name))
      if known.contains(identity) { break }
    }
    return sightings.reversed()
  }

  /// Opens the files of `sightings` not yet followed, each placed after the followed files
  /// seen before it and before those seen after it. At the start they are read from their
  /// last complete line; later ones from their start (they were created since). A file gone
  /// or replaced since it was seen is passed over: a generation deleted before it could be
  /// read, or `path` rotated meanwhile (found under its generation's name at the next look).
  private func adopt(_ sightings: [Sighting], initial: Bool) {
    var cursor = 0
    for (index, sighting) in sightings.enumerated() {
      if let known = files.firstIndex(where: { $0.identity == sighting.identity }) {
        files[known].name = sighting.name
        cursor = max(cursor, known + 1)
        continue
      }
      guard case .opened(let file) = FollowedFile.open(sighting.name, expected: sighting.identity)
      else { continue }
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
  }

  /// `paths` without repeats, and without `X.N`, `X.<UTC time>` or `X-<date>` when `X` is
  /// named too (it is part of `X`'s rotation, which is followed anyway).
  /// - Parameter paths: Files named on the command line.
  package static func rotationSets(_ paths: [String]) -> [String] {
    var result: [String] = []
    for path in paths where !result.contains(path) {
      if paths.contains(where: { GenerationName.isGeneration(path, of: $0) }) { continue }
      result.append(path)
    }
    return result
  }
}
