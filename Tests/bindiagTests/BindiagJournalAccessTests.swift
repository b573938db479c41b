import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// Issue 28.1 and 28.5: who may read the journal, and whose runs decide a gate. Everything runs
/// against a private journald (its files root's, as journald makes them), with `bindiag` really
/// run as `nobody` (`setpriv`) and entries really sent as `nobody`.
@Suite(.enabled(if: PrivateJournal.unavailability == nil, "needs a private journald"))
struct BindiagJournalAccessTests {
  /// What one command printed and how it ended, read back from the files the script wrote.
  struct Outcome: Equatable, CustomStringConvertible {
    var stdout: String
    var stderr: String
    var status: Int32
    var description: String { "status \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
  }

  /// Runs `script` in a private journal with `$1` misuse-helper, `$2` bindiag, `$3` a directory
  /// for outputs, and the shell function `record NAME COMMAND…` that keeps a command's stdout,
  /// stderr and status under NAME; returns the outcomes by name.
  static func run(_ script: String, names: [String]) throws -> [String: Outcome] {
    let out = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: out) }
    let prelude = """
      set -e
      helper=$1 bindiag=$2 out=$3
      record() { name=$1; shift; s=0; "$@" >"$out/$name.out" 2>"$out/$name.err" || s=$?; echo $s >"$out/$name.status"; }
      nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
      export TZ=UTC COLUMNS= LINES=

      """
    let journal = try PrivateJournal(running: [
      "/bin/sh", "-c", prelude + script, "sh",
      productsDirectory().appendingPathComponent("misuse-helper").path,
      productsDirectory().appendingPathComponent("bindiag").path, out,
    ])
    #expect(journal.output.status == 0, "\(journal.output.stderr)")
    var outcomes: [String: Outcome] = [:]
    for name in names {
      func text(_ suffix: String) throws -> String {
        try String(contentsOfFile: "\(out)/\(name).\(suffix)", encoding: .utf8)
      }
      outcomes[name] = Outcome(
        stdout: try text("out"), stderr: try text("err"),
        status: Int32(try text("status").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1)
    }
    return outcomes
  }

