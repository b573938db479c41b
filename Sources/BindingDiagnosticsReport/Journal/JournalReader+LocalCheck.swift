package import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension JournalReader {
  /// What stands in the way of reading the local journal, found before it is read:
  /// libsystemd's `sd_journal_open` passes over, without a word, every file it may not open
  /// or cannot read as a journal, so a reader that may open none reads an empty journal.
  package struct LocalCheck: Sendable {
    /// Why nothing of the local journal can be read (no journal file, or none this user may
    /// open), or `nil` when some file can be.
    package var unavailable: String?
    /// Whether ``unavailable`` is for want of permission (`EACCES`) rather than of files
    /// (`ENOENT`).
    package var denied = false
    /// The files and directories that will be passed over, with why: those that could not be
    /// opened, and those refused as journals (random bytes, a truncated copy).
    package var skipped: [(path: String, error: JournalError)] = []

    /// Nothing in the way: what a reader that does not read the local journal has.
    package init() {}
  }

  /// Checks the local journal's files (``localDirectories``) as `journalctl` warns about
  /// them: none there, or none this user may open (journald keeps the system journal to root
  /// and the `systemd-journal` group), is ``LocalCheck/unavailable``; each file that cannot be
  /// opened, or is opened alone and refused, is ``LocalCheck/skipped``. A file renamed or
  /// vacuumed since it was listed is neither: the read sees it or not.
  /// - Returns: What was found.
  package static func checkLocal() -> LocalCheck {
    let access = localAccess()
    var check = LocalCheck()
    if access.readable.isEmpty {
      let denied = access.unreadable.count
      check.denied = denied > 0
      check.unavailable =
        denied == 0
        ? "no journal files found in \(localDirectories.joined(separator: " or "))"
        : "no journal files were opened due to insufficient permissions ("
          + "\(denied == 1 ? "1 file or directory" : "\(denied) files or directories") "
          + "this user may not read; root and the systemd-journal group may)"
      return check
    }
    check.skipped = access.unreadable.map { ($0.path, .call($0.error)) }
    for file in access.readable {
      // A match no entry has: the file is opened and checked, and no entry is read.
      let probe = Query(
        source: .files([file]), matches: ["BINDING_SCHEMA=1", "BINDING_RUN=-"], fields: [])
      if case .failure(let error) = read(probe, handler: { _ in false }) {
        if case .call(let call) = error, call.code == ENOENT { continue }
        check.skipped.append((file, error))
      }
    }
    return check
  }
}
