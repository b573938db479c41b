package import BindingDiagnostics
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Reading and following the journal: the local one through libsystemd, or directories of
// journal files one file at a time.
extension InputReader {
  /// A journal that could not be read, or a directory or journal file of one.
  package struct JournalFailure: Error, Sendable, Hashable {
    /// The directory or journal file, or `nil` for the local journal.
    package var path: String?
    /// Why.
    package var error: JournalError
    /// Whether it is one journal file (or a directory of them) whose others were read: a
    /// warning (that file skipped), not a failure of the run, though a gate does not pass.
    package var skipped = false
    /// What to say instead of ``error``'s own text.
    package var message: String?
  }

  /// Reads journal entries with `BINDING_SCHEMA=1` (of the filter's run, when it names one,
  /// from its `since` on) into `aggregator`: from the local journal when `directories` is
  /// empty, or else from the journal files of each directory, one file at a time (see
  /// ``JournalReader/journalFiles(in:)``), so memory stays bounded however many hosts
  /// `systemd-journal-remote` collected. Kind, process and host are filtered here, not as
  /// journal matches, so lost-record tracking sees every record of a run, as it does for
  /// files. With `since`, the records of runs begun earlier are then read up to `since` for
  /// tracking only, so they do not count as lost.
  ///
  /// Any local user can write an entry claiming another process's run: a run belongs to the
  /// trusted identity (`_UID`, `_PID`, `_BOOT_ID`) of its first entry, and an entry of that run
  /// with another identity is counted as forged, never as a record or a loss of the run. The
  /// first entry read owns the run until an entry with another identity comes; when the first
  /// read may not be the first (with `since`, or files read one after the other, which overlap
  /// in time), the run's first entry in all sources is then looked up (the earliest in
  /// journald's time), and when it is not the one read first, the read starts again with that
  /// owner.
  /// - Parameters:
  ///   - directories: Journal directories; none for the local journal.
  ///   - aggregator: Where events go.
  /// - Returns: What could not be read; what could be read from the rest counts.
  package func readJournal(directories: [String], into aggregator: inout Aggregator)
    -> [JournalFailure]
  {
    var failures: [JournalFailure] = []
    var sources: [(name: String, path: String?, source: JournalReader.Source)] = []
    if directories.isEmpty {
      // libsystemd passes over, silently, a file it may not open or read as a journal: each is
      // looked at first, and one refused is skipped and named, so a gate does not pass without it.
      let local = JournalReader.checkLocal()
      if let unavailable = local.unavailable {
        return [
          JournalFailure(
            path: nil, error: .call(SystemError("open", code: local.denied ? EACCES : ENOENT)),
            message: unavailable)
        ]
      }
      for (path, error) in local.skipped {
        failures.append(JournalFailure(path: path, error: error, skipped: true))
      }
      sources.append(("journal", nil, .local))
    }
    var seen = Set<FileIdentity>()
    for directory in directories {
      switch JournalReader.journalFiles(in: directory) {
      case .success(let files):
        // A file reached twice (a directory named twice, a link) is read once.
        for file in files where seen.insert(FileIdentity(path: file)).inserted {
          sources.append((file, file, .files([file])))
        }
      case .failure(let error):
        failures.append(JournalFailure(path: directory, error: error))
      }
    }
    // No `BINDING_RUN` match for `--run`: the other runs' entries are read (and left out by the
    // aggregator, as from a file), since the run is judged stale against the newest record of
    // any run, as `--host` and `--process` judge theirs.
    var matches = ["BINDING_SCHEMA=1"]
    let since = aggregator.filter.since.map { UInt64(max(0, $0.microsecondsSinceEpoch)) }
    let onMalformed = self.onMalformed
    let onProgress = self.onProgress
    let apart = otherUsersApart && directories.isEmpty
    let reader = Int(getuid())
    let listed = failures
    var decoder = JournalEntryDecoder()
    // With `since`, a run's first entry in the window may not be its first: its identity owns the
    // run until an entry of the run with another identity comes. The runs so contested are looked
    // up together once the read ends (their first entries in all sources, kept for the next
    // pass); when one of those is not the first read, the read starts again with the owners
    // looked up (the entries counted for wrong ones are undone), naming no malformed entry twice:
    // two passes at most, however many runs were claimed.
    // Several files are read one after the other, so a run's first entry read may not be its
    // first either: a file that starts earlier (another host's, another user's) may hold a claim
    // made after the run's first entry in a later file. The same look-up, over every file, settles
    // it.
    let claimable = since != nil || sources.count > 1
    var lookedUp: [String: JournalEntryDecoder.Identity] = [:]
    var reported = (source: -1, entry: 0)
    var box: AggregatorBox
    var owners: JournalEntryDecoder.RunOwners
    var readable: [(path: String?, source: JournalReader.Source)]
    read: while true {
      box = AggregatorBox(aggregator)
      owners = JournalEntryDecoder.RunOwners()
      for (run, owner) in lookedUp { owners.setOwner(ofRun: run, to: owner) }
      failures = listed
      readable = []
      var fileFailures: [Int] = []
      // Runs whose owner, taken from the first entry read, met another identity: looked up
      // together once the read ends.
      var contested = Set<String>()
      var entries = 0
      var events = 0
      for (index, (name, path, source)) in sources.enumerated() {
        var number = 0
        let query = JournalReader.Query(
          source: source, matches: matches, fields: EventDecoder.journalFields, since: since)
        let result = JournalReader.read(query) { entry in
          number += 1
          entries += 1
          let kind = decoder.classify(entry)
          var otherUser = false
          if case .event(let event) = kind {
            let identity = decoder.trustedIdentity(of: entry)
            if owners.owner(ofRun: event.run, claimedBy: identity) != nil {
              if claimable, lookedUp[event.run] == nil { contested.insert(event.run) }
              box.value.countForged()
              return true
            }
            if apart, let uid = identity.uid, uid != 0, uid != reader { otherUser = true }
          }
          if case .malformed(let reason) = kind,
            index > reported.source || (index == reported.source && number > reported.entry)
          {
            onMalformed(MalformedLine(source: name, line: number, reason: reason.text))
            reported = (index, number)
          }
          if let onProgress {
            if case .event(let event) = kind { events += event.events }
            if entries % 1024 == 0 {
              onProgress(Progress(source: "journal", bytes: nil, size: nil, events: events))
            }
          }
          box.value.add(kind)
          if otherUser, case .event(let event) = kind { box.value.markOtherUser(run: event.run) }
          return true
        }
        switch result {
        case .success: readable.append((path, source))
        case .failure(let error):
          if case .files = source { fileFailures.append(failures.count) }
          failures.append(JournalFailure(path: path, error: error))
        }
      }
      if !contested.isEmpty {
        let firsts = InputReader.firstEntryIdentities(
          ofRuns: contested, in: sources.map(\.source))
        var retake = false
        for run in contested {
          guard let first = firsts[run] else { continue }
          lookedUp[run] = first
          if owners.owner(of: run) != first { retake = true }
        }
        if retake { continue read }
      }
      // A file that could not be read (corrupt, or shrank under the reader) is skipped when
      // others of the directories were read.
      if !readable.isEmpty, !directories.isEmpty {
        for index in fileFailures { failures[index].skipped = true }
      }
      break
    }
    defer { aggregator = box.value }
    guard let since else { return failures }
    let unstarted = box.value.runsWithoutStart
    guard !unstarted.isEmpty else { return failures }
    // Many runs as matches would slow libsystemd down more than reading the other entries.
    if unstarted.count <= 256, aggregator.filter.run == nil {
      matches += unstarted.map { "BINDING_RUN=\($0)" }
    }
    for (path, source) in readable {
      let before = JournalReader.Query(
        source: source, matches: matches, fields: EventDecoder.journalFields, since: nil)
      let result = JournalReader.read(before) { entry in
        guard entry.realtime < since else { return false }
        if case .event(let event) = decoder.classify(entry),
          owners.owner(ofRun: event.run, claimedBy: JournalEntryDecoder.identity(of: entry)) == nil
        {
          box.value.track(event)
        }
        return true
      }
      if case .failure(let error) = result {
        failures.append(JournalFailure(path: path, error: error))
      }
    }
    return failures
  }

