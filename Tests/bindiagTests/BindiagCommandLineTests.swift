import Foundation
import TestSupport
import Testing

@Suite struct BindiagCommandLineTests {
  @Test func versionPrintsTheVersion() throws {
    let result = try bindiag("--version")
    #expect(result.stdout == "bindiag 3.3.1\n")
    #expect(result.stderr == "")
    #expect(result.status == 0)
  }

  /// A report written to a full disk (`/dev/full`) is not a report: the built binary says so
  /// and ends with status 1, where it ended with 0 over nothing written; the same command to
  /// `/dev/null` still ends with 0, and `check`'s gate status is kept when it is not 0.
  @Test(arguments: [
    ("summary --format json", "/dev/full", 1), ("summary --format json", "/dev/null", 0),
    ("summary", "/dev/full", 1), ("check --max-events 0", "/dev/full", 3),
    ("check --max-events 100 --max-lost 100", "/dev/full", 1),
    ("export --format otlp", "/dev/full", 1),
    ("summary --format csv", "/dev/null", 0),
  ])
  func aReportThatCannotBeWrittenFails(command: String, output: String, status: Int32) throws {
    let file = try writeFixture(jsonLines(summaryFixtureEvents))
    let result = try runProduct(
      "/bin/sh",
      [
        "-c", "\"$0\" \(command) \"$1\" > \(output)",
        productsDirectory().appendingPathComponent("bindiag").path, file,
      ],
      environment: bindiagEnvironment)
    #expect(result.status == status, "\(result.stderr)")
    let said = result.stderr.contains("Error: cannot write to standard output\n")
    #expect(said == (output == "/dev/full"), "\(result.stderr)")
  }

  @Test(arguments: ["summary", "check", "follow", "demo", "catalog", "completions", "manpage"])
  func helpIsTheSameThreeWays(command: String) throws {
    let viaHelp = try bindiag("help", command)
    let viaLong = try bindiag(command, "--help")
    let viaShort = try bindiag(command, "-h")
    #expect(viaHelp.status == 0 && viaLong.status == 0 && viaShort.status == 0)
    #expect(viaHelp.stdout.hasPrefix("OVERVIEW: "))
    #expect(viaHelp.stdout == viaLong.stdout)
    #expect(viaHelp.stdout == viaShort.stdout)
    #expect(viaHelp.stderr == "")
  }

  @Test func topLevelHelpListsTheCommands() throws {
    let result = try bindiag("--help")
    #expect(result.status == 0)
    for command in [
      "summary", "check", "follow", "demo", "catalog", "completions", "manpage", "help",
    ] {
      #expect(result.stdout.contains("\n  \(command)"))
    }
    #expect(try bindiag("help").stdout == result.stdout)
  }

  /// Each command shows its own examples: check's are about thresholds and baselines.
  @Test func checkHelpShowsChecksOwnExamples() throws {
    let help = try bindiag("help", "check").stdout
    let examples = try #require(help.components(separatedBy: "\nEXAMPLES:\n").last)
    #expect(examples.contains("  bindiag check --max-events 10 --max-lost 0 --level error "))
    #expect(examples.contains("  bindiag check --baseline baseline.json --baseline-max-growth 2 "))
    #expect(examples.contains("  bindiag check --write-baseline baseline.json "))
    #expect(!help.contains("bindiag summary"))
    #expect(help.contains("-f is --format"))
  }

