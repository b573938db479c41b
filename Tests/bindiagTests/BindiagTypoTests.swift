import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// Typos are usage errors that name the closest valid spelling, and a gate fails only for a
/// reason: `check` counts events at warning and above unless `--level` says otherwise.
@Suite struct BindiagTypoTests {
  static let topUsage =
    "Usage: bindiag <command> [<options>]\n  See 'bindiag --help' for more information.\n"

  @Test func aMistypedCommandIsAUsageErrorNamingTheClosest() throws {
    let path = try writeFixture(jsonLines([fixtureEvent(seq: 1)]))
    let result = try bindiag("sumary", path)
    #expect(result.stdout == "")
    #expect(
      result.stderr == "Error: Unknown command 'sumary'; did you mean 'summary'?\n" + Self.topUsage)
    #expect(result.status == 64)
    let other = try bindiag("frobnicate")
    #expect(other.stderr == "Error: Unknown command 'frobnicate'\n" + Self.topUsage)
    #expect(other.status == 64)
  }

  /// A file named like a command is read with a path (`./sumary`) or after the command.
  @Test func aFileNamedLikeACommandIsReadThroughItsPath() throws {
    let directory = try temporaryDirectory()
    try jsonLines([fixtureEvent(seq: 1)]).write(
      toFile: directory + "/sumary", atomically: true, encoding: .utf8)
    func run(_ arguments: String...) throws -> ProcessOutput {
      try runProduct("bindiag", arguments, environment: bindiagEnvironment, directory: directory)
    }
    for arguments in [
      ["./sumary", "--format", "json"], ["summary", "--format", "json", "sumary"],
      ["summary", "--format", "json", "--", "sumary"],
    ] {
      let result = try runProduct(
        "bindiag", arguments, environment: bindiagEnvironment, directory: directory)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      #expect(result.stdout.hasPrefix(#"{"schema":1,"events":1,"#), "\(arguments)")
    }
    // Bare, it is still taken for a typo, whether or not such a file exists.
    #expect(try run("sumary").status == 64)
  }

  @Test(arguments: [
    (["summary", "--fromat", "json"], "Unknown option '--fromat'; did you mean '--format'?"),
    (["check", "--max-event", "3"], "Unknown option '--max-event'; did you mean '--max-events'?"),
    (
      ["follow", "--count=3", "--utc", "--colr", "never"],
      "Unknown option '--colr'; did you mean '--color'?"
    ),
    (["summary", "--frobnicate"], "Unknown option '--frobnicate'"),
    (
      ["summary", "--kind", "Mapped_Bool_Set_True"],
      "The value 'Mapped_Bool_Set_True' is invalid for '--kind': expected a kebab-case kind; did you mean 'mapped-bool-set-true'?"
    ),
    (
      ["check", "--kind", "mapped-bool-set-tru"],
      "The value 'mapped-bool-set-tru' is invalid for '--kind': not a built-in kind; did you mean 'mapped-bool-set-true'?"
    ),
    (
      ["check", "--kind", "unwrapped read after nil"],
      "The value 'unwrapped read after nil' is invalid for '--kind': expected a kebab-case kind; did you mean 'unwrapped-read-after-nil'?"
    ),
  ])
  func typosNameTheClosestSpelling(arguments: [String], message: String) throws {
    let result = try bindiag(arguments: arguments)
    let usage = try bindiag(arguments[0], "--no-such-option").stderr.drop { $0 != "\n" }
    #expect(result.stdout == "")
    #expect(result.stderr == "Error: " + message + usage)
    #expect(result.status == 64)
  }

  @Test func aKindThatMatchedNothingNamesTheClosestKindSeen() throws {
    // An app's own kind: a typo of it cannot be told from a kind that did not occur.
    let own = try #require(MisuseKind(code: "sheet-presented-twice", defaultLevel: .warning))
    let path = try writeFixture(
      jsonLines([
        fixtureEvent(seq: 1, kind: own),
        fixtureEvent(seq: 2, kind: .unwrappedWriteAfterNil, line: 9),
      ]))
    let result = try bindiag("check", "--kind", "sheet-presented-twise", path)
    #expect(result.stdout.contains("\nNo misuse events found.\n"))
    #expect(
      result.stderr == """
        note: no event has kind 'sheet-presented-twise'; the closest kind seen is 'sheet-presented-twice'
        check passed: 0 events at warning and above (--max-events 0), 0 lost records (--max-lost 0)

        """)
    #expect(result.status == 0)
    // A kind that occurred but was filtered out by another option is no typo (the host that
    // matched nothing is, and is named).
    let filtered = try bindiag("summary", "--kind", "sheet-presented-twice", "--host", "x", path)
    #expect(
      filtered.stderr == "warning: --host 'x' matched no record; hosts seen: 'build-01' (closest)\n")
  }

  @Test func checkCountsWarningAndAboveUnlessLevelSaysOtherwise() throws {
    // `unwrapped-read-after-nil` is at `info` by default.
    let path = try writeFixture(
      jsonLines([fixtureEvent(seq: 1, kind: .unwrappedReadAfterNil, suppressed: 4)]))
    let passing = try bindiag("check", path)
    #expect(
      passing.stderr
        == "check passed: 0 events at warning and above (--max-events 0), 0 lost records (--max-lost 0)\n"
    )
    #expect(passing.status == 0)
    for level in ["info", "6", "debug", "7", "trace"] {
      let widened = try bindiag("check", "--level", level, path)
      #expect(widened.stderr == "check failed: 5 events (--max-events 0)\n", "\(level)")
      #expect(widened.status == 3, "\(level)")
    }
    let allowed = try bindiag("check", "-p", "info", "--max-events", "5", path)
    #expect(
      allowed.stderr
        == "check passed: 5 events at info and above (--max-events 5), 0 lost records (--max-lost 0)\n"
    )
    #expect(allowed.status == 0)
  }

  @Test(arguments: [
    ("emerg", 1), ("crit", 1), ("2", 1), ("err", 3), ("3", 3), ("error", 3), ("warn", 5),
    ("4", 5), ("warning", 5), ("notice", 5), ("5", 5), ("info", 6), ("6", 6), ("debug", 8),
    ("7", 9), ("trace", 9),
  ])
  func levelTakesJournalctlNamesAndNumbers(level: String, events: Int) throws {
    let path = try writeFixture(
      jsonLines([
        fixtureEvent(seq: 1, level: .critical), fixtureEvent(seq: 2, level: .error, suppressed: 1),
        fixtureEvent(seq: 3, level: .warning, suppressed: 1), fixtureEvent(seq: 4, level: .info),
        fixtureEvent(seq: 5, level: .debug, suppressed: 1), fixtureEvent(seq: 6, level: .trace),
      ]))
    let result = try bindiag("summary", "-p", level, "--format", "json", path)
    #expect(result.stderr == "")
    #expect(result.stdout.hasPrefix(#"{"schema":1,"events":\#(events),"#), "\(level)")
  }

  /// `today` and `yesterday` are local midnights, as journalctl reads them: in Kiritimati
  /// (UTC+14) they are ten hours before UTC's.
  @Test func sinceTodayIsLocalMidnight() throws {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = try #require(TimeZone(identifier: "Pacific/Kiritimati"))
    let today = calendar.startOfDay(for: Date())
    let yesterday = try #require(calendar.date(byAdding: .day, value: -1, to: today))
    func time(_ date: Date, _ offset: TimeInterval) -> String {
      let formatter = ISO8601DateFormatter()
      formatter.timeZone = TimeZone(identifier: "UTC")
      return formatter.string(from: date.addingTimeInterval(offset))
    }
    let path = try writeFixture(
      jsonLines([
        fixtureEvent(seq: 1, at: time(yesterday, -1)), fixtureEvent(seq: 2, at: time(yesterday, 1)),
        fixtureEvent(seq: 3, at: time(today, -1)), fixtureEvent(seq: 4, at: time(today, 1)),
      ]))
    for (since, events) in [("today", 1), ("yesterday", 3)] {
      let result = try bindiag(
        arguments: ["summary", "--since", since, "--format", "json", path],
        environment: ["TZ": "Pacific/Kiritimati"])
      #expect(result.stdout.hasPrefix(#"{"schema":1,"events":\#(events),"#), "\(since)")
    }
    let until = try bindiag(
      arguments: ["summary", "--until", "today", "--format", "json", path],
      environment: ["TZ": "Pacific/Kiritimati"])
    #expect(until.stdout.hasPrefix(#"{"schema":1,"events":3,"#))
  }
}
