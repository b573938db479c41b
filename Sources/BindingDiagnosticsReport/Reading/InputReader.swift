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
  /// Bytes of output a chunk holds at most, and records a line-by-line read holds before it
  /// aggregates them (tests make it small to stop chunks early).
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
  /// The descriptor `-` reads: standard input, unless a caller reads another in its place.
  package var standardInput: Int32 = 0

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
      fd = standardInput
      name = "<stdin>"
    } else {
      switch FileDescriptorIO.openFile(path, O_RDONLY | O_CLOEXEC) {
      case .success(let opened): fd = opened
      case .failure(let error): return .failure(error)
      }
      name = path
    }
    defer { if path != "-" { FileDescriptorIO.closeFile(fd) } }
    let info = (try? FileDescriptorIO.status(fd).get()) ?? stat()
    if info.st_mode & S_IFMT == S_IFDIR {
      return .failure(SystemError("read", code: EISDIR))
    }
    return body(fd, name, info)
  }

  /// Whether `fd`, whose status is `info`, is read in chunks at its offsets
  /// (``ChunkedFileReader``, ``ExportChunkReader``): a regular file whose offset is at its
  /// start, and not a unified-log array. Standard input that an earlier command left part-read
  /// (`{ head -n 1; bindiag summary -; } < file`) is read on from where it stands, line by
  /// line, as `cat` would.
  func readsInChunks(_ fd: Int32, _ info: stat) -> Bool {
    guard info.st_mode & S_IFMT == S_IFREG,
      case .success(0) = FileDescriptorIO.seek(fd, to: 0, from: SEEK_CUR)
    else { return false }
    return !InputReader.opensAnArray(fd, maxLineBytes: maxLineBytes)
  }

  /// The compression the regular file `fd` starts with (read at offset 0, its offset left as
  /// it is), or `nil`. The line-by-line readers look at their first line instead.
  static func compression(atStartOf fd: Int32) -> InputCompression? {
    var head = [UInt8](repeating: 0, count: InputCompression.headBytes)
    return head.withUnsafeMutableBytes { head in
      let count = (try? FileDescriptorIO.read(fd, into: head, at: 0).get()) ?? 0
      return InputCompression.of(head: UnsafeRawBufferPointer(rebasing: head[..<count]))
    }
  }

  /// After a read in chunks: a failure when the file is now shorter than it was when the read
  /// began (truncated, or rewritten in place, under the reader): chunks past its new end read
  /// nothing, and what was read may be cut mid-line, so the read is not whole.
  static func unshrunk(_ fd: Int32, from before: stat) -> Result<Void, SystemError> {
    guard case .success(let after) = FileDescriptorIO.status(fd), after.st_size < before.st_size
    else { return .success(()) }
    return .failure(
      SystemError(
        "read", code: EIO,
        detail:
          "the file shrank while it was read (from \(before.st_size) to \(after.st_size) bytes)"))
  }

  /// After a read in chunks (at offsets, with `pread(2)`): the descriptor's offset moved to
  /// the end of the file, where a read to the end leaves it, so that a command reading the
  /// same standard input next (`{ bindiag summary -; cat; } < file`) does not read it again.
  static func consumed(_ fd: Int32) {
    _ = FileDescriptorIO.seek(fd, to: 0, from: SEEK_END)
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
    if case .success(let info) = FileDescriptorIO.status(fd), readsInChunks(fd, info) {
      if let compression = InputReader.compression(atStartOf: fd) {
        return .failure(compression.refusal)
      }
      var reader = ChunkedFileReader(
        fd: fd, name: name, size: Int(info.st_size), maxLineBytes: maxLineBytes,
        threads: threads, chunkBytes: chunkBytes, onMalformed: onMalformed,
        onProgress: onProgress)
      reader.outputBytes = chunkOutputBytes
      defer { InputReader.consumed(fd) }
      return reader.read(into: &aggregator).flatMap { InputReader.unshrunk(fd, from: info) }
    }
    // Line by line (a pipe, standard input, a unified-log array): plain contract lines become
    // records through the chunked reader's parser, moved to the aggregator a chunk's output
    // budget at a time and before any other event, so it sees every record in the input's order.
    var parser = ContractRecordParser()
    var records: [InternedRecord] = []
    func flush() {
      guard !records.isEmpty else { return }
      let translation = aggregator.translation(of: parser)
      records.withUnsafeMutableBufferPointer { aggregator.add($0, translating: translation) }
      records.removeAll(keepingCapacity: true)
      parser.reset()
    }
    let budget = chunkOutputBytes
    let result = classifyLines(
      fd: fd, name: name,
      contract: { line in
        guard parser.record(line, into: &records) else { return nil }
        let events = records[records.count - 1].events
        if records.count &* MemoryLayout<InternedRecord>.stride &+ parser.bytes >= budget {
          flush()
        }
        return events
      },
      forged: { _ in
        aggregator.countForged()
        return true
      }
    ) { kind, _ in
      if case .event = kind { flush() }
      aggregator.add(kind)
      return true
    }
    flush()
    return result
  }
}
