import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// `bindiag export` from the journal as `summary` reads it: the files given beside a journal,
/// the local journal's missing, unreadable and corrupt files, and a collector's corrupt files,
/// through the built binary on real journal files (`systemd-journal-remote` writes them).
@Suite(
  .enabled(
    if: JournalExportFile.remote != nil,
    "systemd-journal-remote is not installed (apt-get install systemd-journal-remote)"))
struct BindiagExportJournalTests {
  /// Whether `bindiag` can be run in a mount namespace of its own (root, `unshare`), where the
  /// local journal's directories hold only what a test puts there.
  static let canShadowLocalJournal: Bool = {
    guard getuid() == 0, let unshare = executableInPath("unshare") else { return false }
    return (try? runProduct(unshare, ["-m", "true"]).status) == 0
  }()

  /// Runs the built `bindiag` with `arguments` in a mount namespace whose `/run/log/journal`
  /// is `journal` (a directory laid out as journald lays it: one directory per machine id)
  /// and whose `/var/log/journal`, when there is one, is empty: the machine's journal is
  /// neither read nor touched.
  static func withLocalJournal(_ journal: String, _ arguments: [String]) throws -> ProcessOutput {
    let script = """
      set -eu
      dir=$1
      shift
      mkdir -p /run/log
      mount -t tmpfs tmpfs /run/log
      mkdir /run/log/journal
      mount --bind "$dir" /run/log/journal
      if [ -d /var/log/journal ]; then mount -t tmpfs tmpfs /var/log/journal; fi
      exec "$@"
      """
    let binary = productsDirectory().appendingPathComponent("bindiag").path
    return try runProduct(
      executableInPath("unshare")!,
      ["-m", "/bin/sh", "-c", script, "sh", journal, binary] + arguments,
      environment: bindiagEnvironment)
  }

  /// Bytes no journal file starts with: libsystemd refuses such a file (`EBADMSG`).
  static let notAJournal = String(repeating: "not a journal file\n", count: 300)

  /// Files named beside `--journal-dir` (a journald sink's fallback file) are exported after
  /// the journal, as `summary` reads them; they used to be left out without a word.
  @Test func filesGivenBesideAJournalAreExportedAfterIt() throws {
    let directory = try temporaryDirectory()
    let inJournal = [fixtureEvent(seq: 1), fixtureEvent(seq: 2, suppressed: 3)]
    try JournalExportFile.write(inJournal, to: directory + "/remote-build-01.journal")
    // What the sink wrote to its fallback file while journald was restarting.
    let fallback = [fixtureEvent(seq: 3, at: "2026-11-30T04:13:00.000000Z"), fixtureEvent(seq: 4)]
    let path = try writeFixture(jsonLines(fallback))
    let rows = try launchedBindiag(
      "export", "--format", "clickhouse", "--journal-dir", directory, path)
    #expect(rows.stdout == jsonLines(inJournal + fallback))
    #expect(rows.stderr == "")
    #expect(rows.status == 0)
    let summary = try launchedBindiag(
      "summary", "--format", "json", "--journal-dir", directory, path)
    #expect(summary.stdout.hasPrefix(#"{"schema":1,"events":7,"records":4,"malformed":0,"#))
    // The journal's entries and the file's lines, numbered each in its own source.
    let malformed = try writeFixture(jsonLines(fallback) + "{\"v\":1,\n")
    let warned = try launchedBindiag(
      "export", "--format", "otlp", "--journal-dir", directory, malformed)
    #expect(warned.stdout.split(separator: "\n").count == 2)
    #expect(warned.stderr == "warning: \(malformed):3: malformed: unexpected end of line\n")
    #expect(warned.status == 0)
  }

