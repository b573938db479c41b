import Foundation
import TestSupport
import Testing

/// The journald sink when journald goes away and comes back, and when it does not take the
/// queue as the process ends: a real app (`misuse-helper`) against a journald of its own.
@Suite struct JournaldEndTests {
  /// The app writes 5 records, journald stops, 5 more go to the fallback, journald starts
  /// again, 5 more reach it: the sink says the failure once and the recovery once.
  @Test(.enabled(if: PrivateJournal.unavailability == nil, "needs a private journald"))
  func aReturnToJournaldAfterARestartIsSaidInOneLine() throws {
    let (journal, errors) = try Self.restart(removingSocket: false)
    let lines = errors.split(separator: "\n").map(String.init)
    let failed = lines.filter { $0.hasPrefix("binding-diagnostics: journald send failed: ") }
    let recovered = lines.filter {
      $0 == #"binding-diagnostics: sink=journald fell_back=5 action="recovered""#
    }
    #expect(failed.count == 1, "\(errors)")
    #expect(recovered.count == 1, "\(errors)")
    // The five written meanwhile are on the fallback, before the line that says it is over.
    let fallback = lines.filter { $0.hasPrefix("v=1 ") }
    #expect(fallback.count == 5, "\(errors)")
    #expect(lines.firstIndex(of: recovered.first ?? "") ?? -1 > lines.lastIndex(of: fallback.last ?? "") ?? 0)
    // The journal has the first five, the last five and the run's end.
    try Self.expectTheJournalHoldsAllButTheMiddleFive(journal, errors: errors)
  }