  /// A file's device and inode (its path when `stat` fails), to read each file once.
  private struct FileIdentity: Hashable {
    let device: UInt64
    let inode: UInt64
    let path: String?

    init(path: String) {
      if case .success(let info) = FileDescriptorIO.pathStatus(path) {
        (device, inode, self.path) = (UInt64(info.st_dev), UInt64(info.st_ino), nil)
      } else {
        (device, inode, self.path) = (0, 0, path)
      }
    }
  }

  /// Follows the journal, handing each matching entry's class to `handler` until it
  /// returns `false`. An entry whose trusted identity is not that of its run's first entry goes
  /// to `forged` instead: the first entry read, when the read starts at the head with no match
  /// narrower than a run; otherwise the run's first entry, looked up. With `.last(n)`, the `n`
  /// entries stepped back over are those `follow` prints: forged entries do not count.
  /// - Parameters:
  ///   - directory: A journal directory, or `nil` for the local journal.
  ///   - filter: Matches (kind, process, host, run) and start time.
  ///   - start: The last `n` entries matching the filter's journal matches first (`.last`), or
  ///     all from the filter's `since` (or the head) (`.beginning`).
  ///   - forged: Receives each forged entry.
  ///   - handler: Receives each entry's class.
  /// - Returns: Why the journal could not be read.
  package static func followJournal(
    directory: String?, filter: EventFilter, start: FollowStart,
    forged: @escaping (ForgedEntry) -> Bool, handler: @escaping (LineClass) -> Bool
  ) -> Result<Void, JournalError> {
    var last: Int?
    if case .last(let count) = start { last = count }
    let query = JournalReader.Query(
      source: directory.map { .directory($0) } ?? .local, matches: journalMatches(filter),
      fields: EventDecoder.journalFields,
      since: filter.since.map { UInt64(max(0, $0.microsecondsSinceEpoch)) }, last: last,
      follow: true)
    var decoder = JournalEntryDecoder()
    var owners = JournalEntryDecoder.RunOwners()
    // Started after the head, or reading only some of a run's entries (a kind, a process or a
    // host asked of journald: a run that began with another kind, or a claim from another
    // process or host), the first entry of a run read may not be the run's first: its owner is
    // then looked up (the run's first entry in the whole journal) before trusting it.
    let fromHead =
      filter.since == nil && start == .beginning && filter.kinds.isEmpty
      && filter.process == nil && filter.host == nil
    // `-n N` counts what `follow` prints, as for files: events the filter accepts (it holds
    // more than the journal matches: the level, the file, the time window), run records never,
    // forged entries never (skipped with a warning, not printed). Stepping back starts after a
    // run's first entry, so each run's owner is looked up, as the forward read does, and kept
    // for it.
    let counts: ((JournalReader.Entry) -> Bool)? = { entry in
      var decoder = JournalEntryDecoder()
      guard case .event(let event) = decoder.classify(entry), !event.isRunRecord,
        filter.accepts(event)
      else { return false }
      if !owners.knows(event.run),
        let first = firstEntryIdentity(ofRun: event.run, in: query.source)
      {
        owners.setOwner(ofRun: event.run, to: first)
      }
      // A run whose first entry cannot be found is judged forward, by the first entry read.
      guard let owner = owners.owner(of: event.run) else { return true }
      return owner == JournalEntryDecoder.identity(of: entry)
    }
    return JournalReader.read(query, counts: counts) { entry in
      let kind = decoder.classify(entry)
      if case .event(let event) = kind {
        let identity = JournalEntryDecoder.identity(of: entry)
        if !fromHead, !owners.knows(event.run),
          let first = firstEntryIdentity(ofRun: event.run, in: query.source)
        {
          owners.setOwner(ofRun: event.run, to: first)
        }
        if let owner = owners.owner(ofRun: event.run, claimedBy: identity) {
          return forged(ForgedEntry(event, sender: identity, owner: owner))
        }
      }
      return handler(kind)
    }
  }

