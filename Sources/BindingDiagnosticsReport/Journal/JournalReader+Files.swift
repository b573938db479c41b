package import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension JournalReader {
  /// The journal files `sd_journal_open_directory` would open in `directory`: names ending in
  /// `.journal` or `.journal~` there and in its subdirectories named by a machine id (32 hex
  /// digits, as journald lays them out), oldest first: by the time of each file's first entry
  /// (its header's `head_entry_realtime`, which journald sets), then by path. Archived files
  /// (`system@….journal`) so come before the active `system.journal` whose entries follow
  /// theirs, and the first entry of a run read is most often its earliest, the one whose trusted
  /// identity owns the run (files of several hosts overlap in time: a reader that meets two
  /// identities for a run looks its earliest entry up). `systemd-journal-remote` writes one file
  /// per host (or one for all) straight
  /// into its output directory.
  ///
  /// Reading these one at a time costs time in proportion to the entries; libsystemd's merge of
  /// many files by time costs, for every entry, a comparison with every open file, and keeps
  /// every file mapped.
  /// - Parameter directory: The directory.
  /// - Returns: The files' paths, or why a directory could not be listed (`opendir`,
  ///   `readdir`).
  package static func journalFiles(in directory: String) -> Result<[String], JournalError> {
    var files: [String] = []
    let top: [DirectoryEntry]
    switch DirectoryEntry.list(directory) {
    case .success(let entries): top = entries
    case .failure(let error): return .failure(.call(error))
    }
    for entry in top {
      let path = directory.hasSuffix("/") ? directory + entry.name : directory + "/" + entry.name
      if entry.isJournalFile {
        files.append(path)
      } else if entry.isMachineDirectory {
        switch DirectoryEntry.list(path) {
        case .success(let inner):
          files += inner.filter(\.isJournalFile).map { path + "/" + $0.name }
        case .failure(let error): return .failure(.call(error))
        }
      }
    }
    let keyed = files.map { (time: firstEntryTime(of: $0) ?? .max, path: $0) }
    return .success(keyed.sorted { ($0.time, $0.path) < ($1.time, $1.path) }.map(\.path))
  }

  /// The realtime (µs since the epoch) of a journal file's first entry, from its header
  /// (`head_entry_realtime`, a little-endian 64-bit field at byte 184); `nil` when the file cannot
  /// be read, is no journal file or has no entry yet.
  static func firstEntryTime(of path: String) -> UInt64? {
    guard case .success(let fd) = FileDescriptorIO.openFile(path, O_RDONLY | O_CLOEXEC) else {
      return nil
    }
    defer { FileDescriptorIO.closeFile(fd) }
    var header = [UInt8](repeating: 0, count: 200)
    let count = header.withUnsafeMutableBytes { buffer in
      (try? FileDescriptorIO.read(fd, into: buffer, at: 0).get()) ?? 0
    }
    guard count == header.count, header.starts(with: Array("LPKSHHRH".utf8)) else { return nil }
    let time = header[184..<192].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    return time == 0 ? nil : time
  }

  /// One name in a directory and what `readdir` or `stat` says it is.
  fileprivate struct DirectoryEntry {
    let name: String
    let isRegular: Bool
    let isDirectory: Bool

    var isJournalFile: Bool {
      isRegular && (name.hasSuffix(".journal") || name.hasSuffix(".journal~"))
    }

    /// A machine id: 32 lowercase or uppercase hex digits.
    var isMachineDirectory: Bool {
      isDirectory && name.utf8.count == 32
        && name.utf8.allSatisfy { byte in
          switch byte {
          case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            true
          default: false
          }
        }
    }

    /// The entries of `path` but `.` and `..`; a symbolic link or an unknown type is resolved
    /// with `stat` (a link to nothing is neither a file nor a directory).
    static func list(_ path: String) -> Result<[DirectoryEntry], SystemError> {
      var entries: [DirectoryEntry] = []
      return FileDescriptorIO.forEachDirectoryEntry(path) { name, found in
        var type = Int(found)
        if type == Int(DT_LNK) || type == Int(DT_UNKNOWN) {
          type = fileType(path.hasSuffix("/") ? path + name : path + "/" + name)
        }
        entries.append(
          DirectoryEntry(
            name: name, isRegular: type == Int(DT_REG), isDirectory: type == Int(DT_DIR)))
      }.map { entries }
    }

    /// `DT_REG`, `DT_DIR` or `DT_UNKNOWN` for what `path` leads to (`stat` follows links).
    private static func fileType(_ path: String) -> Int {
      guard case .success(let info) = FileDescriptorIO.pathStatus(path) else {
        return Int(DT_UNKNOWN)
      }
      switch info.st_mode & S_IFMT {
      case S_IFDIR: return Int(DT_DIR)
      case S_IFREG: return Int(DT_REG)
      default: return Int(DT_UNKNOWN)
      }
    }
  }
}

extension JournalReader {
  /// Where `sd_journal_open` looks for the local journal: the volatile and the persistent
  /// journal, each with one directory per machine id.
  package static let localDirectories = ["/run/log/journal", "/var/log/journal"]

  /// The local journal's files, and those of them this process may not open (`open(2)` refused,
  /// most often `EACCES`: journald keeps the system journal to root and the `systemd-journal`
  /// group). libsystemd opens what it can and says nothing about the rest, so a reader that
  /// may open none reads an empty journal: `journalctl` then warns "No journal files were
  /// opened due to insufficient permissions", and a gate must not pass.
  /// - Returns: The journal files that could be opened, and the files and directories that
  ///   could not, with why.
  package static func localAccess() -> (
    readable: [String], unreadable: [(path: String, error: SystemError)]
  ) {
    var files: [String] = []
    var unreadable: [(path: String, error: SystemError)] = []
    // A directory that cannot be listed hides its files: it counts as unreadable itself.
    func list(_ directory: String) -> [DirectoryEntry] {
      switch DirectoryEntry.list(directory) {
      case .success(let entries): return entries
      case .failure(let error):
        if error.code != ENOENT && error.code != ENOTDIR { unreadable.append((directory, error)) }
        return []
      }
    }
    for directory in localDirectories {
      for entry in list(directory) {
        let path = directory + "/" + entry.name
        if entry.isJournalFile {
          files.append(path)
        } else if entry.isMachineDirectory {
          files += list(path).filter(\.isJournalFile).map { path + "/" + $0.name }
        }
      }
    }
    var readable: [String] = []
    for file in files {
      switch FileDescriptorIO.openFile(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK) {
      case .success(let fd):
        FileDescriptorIO.closeFile(fd)
        readable.append(file)
      case .failure(let error): unreadable.append((file, error))
      }
    }
    return (readable, unreadable)
  }
}
