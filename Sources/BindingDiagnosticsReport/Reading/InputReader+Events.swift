package import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension InputReader {
  /// Reads journal entries with `BINDING_SCHEMA=1` (of `run`, when given, from `since` on) and
  /// hands each one's class to `body` in the journal's order, as ``readJournal(directories:into:)``
  /// reads them for a summary but without aggregating: for `bindiag export`, which writes the
  /// events themselves. The local journal when `directories` is empty, else each directory's
  /// journal files one at a time (a file reached twice is read once). An entry whose trusted
  /// identity (`_UID`, `_PID`, `_BOOT_ID`) is not that of its run's first entry goes to
  /// `forged`, never to `body`; with `since`, each run's first entry is looked up in its source
  /// when the run is first met (an entry forged at the window's start would otherwise take it).
  /// - Parameters:
  ///   - directories: Journal directories; none for the local journal.
  ///   - run: The only run to read (a journal match), or `nil` for all.
  ///   - since: The earliest entry read (journald's realtime), or `nil` for the head.
  ///   - forged: Receives each forged entry.
  ///   - body: Receives each entry's class; returns `false` to stop.
  /// - Returns: What could not be read; what could be read from the rest was handed on. A
  ///   journal file that could not be read when others of the directories were is `skipped`.
  package func readJournalEntries(
    directories: [String], run: String? = nil, since: Timestamp? = nil,
    forged: (ForgedEntry) -> Void, _ body: (LineClass) -> Bool
  ) -> [JournalFailure] {
    var failures: [JournalFailure] = []
    var sources: [(name: String, path: String?, source: JournalReader.Source)] = []
    if directories.isEmpty { sources.append(("journal", nil, .local)) }
    var seen = Set<[UInt64]>()
    for directory in directories {
      switch JournalReader.journalFiles(in: directory) {
      case .success(let files):
        for file in files {
          let identity =
            (try? FileDescriptorIO.pathStatus(file).get()).map {
              [UInt64($0.st_dev), UInt64($0.st_ino)]
            } ?? []
          if !identity.isEmpty, !seen.insert(identity).inserted { continue }
          sources.append((file, file, .files([file])))
        }
      case .failure(let error):
        failures.append(JournalFailure(path: directory, error: error))
      }
    }
    var matches = ["BINDING_SCHEMA=1"]
    if let run { matches.append("BINDING_RUN=\(run)") }
    let start = since.map { UInt64(max(0, $0.microsecondsSinceEpoch)) }
    var decoder = JournalEntryDecoder()
    var owners = JournalEntryDecoder.RunOwners()
    var readable = 0
    var fileFailures: [Int] = []
    var stopped = false
    for (name, path, source) in sources where !stopped {
      var number = 0
      let query = JournalReader.Query(
        source: source, matches: matches, fields: EventDecoder.journalFields, since: start)
      let result = withoutActuallyEscaping(body) { body in
        withoutActuallyEscaping(forged) { forged in
          JournalReader.read(query) { entry in
            number += 1
            let kind = decoder.classify(entry)
            if case .event(let event) = kind {
              let identity = JournalEntryDecoder.identity(of: entry)
              // Read from `since` on, a run's first entry read may not be its first, and what
              // is written cannot be taken back: its owner is looked up first, as `follow` does.
              if start != nil, !owners.knows(event.run),
                let first = InputReader.firstEntryIdentity(ofRun: event.run, in: source)
              {
                owners.setOwner(ofRun: event.run, to: first)
              }
              if let owner = owners.owner(ofRun: event.run, claimedBy: identity) {
                forged(ForgedEntry(event, sender: identity, owner: owner))
                return true
              }
            }
            if case .malformed(let reason) = kind {
              onMalformed(MalformedLine(source: name, line: number, reason: reason.text))
            }
            if !body(kind) {
              stopped = true
              return false
            }
            return true
          }
        }
      }
      switch result {
      case .success: readable += 1
      case .failure(let error):
        if case .files = source { fileFailures.append(failures.count) }
        failures.append(JournalFailure(path: path, error: error))
      }
    }
    if readable > 0, !directories.isEmpty {
      for index in fileFailures { failures[index].skipped = true }
    }
    return failures
  }
}

extension InputReader {
  /// Reads one file (or standard input for `-`) line by line in order, handing each line's
  /// class to `body`, as ``read(path:into:)`` reads it for a summary but without aggregating:
  /// for `bindiag export`, which writes the events themselves in the input's order.
  /// `journalctl -o json` entries whose trusted identity is not their run's go to `forged`.
  /// - Parameters:
  ///   - path: A file path, or `-` for standard input.
  ///   - forged: Receives each forged entry.
  ///   - body: Receives each line's class; returns `false` to stop.
  /// - Returns: The read error, if the file could not be read (what was read before it was
  ///   handed on).
  package func readLines(
    path: String, forged: (ForgedEntry) -> Void, _ body: (LineClass) -> Bool
  ) -> Result<Void, SystemError> {
    withOpenInput(path: path) { fd, name, _ in
      classifyLines(
        fd: fd, name: name,
        forged: {
          forged($0)
          return true
        }
      ) { kind, _ in body(kind) }
    }
  }
}

extension InputReader {
  /// Exports one file (or standard input for `-`) into `exporter`, in the input's order: a
  /// regular file of lines in chunks on ``threads`` worker threads (``ExportChunkReader``),
  /// anything else line by line (``readLines(path:forged:_:)``).
  /// - Parameters:
  ///   - path: A file path, or `-` for standard input.
  ///   - exporter: Where the events go.
  /// - Returns: The read error, if the file could not be read (what was read before it was
  ///   exported).
  package func export(path: String, into exporter: inout EventExporter) -> Result<
    Void, SystemError
  > {
    withOpenInput(path: path) { fd, name, info in
      if threads > 1, readsInChunks(fd, info) {
        if let compression = InputReader.compression(atStartOf: fd) {
          return .failure(compression.refusal)
        }
        let reader = ExportChunkReader(
          fd: fd, name: name, size: Int(info.st_size), maxLineBytes: maxLineBytes,
          threads: threads)
        defer { InputReader.consumed(fd) }
        return reader.read(into: &exporter, onMalformed: onMalformed, forged: { _ in }).flatMap {
          InputReader.unshrunk(fd, from: info)
        }
      }
      return classifyLines(
        fd: fd, name: name,
        forged: { _ in
          exporter.countForged()
          return true
        }
      ) { kind, _ in exporter.add(kind) }
    }
  }
}