  /// A user who may open no journal file: `check` and `summary` exit 1 saying so, and `follow`
  /// exits 1 at once instead of waiting forever (it was `check passed: 0 events`, exit 0).
  @Test func aUserWhoMayReadNoJournalFileNeverPasses() throws {
    let outcomes = try Self.run(
      """
      BINDING_DIAGNOSTICS=journald "$helper" 1 >/dev/null
      journalctl --sync
      chmod 0640 /run/log/journal/*/*.journal
      record check nobody "$bindiag" check --journal
      record summary nobody "$bindiag" summary --journal --format json
      record follow nobody timeout 60 "$bindiag" follow --journal
      record root "$bindiag" check --journal
      """, names: ["check", "summary", "follow", "root"])
    let error =
      "Error: journal not available: no journal files were opened due to insufficient "
      + "permissions (1 file or directory this user may not read; root and the systemd-journal "
      + "group may)\n"
    #expect(outcomes["check"]?.status == 1, "\(outcomes["check"]!)")
    #expect(outcomes["check"]?.stderr == error, "\(outcomes["check"]!)")
    #expect(outcomes["summary"]?.status == 1, "\(outcomes["summary"]!)")
    #expect(outcomes["summary"]?.stderr == error, "\(outcomes["summary"]!)")
    #expect(
      outcomes["follow"]
        == Outcome(
          stdout: "",
          stderr:
            "Error: journal not available: no journal files were opened due to insufficient "
            + "permissions (root and the systemd-journal group may read them)\n",
          status: 1))
    // Root reads the one misuse and fails the gate on it.
    #expect(outcomes["root"]?.status == 3, "\(outcomes["root"]!)")
  }

  /// A user who may read one journal file but not the other: the other is named, `check`
  /// exits 1 though what it read passes, `summary` counts what it read and exits 0.
  @Test func aJournalFileTheUserMayNotReadFailsCheck() throws {
    let outcomes = try Self.run(
      """
      BINDING_DIAGNOSTICS=journald "$helper" 1 >/dev/null
      journalctl --sync
      journalctl --rotate
      BINDING_DIAGNOSTICS=journald "$helper" 1 >/dev/null
      journalctl --sync
      chmod 0640 /run/log/journal/*/*.journal
      chmod o+rx /run/log/journal/*
      chmod o+r /run/log/journal/*/system@*.journal
      ls /run/log/journal/*/system.journal >"$out/active"
      record check nobody "$bindiag" check --journal --max-events 5
      record summary nobody "$bindiag" summary --journal --format csv
      """, names: ["check", "summary"])
    let check = try #require(outcomes["check"])
    let summary = try #require(outcomes["summary"])
    let lines = check.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(check.status == 1, "\(check)")
    #expect(lines.count == 3, "\(check)")
    #expect(
      lines.first?.hasPrefix("warning: skipped journal file '/run/log/journal/") == true
        && lines.first?.hasSuffix("/system.journal': open: Permission denied (errno 13)") == true,
      "\(check)")
    #expect(lines.dropFirst().first == "Error: check cannot pass: 1 input asked for was skipped")
    #expect(summary.status == 0, "\(summary)")
    #expect(summary.stderr == String(lines.first ?? "") + "\n", "\(summary)")
    #expect(summary.stdout.contains("\n1,1,mapped-bool-set-true,"), "\(summary)")
  }

  /// Red team: a journal file the user may open but that is no journal (random bytes under an
  /// archived name) or a truncated copy was passed over by libsystemd without a word, and
  /// `check --journal` passed. Each is named and the gate fails, as with `--journal-dir`.
  @Test func aCorruptJournalFileFailsCheck() throws {
    let outcomes = try Self.run(
      """
      BINDING_DIAGNOSTICS=journald "$helper" 1 >/dev/null
      journalctl --sync
      journalctl --rotate
      dir=$(dirname /run/log/journal/*/system.journal)
      head -c 65536 /dev/urandom >"$dir/system@00000000000000000000000000000000-0000000000000001-0000000000000001.journal~"
      archived=$(ls "$dir"/system@*.journal | head -n 1)
      head -c 4096 "$archived" >"$dir/system@ffffffffffffffffffffffffffffffff-0000000000000001-0000000000000001.journal"
      record check "$bindiag" check --journal --max-events 5
      record summary "$bindiag" summary --journal --format csv
      """, names: ["check", "summary"])
    let check = try #require(outcomes["check"])
    let lines = check.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(check.status == 1, "\(check)")
    #expect(lines.count == 4, "\(check)")
    let skipped = lines.filter { $0.hasPrefix("warning: skipped journal file '/run/log/journal/") }
    #expect(skipped.count == 2, "\(check)")
    #expect(skipped.contains { $0.contains("/system@00000000000000000000000000000000-") })
    #expect(skipped.contains { $0.contains("/system@ffffffffffffffffffffffffffffffff-") })
    #expect(lines.dropFirst(2).first == "Error: check cannot pass: 2 inputs asked for were skipped")
    // What could be read still counts.
    #expect(outcomes["summary"]?.status == 0, "\(outcomes["summary"]!)")
    #expect(outcomes["summary"]?.stdout.contains("\n1,1,mapped-bool-set-true,") == true)
  }

  /// `follow` names a run's records it did not see; with `--kind` the journal hands over only
  /// that kind's records, and the run's others are not missing: no line for them.
  @Test func followWithAKindNamesNoGapForTheOtherKinds() throws {
    let payload = try JournalNativeSender.payload(
      [
        fixtureEvent(seq: 1, run: "c3c3c3c3c3c3c3c3"),
        fixtureEvent(seq: 2, kind: .unwrappedReadAfterNil, run: "c3c3c3c3c3c3c3c3"),
        fixtureEvent(seq: 3, run: "c3c3c3c3c3c3c3c3"),
      ].map {
        JournalFieldsEncoder().fields($0).map { (name: $0.name, value: Array($0.value.utf8)) }
      })
    let directory = try temporaryDirectory()
    try payload.write(to: URL(fileURLWithPath: directory + "/entries.json"))
    try JournalNativeSender.script.write(
      toFile: directory + "/sender.py", atomically: false, encoding: .utf8)
    let outcomes = try Self.run(
      """
      python3 '\(directory)/sender.py' 0 <'\(directory)/entries.json' >/dev/null
      journalctl --sync
      record kind timeout 60 "$bindiag" follow --journal -n 10 --count 2 --format json --kind mapped-bool-set-true
      """, names: ["kind"])
    let kind = try #require(outcomes["kind"])
    #expect(kind.status == 0, "\(kind)")
    #expect(kind.stderr == "", "\(kind)")
    #expect(kind.stdout.split(separator: "\n").count == 2, "\(kind)")
  }

  /// Issue 28.5: `nobody` sends one entry opening a run at seq 2^53−1. Root's `check` is not
  /// failed by it: the 9 quadrillion lost records are shown apart, and `--all-users` counts
  /// them. Root's own run still counts (its lost records would fail the gate).
  @Test func anotherUsersRunCannotFailTheGate() throws {
    let payload = try JournalNativeSender.payload([
      JournalFieldsEncoder().fields(
        fixtureEvent(seq: 9_007_199_254_740_991, run: "e5e5e5e5e5e5e5e5")
      ).map { (name: $0.name, value: Array($0.value.utf8)) }
    ])
    let directory = try temporaryDirectory()
    let file = directory + "/forged.json"
    try payload.write(to: URL(fileURLWithPath: file))
    try JournalNativeSender.script.write(
      toFile: directory + "/sender.py", atomically: false, encoding: .utf8)
    let outcomes = try Self.run(
      """
      BINDING_DIAGNOSTICS=journald "$helper" 1 >/dev/null
      python3 '\(directory)/sender.py' 65534 <'\(file)' >/dev/null
      journalctl --sync
      record check "$bindiag" check --journal --max-events 5
      record summary "$bindiag" summary --journal --format json
      record table "$bindiag" summary --journal
      record all "$bindiag" check --journal --max-events 5 --all-users
      """, names: ["check", "summary", "table", "all"])
    let note =
      "note: 9,007,199,254,740,990 lost records claimed by "
      + "other users' runs (not gated; --all-users counts them)\n"
    let check = try #require(outcomes["check"])
    #expect(check.status == 0, "\(check)")
    #expect(
      check.stderr
        == note
        + "check passed: 2 events at warning and above (--max-events 5), 0 lost records (--max-lost 0)\n",
      "\(check)")
    let summary = try #require(outcomes["summary"])
    #expect(summary.status == 0 && summary.stderr == note, "\(summary)")
    #expect(summary.stdout.contains(#""lost":0,"#), "\(summary)")
    // Red team: the losses counted apart were on standard error only; scripts reading the
    // JSON (or the table) saw none.
    #expect(
      summary.stdout.contains(#""run_dropped":0,"other_users_lost":9007199254740990,"first":"#),
      "\(summary)")
    let table = try #require(outcomes["table"])
    #expect(
      table.stdout.contains(
        "\nLost records: 0\nLost records of other users' runs: 9,007,199,254,740,990 "
          + "(not gated; --all-users counts them)\n"),
      "\(table)")
    let all = try #require(outcomes["all"])
    #expect(all.status == 3, "\(all)")
    #expect(all.stderr.contains("9,007,199,254,740,990 lost records (--max-lost 0)"), "\(all)")
  }
}