  /// The trusted identity of each run's first entry in `sources`: the earliest in journald's
  /// time of each source's first entry of the run (the first source's on a tie), read with one
  /// `BINDING_RUN` match per run (ORed; none past 256 runs, which would slow libsystemd down
  /// more than reading the other entries). A run with no entry is left out.
  /// - Parameters:
  ///   - runs: The runs.
  ///   - sources: Where to look, in the order they are read.
  /// - Returns: Each run's owner.
  static func firstEntryIdentities(
    ofRuns runs: Set<String>, in sources: [JournalReader.Source]
  ) -> [String: JournalEntryDecoder.Identity] {
    var firsts: [String: (time: UInt64, identity: JournalEntryDecoder.Identity)] = [:]
    var matches = ["BINDING_SCHEMA=1"]
    if runs.count <= 256 { matches += runs.sorted().map { "BINDING_RUN=\($0)" } }
    for source in sources {
      var found = Set<String>()
      let query = JournalReader.Query(
        source: source, matches: matches, fields: EventDecoder.journalFields)
      _ = JournalReader.read(query) { entry in
        guard let bytes = entry.values[ContractField.index(of: .run)],
          let run = String(validating: bytes.assumingMemoryBound(to: UInt8.self), as: UTF8.self),
          runs.contains(run), found.insert(run).inserted
        else { return true }
        if firsts[run].map({ entry.realtime < $0.time }) ?? true {
          firsts[run] = (entry.realtime, JournalEntryDecoder.identity(of: entry))
        }
        return found.count < runs.count
      }
    }
    return firsts.mapValues(\.identity)
  }