  /// `--run` selects a journal's run after reading, as `summary` does and as from a file: another
  /// run's malformed entry is reported, and the same entries on standard input say the same.
  @Test func aRunSelectedFromAJournalLeavesNoMalformedEntryUnsaid() throws {
    let directory = try temporaryDirectory()
    let kept = fixtureEvent(seq: 1)
    var entries = [JournalExportFile.fields(kept, index: 0)]
    // Another run's entry whose `seq` is 0: malformed whichever run is selected.
    entries.append(
      JournalExportFile.fields(fixtureEvent(seq: 2, run: "00000000000000bb"), index: 1).map {
        $0.name == "BINDING_SEQ" ? ($0.name, "0") : $0
      })
    let path = directory + "/remote-build-01.journal"
    try JournalExportFile.write(entries: entries, to: path)
    let warning = "warning: \(path):2: malformed: \"seq\" must be at least 1\n"
    let export = try launchedBindiag(
      "export", "--format", "clickhouse", "--run", kept.run, "--journal-dir", directory)
    #expect(export.stdout == jsonLines([kept]))
    #expect(export.stderr == warning)
    #expect(export.status == 0)
    let summary = try launchedBindiag(
      "summary", "--format", "json", "--run", kept.run, "--journal-dir", directory)
    #expect(summary.stderr == warning)
    let json = try runProduct(
      executableInPath("journalctl")!, ["--all", "-o", "json", "-D", directory])
    let piped = try launchedBindiag(
      arguments: ["export", "--format", "clickhouse", "--run", kept.run],
      stdin: Data(json.stdout.utf8))
    #expect(piped.stdout == export.stdout)
    #expect(piped.stderr == "warning: <stdin>:2: malformed: \"seq\" must be at least 1\n")
  }

  /// `export --journal` where no journal file can be read fails as `summary` does, instead of
  /// writing nothing and exiting 0.
  @Test(.enabled(if: canShadowLocalJournal, "needs root and unshare(1) for a mount namespace"))
  func aLocalJournalWithNoFileIsAnError() throws {
    let journal = try temporaryDirectory()
    let export = try BindiagExportJournalTests.withLocalJournal(
      journal, ["export", "--format", "clickhouse", "--journal"])
    let error =
      "Error: journal not available: no journal files found in /run/log/journal or /var/log/journal\n"
    #expect(export.stdout == "")
    #expect(export.stderr == error)
    #expect(export.status == 1)
    let summary = try BindiagExportJournalTests.withLocalJournal(
      journal, ["summary", "--format", "json", "--journal"])
    #expect(summary.stderr == error)
    #expect(summary.status == 1)
  }

  /// A corrupt file of the local journal (libsystemd passes over it without a word) is named
  /// and skipped, as `summary` names it; the readable files are exported.
  @Test(.enabled(if: canShadowLocalJournal, "needs root and unshare(1) for a mount namespace"))
  func aCorruptLocalJournalFileIsNamedAndSkipped() throws {
    let journal = try temporaryDirectory()
    let machine = journal + "/0123456789abcdef0123456789abcdef"
    try FileManager.default.createDirectory(atPath: machine, withIntermediateDirectories: true)
    let events = [fixtureEvent(seq: 1), fixtureEvent(seq: 2)]
    try JournalExportFile.write(events, to: machine + "/system.journal")
    try BindiagExportJournalTests.notAJournal.write(
      toFile: machine + "/user-1000.journal", atomically: true, encoding: .utf8)
    let warning =
      "warning: skipped journal file '/run/log/journal/0123456789abcdef0123456789abcdef/"
      + "user-1000.journal': sd_journal_open: Bad message (errno 74)\n"
    let export = try BindiagExportJournalTests.withLocalJournal(
      journal, ["export", "--format", "clickhouse", "--journal"])
    #expect(export.stdout == jsonLines(events))
    #expect(export.stderr == warning)
    #expect(export.status == 0)
    let summary = try BindiagExportJournalTests.withLocalJournal(
      journal, ["summary", "--format", "json", "--journal"])
    #expect(summary.stderr == warning)
    #expect(summary.stdout.hasPrefix(#"{"schema":1,"events":2,"records":2,"#))
  }

  /// A collector's corrupt files are named ten at a time and then counted, as `summary`
  /// names them: a thousand hosts' broken files do not bury the rest of standard error.
  @Test func skippedJournalFilesAreNamedUpToTenThenCounted() throws {
    let directory = try temporaryDirectory()
    let events = [fixtureEvent(seq: 1)]
    try JournalExportFile.write(events, to: directory + "/remote-build-01.journal")
    for number in 0..<12 {
      try BindiagExportJournalTests.notAJournal.write(
        toFile: directory + "/remote-broken-\(number + 10).journal", atomically: true,
        encoding: .utf8)
    }
    let named = (10..<20).map {
      "warning: skipped journal file '\(directory)/remote-broken-\($0).journal': "
        + "sd_journal_open: Bad message (errno 74)\n"
    }
    let warnings = named.joined() + "warning: 2 more journal files skipped\n"
    let export = try launchedBindiag("export", "--format", "clickhouse", "--journal-dir", directory)
    #expect(export.stdout == jsonLines(events))
    #expect(export.stderr == warnings)
    #expect(export.status == 0)
    let summary = try launchedBindiag("summary", "--format", "json", "--journal-dir", directory)
    #expect(summary.stderr == warnings)
  }
}
