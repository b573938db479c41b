package import BindingDiagnostics
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads files, standard input and the journal into an ``Aggregator``.
package struct InputReader {
  /// A malformed line: where, and why.
  package struct MalformedLine: Sendable, Hashable {
    /// The file's path as named, or `<stdin>`, or `journal`.
    package var source: String
    /// 1-based line number (entry number for the journal).
    package var line: Int
    /// Why it is not a valid event.
    package var reason: String
  }

  /// How far a read has got in one source, for a progress line.
  package struct Progress: Sendable, Hashable {
    /// The file's path as named, or `<stdin>`, or `journal`.
    package var source: String
    /// Bytes read so far from it (`nil` for the journal).
    package var bytes: Int?
    /// Its size when known (a regular file).
    package var size: Int?
    /// Events (`1 + suppressed` per record) read so far from it, before filters.
    package var events: Int

    /// How far a read has got.
    /// - Parameters:
    ///   - source: The file's path as named, or `<stdin>`, or `journal`.
    ///   - bytes: Bytes read so far (`nil` for the journal).
    ///   - size: The size when known.
    ///   - events: Events read so far.
    package init(source: String, bytes: Int?, size: Int?, events: Int) {
      self.source = source
      self.bytes = bytes
      self.size = size
      self.events = events
    }
  }

  /// A journal entry (read from the journal, or a `journalctl -o json` line) whose trusted
  /// identity is not that of the run it claims: never a record or a loss of that run.
  package struct ForgedEntry: Sendable, Hashable {
    /// The run it claims.
    package var run: String
    /// The `seq` it claims.
    package var seq: Int
    /// Who sent it, as journald says: `uid U pid P`, then ` (another boot)` when only the boot
    /// differs.
    package var sender: String
    /// Whose the run is: `uid U pid P`.
    package var owner: String

    init(
      _ event: MisuseEvent, sender: JournalEntryDecoder.Identity,
      owner: JournalEntryDecoder.Identity
    ) {
      run = event.run
      seq = event.seq
      self.sender = sender.text + (sender.text == owner.text ? " (another boot)" : "")
      self.owner = owner.text
    }
  }

  /// Lines longer than this are malformed (`--max-line-bytes`).
  package var maxLineBytes: Int
  /// Called for every malformed line, in input order.
  package var onMalformed: (MalformedLine) -> Void
  /// Threads that classify a regular file's lines (`--threads`); 1 reads on the calling
  /// thread alone. The processors this process may run on by default.
  package var threads = InputReader.availableProcessors
  /// Bytes of a regular file per chunk (tests make it small to cross many chunk ends).
  package var chunkBytes = ChunkedFileReader.defaultChunkBytes
  /// Bytes of output a chunk holds at most (tests make it small to stop chunks early).
  package var chunkOutputBytes = ChunkedFileReader.defaultOutputBytes
  /// Called often during a read (every 64 KiB or 256 lines, 8 MiB chunk, or 1 024 journal
  /// entries) with how far it has got; the caller decides how often to show it.
  package var onProgress: ((Progress) -> Void)?
  /// Whether the local journal's runs begun by users other than root and this process's user
  /// (their first entry's trusted `_UID`) have their losses counted apart
  /// (``Aggregator/markOtherUser(run:)``): any local user can log, so one entry claiming a
  /// huge `seq` must not fail the reader's gate. Journal directories (other hosts' uids) and
  /// files are never judged so.
  package var otherUsersApart = false

  /// A reader.
  /// - Parameters:
  ///   - maxLineBytes: The longest valid line, 1 MiB by default.
  ///   - onMalformed: Receives each malformed line.
  package init(
    maxLineBytes: Int = 1 << 20, onMalformed: @escaping (MalformedLine) -> Void = { _ in }
  ) {
    self.maxLineBytes = maxLineBytes
    self.onMalformed = onMalformed
  }

  /// Reads one file (or standard input for `-`) into `aggregator`.
  /// - Parameters:
  ///   - path: A file path, or `-` for standard input.
  ///   - aggregator: Where events and line counts go.
  /// - Returns: The read error, if the file could not be read (what was read before it counts).
  package func read(path: String, into aggregator: inout Aggregator) -> Result<Void, SystemError> {
    withOpenInput(path: path) { fd, name, _ in read(fd: fd, name: name, into: &aggregator) }
  }

  /// Opens `path` (standard input for `-`, named `<stdin>`), refuses a directory, runs `body`
  /// with the descriptor, the name reports use and its status, and closes it.
  /// - Parameters:
  ///   - path: A file path, or `-` for standard input.
  ///   - body: Reads the input.
  /// - Returns: What `body` returns, or why the input could not be opened.
  func withOpenInput(
    path: String, _ body: (Int32, String, stat) -> Result<Void, SystemError>
  ) -> Result<Void, SystemError> {
    let fd: Int32
    let name: String
    if path == "-" {
      fd = 0
      name = "<stdin>"
    } else {
      fd = open(path, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else { return .failure(SystemError("open", code: errno)) }
      name = path
    }
    defer { if fd != 0 { close(fd) } }
    var info = stat()
    if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
      return .failure(SystemError("read", code: EISDIR))
    }
    return body(fd, name, info)
  }

  /// Reads an open descriptor to its end into `aggregator`.
  /// - Parameters:
  ///   - fd: The descriptor.
  ///   - name: The name used in malformed-line reports.
  ///   - aggregator: Where events and line counts go.
  /// - Returns: The read error, if reading failed part-way.
  package func read(fd: Int32, name: String, into aggregator: inout Aggregator) -> Result<
    Void, SystemError
  > {
    var info = stat()
    if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
      !InputReader.opensAnArray(fd, maxLineBytes: maxLineBytes)
    {
      var reader = ChunkedFileReader(
        fd: fd, name: name, size: Int(info.st_size), maxLineBytes: maxLineBytes,
        threads: threads, chunkBytes: chunkBytes, onMalformed: onMalformed,
        onProgress: onProgress)
      reader.outputBytes = chunkOutputBytes
      return reader.read(into: &aggregator)
    }
    return classifyLines(
      fd: fd, name: name,
      forged: { _ in
        aggregator.countForged()
        return true
      }
    ) { kind, _ in
      aggregator.add(kind)
      return true
    }
  }

  /// Whether the file's first line that is neither blank nor longer than `maxLineBytes` opens
  /// a unified-log JSON array, as ``classifyLines(fd:name:_:)`` decides it: such a file is
  /// read whole elements at a time rather than in parallel chunks of lines (`pread(2)`, so the
  /// offset stays put). `true` too when that line is not in the first 128 KiB, since the line
  /// by line read is right either way.
  static func opensAnArray(_ fd: Int32, maxLineBytes: Int) -> Bool {
    var head = [UInt8](repeating: 0, count: 128 << 10)
    let count = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return false }
    return head.withUnsafeBufferPointer { buffer in
      var start = 0
      while start < count {
        let newline = buffer[start..<count].firstIndex(of: 0x0a)
        // A full head's last line may go on past it, and so may its blank lines.
        if newline == nil, count == buffer.count { return true }
        let end = newline ?? count
        let line = UnsafeBufferPointer(rebasing: buffer[start..<end])
        let text = start == 0 ? InputReader.droppingBOM(line) : line
        start = end + 1
        if line.count > maxLineBytes { continue }
        if UnifiedLogArray.opens(line) { return true }
        if LineClassifier.classifyExactly(text) != .blank { return false }
      }
      return count == buffer.count
    }
  }

  /// `line` without a leading UTF-8 byte order mark (`EF BB BF`), which some editors and
  /// Windows tools put at the start of a file.
  static func droppingBOM(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    guard line.count >= 3, line[0] == 0xef, line[1] == 0xbb, line[2] == 0xbf else { return line }
    return UnsafeBufferPointer(rebasing: line[3...])
  }

  /// Classifies each line of `fd` as it arrives (a pipe is handed over line by line), reporting
  /// malformed ones to ``onMalformed`` too, until the end or until `body` (or `forged`) returns
  /// `false`. A `journalctl -o json` entry is checked as the journal's are (see
  /// ``readJournal(directories:into:)``): a run belongs to the trusted identity of its first
  /// such entry, and one with another identity goes to `forged`, not to `body`.
  /// - Parameters:
  ///   - fd: The descriptor.
  ///   - name: The name used in malformed-line reports.
  ///   - forged: Receives each forged journal entry.
  ///   - body: Receives each line's class and number.
  /// - Returns: The read error, if reading failed part-way.
  package func classifyLines(
    fd: Int32, name: String, forged: (ForgedEntry) -> Bool = { _ in true },
    _ body: (LineClass, Int) -> Bool
  ) -> Result<Void, SystemError> {
    var classifier = LineClassifier()
    var owners = JournalEntryDecoder.RunOwners()
    var bytesRead = 0
    var events = 0
    var nextProgress = InputReader.progressStep
    let size = onProgress == nil ? nil : InputReader.regularFileSize(fd)
    let reader = LineReader(fd: fd, maxLineBytes: maxLineBytes)
    // A `log show --style json` export: one array over many lines, read element by element.
    var array = UnifiedLogArray(maxBytes: maxLineBytes)
    var atStart = true
    func progress(_ kind: LineClass, _ number: Int) {
      if let onProgress {
        if case .event(let event) = kind { events += event.events }
        // Every 64 KiB, and every 256 lines for a slow pipe.
        if bytesRead >= nextProgress || number % 256 == 0 {
          onProgress(Progress(source: name, bytes: bytesRead, size: size, events: events))
          nextProgress = bytesRead + InputReader.progressStep
        }
      }
    }
    func element(_ element: UnifiedLogArray.Element) -> Bool {
      let (kind, number): (LineClass, Int)
      switch element {
      case .bytes(let bytes, let line):
        (kind, number) = (bytes.withUnsafeBufferPointer { classifier.classify($0) }, line)
      case .tooLong(let line):
        (kind, number) = (.malformed("entry longer than \(maxLineBytes) bytes"), line)
      }
      if case .malformed(let reason) = kind {
        onMalformed(MalformedLine(source: name, line: number, reason: reason.text))
      }
      progress(kind, number)
      return body(kind, number)
    }
    let result = reader.forEachLine { line, number in
      let kind: LineClass
      switch line {
      case .tooLong:
        kind = .malformed("line longer than \(maxLineBytes) bytes")
        bytesRead += maxLineBytes
      case .text(let bytes):
        bytesRead += bytes.count + 1
        if array.continues(with: bytes) || (atStart && UnifiedLogArray.opens(bytes)) {
          var proceed = true
          array.feed(bytes, number: number) { proceed = proceed && element($0) }
          atStart = false
          return proceed
        }
        kind = classifier.classify(number == 1 ? InputReader.droppingBOM(bytes) : bytes)
        if kind != .blank { atStart = false }
        if case .event(let event) = kind, let identity = classifier.journalIdentity,
          let owner = owners.owner(ofRun: event.run, claimedBy: identity)
        {
          return forged(ForgedEntry(event, sender: identity, owner: owner))
        }
      }
      if case .malformed(let reason) = kind {
        onMalformed(MalformedLine(source: name, line: number, reason: reason.text))
      }
      progress(kind, number)
      return body(kind, number)
    }
    array.finish { _ = element($0) }
    onProgress?(Progress(source: name, bytes: bytesRead, size: size, events: events))
    return result.map { _ in () }
  }

  /// The processors this process may run on (its CPU affinity, and the cgroup's quota where
  /// Foundation reads it).
  package static var availableProcessors: Int {
    max(1, ProcessInfo.processInfo.activeProcessorCount)
  }

  /// Bytes between two progress reports of the line-by-line reader.
  static let progressStep = 64 << 10

  /// The size of `fd` when it is a regular file.
  static func regularFileSize(_ fd: Int32) -> Int? {
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    return Int(info.st_size)
  }

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
  /// trusted identity (`_UID`, `_PID`, `_BOOT_ID`) of its first entry read (in time order for the
  /// local journal; file by file for directories), and an entry of that run with another
  /// identity is counted as forged, never as a record or a loss of the run.
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
      let access = JournalReader.localAccess()
      if access.readable.isEmpty {
        let denied = access.unreadable.count
        let message =
          denied == 0
          ? "no journal files found in \(JournalReader.localDirectories.joined(separator: " or "))"
          : "no journal files were opened due to insufficient permissions ("
            + "\(denied == 1 ? "1 file or directory" : "\(denied) files or directories") "
            + "this user may not read; root and the systemd-journal group may)"
        return [
          JournalFailure(
            path: nil, error: .call(SystemError("open", code: denied == 0 ? ENOENT : EACCES)),
            message: message)
        ]
      }
      for (path, error) in access.unreadable {
        failures.append(JournalFailure(path: path, error: .call(error), skipped: true))
      }
      // libsystemd also passes over, silently, a file it may open but not read as a journal
      // (random bytes, a truncated copy): each is opened alone first, as `--journal-dir` reads
      // them, and one refused is skipped and named, so a gate does not pass without it.
      for file in access.readable {
        let probe = JournalReader.Query(
          source: .files([file]), matches: ["BINDING_SCHEMA=1", "BINDING_RUN=-"], fields: [])
        if case .failure(let error) = JournalReader.read(probe, handler: { _ in false }) {
          // Renamed or vacuumed since it was listed: the journal read below sees it or not.
          if case .call(let call) = error, call.code == ENOENT { continue }
          failures.append(JournalFailure(path: file, error: error, skipped: true))
        }
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
    var matches = ["BINDING_SCHEMA=1"]
    if let run = aggregator.filter.run { matches.append("BINDING_RUN=\(run)") }
    let since = aggregator.filter.since.map { UInt64(max(0, $0.microsecondsSinceEpoch)) }
    let box = AggregatorBox(aggregator)
    defer { aggregator = box.value }
    let onMalformed = self.onMalformed
    let onProgress = self.onProgress
    var entries = 0
    var events = 0
    var decoder = JournalEntryDecoder()
    var owners = JournalEntryDecoder.RunOwners()
    var readable: [(path: String?, source: JournalReader.Source)] = []
    var fileFailures: [Int] = []
    let apart = otherUsersApart && directories.isEmpty
    let reader = Int(getuid())
    for (name, path, source) in sources {
      var number = 0
      let query = JournalReader.Query(
        source: source, matches: matches, fields: EventDecoder.journalFields, since: since)
      let result = JournalReader.read(query) { entry in
        number += 1
        entries += 1
        let kind = decoder.classify(entry)
        var otherUser = false
        if case .event(let event) = kind {
          let identity = JournalEntryDecoder.identity(of: entry)
          if owners.owner(ofRun: event.run, claimedBy: identity) != nil {
            box.value.countForged()
            return true
          }
          if apart, let uid = identity.uid, uid != 0, uid != reader { otherUser = true }
        }
        if case .malformed(let reason) = kind {
          onMalformed(MalformedLine(source: name, line: number, reason: reason.text))
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
    // A file that could not be read (corrupt, or shrank under the reader) is skipped when
    // others of the directories were read.
    if !readable.isEmpty, !directories.isEmpty {
      for index in fileFailures { failures[index].skipped = true }
    }
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
      var info = stat()
      if stat(path, &info) == 0 {
        (device, inode, self.path) = (UInt64(info.st_dev), UInt64(info.st_ino), nil)
      } else {
        (device, inode, self.path) = (0, 0, path)
      }
    }
  }

  /// Follows the journal, handing each matching entry's class to `handler` until it
  /// returns `false`. An entry whose trusted identity is not that of the first entry of its run
  /// that was read goes to `forged` instead.
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
    // Started after the head, the first entry of a run read may not be the run's first: its
    // owner is then looked up (the run's first entry in the whole journal) before trusting it.
    let fromHead = filter.since == nil && start == .beginning
    return JournalReader.read(query) { entry in
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