  /// The trusted identity of `run`'s first entry in `source` (`sd_journal_add_match` on
  /// `BINDING_RUN`, `sd_journal_seek_head`), or `nil` when it has none or cannot be read.
  static func firstEntryIdentity(
    ofRun run: String, in source: JournalReader.Source
  ) -> JournalEntryDecoder.Identity? {
    var identity: JournalEntryDecoder.Identity?
    let query = JournalReader.Query(
      source: source, matches: ["BINDING_SCHEMA=1", "BINDING_RUN=\(run)"],
      fields: EventDecoder.journalFields)
    _ = JournalReader.read(query) { entry in
      identity = JournalEntryDecoder.identity(of: entry)
      return false
    }
    return identity
  }

  static func journalMatches(_ filter: EventFilter) -> [String] {
    var matches = ["BINDING_SCHEMA=1"]
    matches += filter.kinds.sorted().map { "BINDING_KIND=\($0)" }
    if let process = filter.process {
      // The name shown is the claim, or `TRUSTED (as CLAIM)`: either way the claim is the
      // entry's SYSLOG_IDENTIFIER (same-name matches are ORed), and the filter picks after.
      matches.append("SYSLOG_IDENTIFIER=\(process)")
      if let claim = JournalEntryDecoder.claim(inShownName: process) {
        matches.append("SYSLOG_IDENTIFIER=\(claim)")
      }
    }
    if let host = filter.host { matches.append("_HOSTNAME=\(host)") }
    if let run = filter.run { matches.append("BINDING_RUN=\(run)") }
    return matches
  }

  package static func classify(_ entry: JournalReader.Entry) -> LineClass {
    var decoder = JournalEntryDecoder()
    return decoder.classify(entry)
  }

  /// Carries the aggregator into the journal reader's thread and back.
  ///
  /// `@unchecked Sendable`: the reader thread is the only one touching it while the read runs;
  /// the calling thread waits for the read to end before it reads `value` again.
  private final class AggregatorBox: @unchecked Sendable {
    var value: Aggregator
    init(_ value: Aggregator) { self.value = value }
  }
}