  @Test func unknownOptionIsAUsageError() throws {
    let result = try bindiag("summary", "--colour")
    #expect(result.stdout == "")
    #expect(
      result.stderr
        == "Error: Unknown option '--colour'; did you mean '--color'?\nUsage: bindiag summary [<options>] [<file> ...]\n  See 'bindiag help summary' for more information.\n"
    )
    #expect(result.status == 64)
  }

  /// A flag given a value is refused: `--strict=false` turned strict mode on, `--utc=no`
  /// printed UTC.
  @Test(arguments: [
    ("summary", "--strict=false"), ("summary", "--utc=no"), ("check", "--no-pager=0"),
    ("summary", "--live=no"), ("follow", "--utc=1"), ("catalog", "--help=yes"),
  ])
  func aFlagGivenAValueIsAUsageError(command: String, flag: String) throws {
    let result = try bindiag(command, flag, "/dev/null")
    let name = String(flag.prefix { $0 != "=" })
    let usage =
      [
        "catalog": "[--kind <kind> --subject <text> --body <text>] ...",
        "follow": "[<options>] [-n <n>] [--count <n>] [<file> ...]",
      ][command] ?? "[<options>] [<file> ...]"
    #expect(result.stdout == "")
    #expect(
      result.stderr
        == "Error: Option '\(name)' takes no value\nUsage: bindiag \(command) \(usage)\n"
        + "  See 'bindiag help \(command)' for more information.\n")
    #expect(result.status == 64)
  }

  @Test(arguments: [
    (
      ["summary", "--format", "xml"],
      "Error: The value 'xml' is invalid for '--format': expected table, json, markdown, csv, sarif, github, html, gcc, junit or prometheus"
    ),
    (["summary", "--top"], "Error: Missing value for '--top'"),
    (
      ["summary", "--top", "-3"],
      "Error: The value '-3' is invalid for '--top': expected a whole number of at least 0"
    ),
    (
      ["summary", "--since", "last week"],
      "Error: The value 'last week' is invalid for '--since': expected an RFC 3339 time, -30s, -30m, -1h, -7d, now, today, yesterday or tomorrow"
    ),
    (
      ["summary", "--level", "loud"],
      "Error: The value 'loud' is invalid for '--level': expected one of trace, debug, info, notice, warning, error, critical, emerg, alert, crit, err, warn or 0 to 7"
    ),
    (
      ["summary", "--group-by", "colour"],
      #"Error: The value 'colour' is invalid for '--group-by': unknown group field "colour" (expected site, kind, type, process, host, function, label, test, writer, file or line)"#
    ),
    (
      ["summary", "--kind", "Not Kebab"],
      "Error: The value 'Not Kebab' is invalid for '--kind': expected a kebab-case kind"
    ),
    (
      ["follow", "--journal", "x.jsonl"],
      "Error: Files cannot be followed together with '--journal' or '--journal-dir'"
    ),
    (
      ["check", "--max-events", "x"],
      "Error: The value 'x' is invalid for '--max-events': expected a whole number of at least 0"
    ),
    (
      ["summary", "--max-events", "3"],
      "Error: Unknown option '--max-events' (an option of check)"
    ),
    (
      ["follow", "--format", "csv"],
      "Error: '--format csv' is for summary and check (follow writes table or json)"
    ),
    (
      ["follow", "-n", "-1"],
      "Error: The value '-1' is invalid for '-n': expected a whole number of at least 0, or all"
    ),
    (
      ["follow", "--lines", "many"],
      "Error: The value 'many' is invalid for '--lines': expected a whole number of at least 0, or all"
    ),
    (["summary", "-n", "3"], "Error: Unknown option '-n' (an option of follow)"),
    (["catalog", "extra"], "Error: Unexpected argument 'extra'"),
    (["help", "frobnicate"], "Error: Unknown command 'frobnicate'"),
  ])
  func usageErrorsExit64(arguments: [String], message: String) throws {
    let result = try bindiag(arguments: arguments)
    #expect(result.status == 64)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix(message + "\nUsage: bindiag "))
  }

  /// The `--since`/`--until` error names every form the parser takes, as `bindiag help` does:
  /// each one it names is accepted, and help names each one.
  @Test func theTimeErrorNamesEveryFormTheParserTakes() throws {
    let error = try launchedBindiag("summary", "--until", "soon", stdin: "")
    #expect(error.status == 64)
    #expect(
      error.stderr.hasPrefix(
        "Error: The value 'soon' is invalid for '--until': expected an RFC 3339 time, -30s, -30m, -1h, -7d, now, today, yesterday or tomorrow\n"
      ))
    let help = try launchedBindiag("help", "summary")
    let forms = [
      "2026-11-30T04:12:33Z", "-30s", "-30m", "-1h", "-7d", "now", "today", "yesterday", "tomorrow",
    ]
    for form in forms {
      let accepted = try launchedBindiag("summary", "--since", form, stdin: "")
      #expect(accepted.status == 0, "\(form): \(accepted.stderr)")
      if !form.hasPrefix("2026") {
        #expect(error.stderr.contains(" \(form)"), "\(form)")
        #expect(help.stdout.contains(" \(form)"), "\(form)")
      }
    }
  }

  @Test func catalogPrintsTheShippedCatalog() throws {
    let result = try bindiag("catalog")
    let shipped = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config/binding-diagnostics.catalog"),
      encoding: .utf8)
    #expect(result.status == 0)
    #expect(result.stdout == shipped)
  }

  @Test func catalogCompilesWithJournalctl() throws {
    let root = try temporaryDirectory()
    let directory = root + "/usr/lib/systemd/catalog"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try bindiag("catalog").stdout.write(
      toFile: directory + "/binding-diagnostics.catalog", atomically: true, encoding: .utf8)
    let update = try runProduct(
      "/usr/bin/env", ["journalctl", "--root=\(root)", "--update-catalog"])
    #expect(update.status == 0, "\(update.stderr)")
    let list = try runProduct("/usr/bin/env", ["journalctl", "--root=\(root)", "--list-catalog"])
    #expect(
      list.stdout.split(separator: "\n").map { String($0.prefix(32)) }.sorted() == [
        "043e1df79d121894fb520fc6dbb65814", "1602a1b76db8d6991739f4e08b103e2c",
        "225af2e2c84a98d859d1b81a14e0f08e", "2b9f53b872d7905613eeb68e53797657",
        "408dfadb7955002b716d4ab50fbd4491", "bc5fac4ceaa67ee0a9571f1f145acecc",
        "dd247305be2c4d0989f04225e38f18ac", "f85acfe97c4c497e9481d236932560ea",
      ])
    #expect(
      list.stdout.contains(
        "BindingDiagnostics: A Binding<Bool> mapped from an optional was set to true"))
  }

  /// The demo's help says what the script commits (``demoRunsTheScriptedAppAndSummarisesIt``
  /// finds every built-in kind in its events); it said "all three kinds".
  @Test func demoHelpSaysWhatTheScriptCommits() throws {
    let help = try bindiag("help", "demo")
    #expect(help.status == 0)
    #expect(
      help.stdout.contains(
        "Run a scripted app (several views, threads, every built-in kind and an\napp's own)"),
      "\(help.stdout)")
    #expect(!help.stdout.contains("three kinds"))
  }

  @Test func demoRunsTheScriptedAppAndSummarisesIt() throws {
    let directory = try temporaryDirectory() + "/demo"
    // Its records also go to journald: one of the test's own, not the machine's.
    let result = try PrivateJournal.run(
      "bindiag", ["demo", "--dir", directory], environment: bindiagEnvironment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("2113 misuses happened (the script commits 2113)"))
    #expect(
      result.stdout.contains("bindiag summary --group-by kind,process \(directory)/events.jsonl"))
    let summary = try bindiag("summary", "--format", "json", directory + "/events.jsonl")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any])
    #expect(object["events"] as? Int == 2113)
    #expect(object["lost"] as? Int == 0)
    let kinds = Set(
      ((object["groups"] as? [[String: Any]]) ?? []).compactMap {
        ($0["key"] as? [String: Any])?["kind"] as? String
      })
    #expect(
      kinds.isSuperset(of: [
        "mapped-bool-set-true", "unwrapped-read-after-nil", "unwrapped-write-after-nil",
        "element-read-after-removal", "element-write-after-removal", "set-off-main-thread",
        "write-not-applied", "reentrant-write",
      ]))
  }
}
