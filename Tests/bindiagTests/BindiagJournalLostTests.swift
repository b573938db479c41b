import BindingDiagnostics
import BindingDiagnosticsTesting
import Foundation
import TestSupport
import Testing

/// Lost-record counting and hostile times through a real journald: each run is isolated by its
/// own BINDING_RUN. Run by ``BindiagJournalLostTestsInAPrivateJournal`` in a child test process
/// against a journald of its own.
@Suite(.enabled(if: PrivateJournal.isInside, PrivateJournal.insideOnly))
struct BindiagJournalLostTests {
  /// A fresh run id.
  func newRun() -> String {
    String(UInt64.random(in: 1...UInt64.max), radix: 16).leftPadded(to: 16)
  }

  /// Sends `events` to journald as they are.
  func send(_ events: [MisuseEvent]) {
    let sink = JournaldSink(fallback: RecordingSink())
    for event in events { sink.receive(event) }
    sink.flush()
  }

  /// `bindiag` with `arguments` and `--run run --format json` until journald has indexed
  /// `events` events of the run.
  func summary(_ arguments: [String], run: String, events: Int) throws -> ProcessOutput {
    let full = arguments + ["--run", run, "--format", "json"]
    var result = try bindiag(arguments: full)
    // Not until a failing status: `check` fails while the run is not indexed yet.
    for _ in 0..<100 {
      if result.stdout.hasPrefix(#"{"schema":1,"events":\#(events),"#) { break }
      Thread.sleep(forTimeInterval: 0.05)
      result = try bindiag(arguments: full)
    }
    return result
  }

  @Test func recordsBeforeSinceAreNotLostButMissingOnesAre() throws {
    let whole = newRun()
    let unstarted = newRun()
    let early = Timestamp.now().rfc3339
    send([fixtureEvent(seq: 1, at: early, run: whole), fixtureEvent(seq: 2, at: early, run: whole)])
    _ = try summary(["summary", "--journal"], run: whole, events: 2)
    Thread.sleep(forTimeInterval: 1.1)
    let since = Timestamp.now()
    Thread.sleep(forTimeInterval: 0.1)
    let later = Timestamp.now().rfc3339
    send([
      fixtureEvent(seq: 3, at: later, run: whole), fixtureEvent(seq: 4, at: later, run: whole),
      fixtureEvent(seq: 2, at: later, run: unstarted),
      fixtureEvent(seq: 4, at: later, run: unstarted),
    ])
    let window = ["summary", "--journal", "--since", since.rfc3339]
    let complete = try summary(window, run: whole, events: 2)
    #expect(complete.status == 0, "\(complete.stderr)")
    #expect(
      complete.stdout.hasPrefix(
        #"{"schema":1,"events":2,"records":2,"malformed":0,"other":0,"lost":0,"#))
    // Inside the window only: seq 3 between its records is lost, its head (seq 1) is not.
    let missingFirst = try summary(window, run: unstarted, events: 2)
    #expect(
      missingFirst.stdout.hasPrefix(
        #"{"schema":1,"events":2,"records":2,"malformed":0,"other":0,"lost":1,"#))
  }

  @Test func aKindFilterDoesNotMakeOtherKindsLost() throws {
    let run = newRun()
    send([
      fixtureEvent(seq: 1, run: run), fixtureEvent(seq: 2, kind: .unwrappedReadAfterNil, run: run),
      fixtureEvent(seq: 3, run: run),
    ])
    _ = try summary(["summary", "--journal"], run: run, events: 3)
    let result = try summary(
      ["summary", "--journal", "--kind", "mapped-bool-set-true"], run: run, events: 2)
    #expect(result.status == 0)
    #expect(
      result.stdout.hasPrefix(
        #"{"schema":1,"events":2,"records":2,"malformed":0,"other":0,"lost":0,"#))
  }

  @Test(arguments: ["summary", "check"])
  func anEntryDatedBefore1970AfterALaterOneIsCounted(command: String) throws {
    let run = newRun()
    send([
      fixtureEvent(seq: 1, at: "2026-01-01T00:00:00.000000Z", run: run),
      fixtureEvent(seq: 2, at: "1969-12-31T23:59:59.000000Z", run: run),
      fixtureEvent(seq: 3, at: "0000-01-01T00:00:00.000000Z", run: run),
    ])
    let thresholds = command == "check" ? ["--max-events", "3"] : []
    let result = try summary([command, "--journal"] + thresholds, run: run, events: 3)
    #expect(
      result.stderr
        == (command == "check"
          ? "check passed: 3 events at warning and above (--max-events 3), 0 lost records (--max-lost 0)\n"
          : ""))
    #expect(result.status == 0)
    #expect(
      result.stdout.hasPrefix(
        #"{"schema":1,"events":3,"records":3,"malformed":0,"other":0,"lost":0,"duplicates":0,"#
          + #""runs":{"ended":0,"running":0,"stale":1},"run_dropped":0,"#
          + #""first":"0000-01-01T00:00:00.000000Z","last":"2026-01-01T00:00:00.000000Z","#
      ))
  }
}

/// Starts ``BindiagJournalLostTests`` against a private journald.
@Suite(.enabled(if: PrivateJournal.canStartSuites, PrivateJournal.cannotStartSuites))
struct BindiagJournalLostTestsInAPrivateJournal {
  @Test func theSuitePassesAgainstAPrivateJournald() throws {
    let journal = try PrivateJournal.runSuite("BindiagJournalLostTests")
    #expect(journal.output.status == 0, "\(journal.output.stdout)\(journal.output.stderr)")
    #expect(journal.output.swiftTestingPassed == 3, "\(journal.output.stdout)")
    // 6 + 3 + 3 + 3 events sent.
    #expect(try journal.entries(matching: ["BINDING_SCHEMA=1"]).count == 15)
  }
}

extension String {
  fileprivate func leftPadded(to count: Int) -> String {
    String(repeating: "0", count: Swift.max(0, count - self.count)) + self
  }
}