  /// The app writes 5 records, journald stops and its socket file is removed (as when journald
  /// is stopped for good, or `/run` is cleaned), 5 more are written, journald starts again, 5
  /// more reach it. `sd_journal_sendv` returns 0 when the socket is missing, so the sink checks
  /// the socket's path before each entry: the 5 go to the fallback, not lost as sent, and the
  /// sink says the failure once and the recovery once.
  @Test(.enabled(if: PrivateJournal.unavailability == nil, "needs a private journald"))
  func aRemovedJournalSocketFallsBackInsteadOfLosingEntries() throws {
    let (journal, errors) = try Self.restart(removingSocket: true)
    let lines = errors.split(separator: "\n").map(String.init)
    let said = lines.filter { $0.hasPrefix("binding-diagnostics: ") }
    #expect(
      said == [
        "binding-diagnostics: journald send failed: no journal at /run/systemd/journal/socket: "
          + "No such file or directory; writing to the fallback sink",
        #"binding-diagnostics: sink=journald fell_back=5 action="recovered""#,
      ], "\(errors)")
    // The five written while the socket was gone are on the fallback, before the recovery.
    let fallback = lines.filter { $0.hasPrefix("v=1 ") }
    let fellBack = fallback.compactMap { line in
      line.split(separator: " ").first { $0.hasPrefix("seq=") }.flatMap { Int($0.dropFirst(4)) }
    }
    #expect(fellBack == [6, 7, 8, 9, 10], "\(errors)")
    let lastFellBack = lines.lastIndex(of: fallback.last ?? "") ?? 0
    #expect(lastFellBack < lines.lastIndex(of: said.last ?? "") ?? -1)
    // The journal has the first five, the last five and the run's end: with the fallback, all.
    try Self.expectTheJournalHoldsAllButTheMiddleFive(journal, errors: errors)
  }

  /// No journald when the app starts (early in boot, a container whose journald comes up after
  /// the app): the first 5 records go to the fallback; journald then starts, and the 5 after it
  /// and the run's end reach it. The sink says once that journald is missing and once that it
  /// switched, with how many went to the fallback meanwhile.
  @Test(.enabled(if: PrivateJournal.unavailability == nil, "needs a private journald"))
  func aJournaldThatStartsAfterTheAppIsUsedOnceItListens() throws {
    let directory = try temporaryDirectory()
    let helper = productsDirectory().appendingPathComponent("misuse-helper").path
    let script = #"""
      set -eu
      dir=$1 helper=$2
      kill -TERM "$BINDING_TEST_JOURNALD_PID"
      while kill -0 "$BINDING_TEST_JOURNALD_PID" 2>/dev/null; do sleep 0.05; done
      rm -f /run/systemd/journal/socket
      touch "$dir/a"
      "$helper" 5 --pause-until-gone "$dir/a" --more 5 >"$dir/out" 2>"$dir/err" &
      app=$!
      until grep -q paused "$dir/out"; do sleep 0.05; done
      "$BINDING_TEST_JOURNALD" >/dev/null 2>&1 &
      journald=$!
      until python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.connect("/run/systemd/journal/socket")' 2>/dev/null; do sleep 0.05; done
      # Past the sink's next try (its delays start at 100 ms), so the outcome does not hang on
      # how fast this machine is.
      sleep 1
      rm "$dir/a"
      \#(Self.scriptEnd)
      """#
    let journal = try PrivateJournal(
      running: ["/bin/sh", "-c", script, "sh", directory, helper],
      environment: ["BINDING_DIAGNOSTICS": "journald", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off"])
    #expect(journal.output.status == 0, "\(journal.output.stderr)")
    let errors = try String(contentsOfFile: directory + "/err", encoding: .utf8)
    let lines = errors.split(separator: "\n").map(String.init)
    // The five written before journald started are on the fallback, and say the run.
    let fallback = lines.filter { $0.hasPrefix("v=1 ") }
    #expect(fallback.count == 5, "\(errors)")
    let run = try #require(
      fallback.first?.split(separator: " ").first { $0.hasPrefix("run=") }?.dropFirst(4),
      "\(errors)")
    let said = lines.filter { $0.hasPrefix("binding-diagnostics: ") }
    #expect(said.count == 2, "\(errors)")
    #expect(
      said.first?.hasPrefix("binding-diagnostics: journald unavailable: no journal at ") == true,
      "\(errors)")
    #expect(said.last == #"binding-diagnostics: sink=journald fell_back=5 action="recovered""#)
    #expect(lines.lastIndex(of: fallback.last ?? "") ?? 0 < lines.lastIndex(of: said.last ?? "") ?? -1)
    // The journald that started later has the run's last five and its end, by the run's id.
    let entries = try journal.entries(matching: ["BINDING_RUN=\(run)"])
    let seqs = entries.compactMap { Int($0["BINDING_SEQ"] as? String ?? "") }.sorted()
    #expect(seqs == [6, 7, 8, 9, 10, 11], "\(errors)")
    let end = entries.first { $0["BINDING_KIND"] as? String == "run-end" }
    #expect(end?["BINDING_RUN_RECORDS"] as? String == "10")
  }

  /// journald stuck (it never reads): the entries queued when the app exits are lost. The sink
  /// says how many in one line, and writes the run's end on its fallback with the run's last
  /// `seq` and everything dropped, so a reader of the fallback sees the tail loss.
  @Test(.enabled(if: canShadowJournal, "needs root and unshare(1) for a private mount namespace"))
  func entriesQueuedForAStuckJournaldAtExitAreCountedAndTheRunEndGoesToTheFallback() throws {
    let result = try runAgainstStuckJournald(
      ["20000"],
      environment: [
        "BINDING_DIAGNOSTICS": "journald", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
      ])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stderr.split(separator: "\n").map(String.init)
    let prefix = "binding-diagnostics: sink=journald sent="
    let suffix = #" action="process ending; journald did not take the queue""#
    let notice = try #require(lines.first { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) })
    let numbers = notice.dropFirst(prefix.count).dropLast(suffix.count)
      .split(separator: " ").map { $0.split(separator: "=").last.map(String.init) ?? "" }
    let sent = try #require(Int(numbers[0]))
    let dropped = try #require(Int(numbers[1]))
    #expect(sent + dropped == 20_000, "\(notice)")
    let end = try #require(lines.first { $0.hasPrefix("v=1 ") && $0.contains(" kind=run-end ") })
    #expect(end.contains(" seq=20001 "), "\(end)")
    #expect(end.hasSuffix(" run_records=20000 run_events=20000 run_dropped=\(dropped)"), "\(end)")
  }

  /// Runs ``restartScript(removingSocket:)`` against a private journald: the journal, and what
  /// the app wrote on standard error.
  static func restart(removingSocket: Bool) throws -> (PrivateJournal, String) {
    let directory = try temporaryDirectory()
    let helper = productsDirectory().appendingPathComponent("misuse-helper").path
    let journal = try PrivateJournal(
      running: [
        "/bin/sh", "-c", restartScript(removingSocket: removingSocket), "sh", directory, helper,
      ],
      environment: ["BINDING_DIAGNOSTICS": "journald", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off"])
    #expect(journal.output.status == 0, "\(journal.output.stderr)")
    return (journal, try String(contentsOfFile: directory + "/err", encoding: .utf8))
  }

  /// Expects seq 1–5, 11–15 and the run's end (seq 16, 15 records) in `journal`.
  static func expectTheJournalHoldsAllButTheMiddleFive(_ journal: PrivateJournal, errors: String)
    throws
  {
    let entries = try journal.entries(matching: ["BINDING_SCHEMA=1"])
    let seqs = entries.compactMap { Int($0["BINDING_SEQ"] as? String ?? "") }.sorted()
    #expect(seqs == [1, 2, 3, 4, 5, 11, 12, 13, 14, 15, 16], "\(errors)")
    let end = entries.first { $0["BINDING_KIND"] as? String == "run-end" }
    #expect(end?["BINDING_RUN_RECORDS"] as? String == "15")
  }

  /// The script of the restart tests: the app (`misuse-helper`) writes 5 records and pauses;
  /// journald is stopped (its socket file removed too with `removingSocket`); the app writes 5
  /// more and pauses; journald starts again; the app writes 5 more and ends.
  static func restartScript(removingSocket: Bool) -> String {
    #"""
    set -eu
    dir=$1 helper=$2
    touch "$dir/a" "$dir/b"
    "$helper" 5 --pause-until-gone "$dir/a,$dir/b" --more 5 >"$dir/out" 2>"$dir/err" &
    app=$!
    until [ "$(grep -c paused "$dir/out")" -ge 1 ]; do sleep 0.05; done
    kill -TERM "$BINDING_TEST_JOURNALD_PID"
    while kill -0 "$BINDING_TEST_JOURNALD_PID" 2>/dev/null; do sleep 0.05; done
    \#(removingSocket ? "rm -f /run/systemd/journal/socket" : ":")
    rm "$dir/a"
    until [ "$(grep -c paused "$dir/out")" -ge 2 ]; do sleep 0.05; done
    "$BINDING_TEST_JOURNALD" >/dev/null 2>&1 &
    journald=$!
    until python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.connect("/run/systemd/journal/socket")' 2>/dev/null; do sleep 0.05; done
    rm "$dir/b"
    \#(Self.scriptEnd)
    """#
  }

  /// The end of the journald scripts: wait for the app, flush the journal, stop journald, exit
  /// with the app's status.
  static let scriptEnd = #"""
    status=0
    wait "$app" || status=$?
    journalctl --sync >/dev/null 2>&1 || true
    kill -TERM "$journald"
    wait "$journald" || true
    exit "$status"
    """#
}
