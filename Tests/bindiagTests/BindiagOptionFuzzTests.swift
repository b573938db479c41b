import Foundation
import TestSupport
import Testing

@testable import bindiag

/// Every option value, hostile or out of range, is either accepted or a usage error: never a
/// trap, an abort or a raw control character on the terminal. The parser meets the values in
/// process (`OptionParserFuzzTests`); the built `bindiag` runs what reaches a command.
@Suite struct BindiagOptionFuzzTests {
  /// The usage lines each command prints after an error, asked of `bindiag` once per test
  /// process (`--no-such-option`).
  static let usages: [String: Result<String, any Error>] = Dictionary(
    uniqueKeysWithValues: ["summary", "check", "follow"].map { command in
      (
        command,
        Result {
          // After the error's line.
          String(try bindiag(command, "--no-such-option").stderr.drop { $0 != "\n" }.dropFirst())
        }
      )
    })

  /// The usage lines `command` prints after an error.
  func usage(_ command: String) throws -> String {
    try #require(Self.usages[command]).get()
  }

  @Test(arguments: [
    (
      ["summary", "--since", "-200000000d"],
      "The value '-200000000d' is invalid for '--since': the time must fall in years 0000 to 9999"
    ),
    (
      ["summary", "--until", "-106751991d"],
      "The value '-106751991d' is invalid for '--until': the time must fall in years 0000 to 9999"
    ),
    (
      ["check", "--since=-9223372036854775807s"],
      "The value '-9223372036854775807s' is invalid for '--since': the time must fall in years 0000 to 9999"
    ),
    (
      ["follow", "--since", "-99999999999999999999d"],
      "The value '-99999999999999999999d' is invalid for '--since': the time must fall in years 0000 to 9999"
    ),
    (
      ["summary", "--since", "0000-01-01T00:00:00+00:01"],
      "The value '0000-01-01T00:00:00+00:01' is invalid for '--since': the time must fall in years 0000 to 9999"
    ),
    (
      ["summary", "--until", "9999-12-31T23:59:59.999999-00:01"],
      "The value '9999-12-31T23:59:59.999999-00:01' is invalid for '--until': the time must fall in years 0000 to 9999"
    ),
    (
      ["summary", "--since", "-+5d"],
      "The value '-+5d' is invalid for '--since': expected an RFC 3339 time, -30s, -30m, -1h, -7d, now, today, yesterday or tomorrow"
    ),
    (
      ["summary", "--max-line-bytes", "100000000000"],
      "The value '100000000000' is invalid for '--max-line-bytes': expected a whole number from 64 to 1073741824"
    ),
    (
      ["follow", "--max-line-bytes", "63"],
      "The value '63' is invalid for '--max-line-bytes': expected a whole number from 64 to 1073741824"
    ),
    (
      ["summary", "--top", "99999999999999999999"],
      "The value '99999999999999999999' is invalid for '--top': expected a whole number of at least 0"
    ),
    (
      ["check", "--max-events", "-1"],
      "The value '-1' is invalid for '--max-events': expected a whole number of at least 0"
    ),
    (
      ["check", "--max-lost", "9223372036854775808"],
      "The value '9223372036854775808' is invalid for '--max-lost': expected a whole number of at least 0"
    ),
    (
      ["follow", "--count", "0"],
      "The value '0' is invalid for '--count': expected a whole number of at least 1"
    ),
    (
      ["summary", "--kind", "\u{1b}[2J\u{202E}"],
      #"The value '\u001b[2J\u202e' is invalid for '--kind': expected a kebab-case kind"#
    ),
  ])
  func outOfRangeValuesAreUsageErrors(arguments: [String], message: String) throws {
    let result = try bindiag(arguments: arguments)
    #expect(result.stdout == "")
    #expect(result.stderr == "Error: " + message + "\n" + (try usage(arguments[0])))
    #expect(result.status == 64)
  }

  @Test(arguments: [
    ["summary", "--since", "0000-01-01T00:00:00Z", "--until", "9999-12-31T23:59:59.999999Z"],
    ["summary", "--since", "-106751d", "--until", "now"],
    ["summary", "--max-line-bytes", "1073741824", "--top", "9223372036854775807"],
    ["check", "--max-events", "9223372036854775807", "--max-lost", "0"],
  ])
  func valuesAtTheEdgesOfTheirRangesAreAccepted(arguments: [String]) throws {
    let result = try bindiag(
      arguments: arguments + ["--format", "json"],
      stdin: Data(jsonLines([fixtureEvent(seq: 1)]).utf8))
    // A passing check says what it counted.
    #expect(result.stderr == "" || result.stderr.hasPrefix("check passed: 1 event at warning "))
    #expect(result.stdout.hasPrefix(#"{"schema":1,"events":1,"#))
    #expect(result.status == 0)
  }

  /// Every option that takes a value, with the commands that have it.
  static let options: [(command: String, option: String)] = [
    ("summary", "--since"), ("summary", "--until"), ("summary", "--top"),
    ("summary", "--max-line-bytes"), ("summary", "--format"), ("summary", "-f"),
    ("summary", "--group-by"), ("summary", "--kind"), ("summary", "--level"),
    ("summary", "--file"), ("summary", "--process"), ("summary", "--host"), ("summary", "--run"),
    ("summary", "--journal-dir"), ("check", "--max-events"), ("check", "--max-lost"),
    ("check", "--until"), ("follow", "--count"), ("follow", "--since"),
    ("follow", "--max-line-bytes"), ("follow", "--kind"), ("summary", "-p"), ("follow", "--level"),
    ("summary", "--max-columns"), ("check", "--baseline-max-growth"),
  ]

  /// Hostile values: huge, negative, overflowing, empty, non-ASCII, control and bidirectional
  /// characters (no NUL: an argument cannot hold one), times at and past the contract's ends,
  /// and random strings from the same alphabet.
  static let values: [String] = {
    var values = [
      "", " ", "0", "-0", "+0", "1", "-1", "63", "64", "1073741824", "1073741825",
      "9223372036854775807", "9223372036854775808", "-9223372036854775808",
      "-9223372036854775809", "18446744073709551616", "99999999999999999999999999999999", "1e3",
      "0x10", "1_000", " 5", "5 ", "٣", "５", "-", "--", "-5", "-5d", "-0d", "-200000000d",
      "-106751991d", "-106751992d", "-2562047788015h", "-9223372036854775807s",
      "-9223372036854775808s", "-99999999999999999999d", "-1y", "-+5d", "--5d", "-٣d", "today",
      "now", "TODAY", "0000-01-01T00:00:00Z", "0000-01-01T00:00:00+00:01",
      "9999-12-31T23:59:59.999999Z", "9999-12-31T23:59:59.999999-00:01", "9999-12-31T23:59:60Z",
      "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-30T04:12:33.12345678901234567890Z",
      "2026-11-30t04:12:33z", "\u{1}", "\u{1b}[31mred", "\t", "\r\n", "\u{7f}", "\u{85}",
      "\u{2028}", "\u{202E}5", "\u{2066}", "ünïcode", "😀", "table", "json", "kind,host",
      "site,site", ",", "error", "x=y", "a\"b'c", String(repeating: "9", count: 5000),
      String(repeating: "a", count: 100_000), "/", "/nonexistent", "../../etc/passwd",
    ]
    // Reproducible: a linear congruential generator with a fixed seed.
    var state: UInt64 = 8
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let alphabet = Array(
      "0123456789-+:.TZdhms ,=aéü٣５\u{1}\u{9}\u{1b}\u{7f}\u{9b}\u{202E}\u{2067}😀".unicodeScalars)
    for _ in 0..<40 {
      var scalars = String.UnicodeScalarView()
      for _ in 0...next(30) { scalars.append(alphabet[next(alphabet.count)]) }
      values.append(String(scalars))
    }
    return values
  }()

  /// `demo --dir` creates its directory: hostile names go under a fresh temporary one.
  @Test func hostileDemoDirectoriesNeverCrash() throws {
    let root = try temporaryDirectory()
    let names = [
      "", "\u{1b}[31mred", "\u{202E}x", "a\"b'c", "ünïcode", ".", "..", "-", "--", "\t", "😀",
      String(repeating: "a", count: 300), "x/y/z", "\u{2028}",
    ]
    for name in names {
      // Its records also go to journald: one of the test's own, not the machine's.
      let result = try PrivateJournal.run(
        "bindiag", ["demo", "--dir", root + "/" + name], environment: bindiagEnvironment)
      let shown = name.debugDescription.prefix(60)
      #expect([0, 1].contains(result.status), "\(shown): status \(result.status)")
      #expect(
        !(result.stdout + result.stderr).unicodeScalars.contains {
          ($0.value < 0x20 && $0 != "\n") || (0x7f...0x9f).contains($0.value)
            || (0x202a...0x202e).contains($0.value) || (0x2066...0x2069).contains($0.value)
        }, "\(shown)")
    }
  }

  /// The arguments of `option` of `command` with every hostile value: `--option value` and
  /// `--option=value` in turn (a short option always takes the next argument).
  static func hostileArguments(command: String, option: String) -> [[String]] {
    values.enumerated().map { index, value in
      index % 2 == 0 || !option.hasPrefix("--")
        ? [command, option, value] : [command, "\(option)=\(value)"]
    }
  }

  /// Every hostile value of every option is parsed in process; the values the parser refuses
  /// become the usage error `bindiag` writes, checked here as the binary's would be. The built
  /// `bindiag` runs the values the parser accepts (they reach the command: a filter, a file
  /// name, a directory), the first it refuses, and the first three it refuses with a control,
  /// separator or bidirectional character in the message: their standard error must be exactly
  /// the one made in process, escaped.
  @Test(arguments: options)
  func hostileValuesNeverCrash(command: String, option: String) throws {
    let named = try #require(Command(rawValue: command))
    var refusedRuns = (plain: 0, hostile: 0)
    for arguments in Self.hostileArguments(command: command, option: option) {
      let shown = arguments.map { $0.debugDescription.prefix(60) }.joined(separator: " ")
      let refusal = OptionParserFuzzTests.parse(named, Array(arguments.dropFirst()))
      if let refusal {
        // What `bindiag` writes for it: exit 64, this on standard error.
        let stderr = OptionParserFuzzTests.usageErrorText(refusal)
        #expect(stderr.hasPrefix("Error: "), "\(shown)")
        #expect(stderr.contains("\nUsage: bindiag \(command) "), "\(shown)")
        #expect(!OptionParserFuzzTests.containsHostileScalar(stderr), "\(shown)")
        if OptionParserFuzzTests.containsHostileScalar(refusal.message) {
          refusedRuns.hostile += 1
          guard refusedRuns.hostile <= 3 else { continue }
        } else {
          refusedRuns.plain += 1
          guard refusedRuns.plain <= 1 else { continue }
        }
        let result = try bindiag(arguments: arguments)
        #expect(result.stdout == "", "\(shown)")
        #expect(result.stderr == stderr, "\(shown)")
        #expect(result.status == 64, "\(shown)")
        continue
      }
      let result = try bindiag(arguments: arguments)
      #expect([0, 1, 3, 64, 65].contains(result.status), "\(shown): status \(result.status)")
      #expect(
        !result.stderr.contains("runtime failure") && !result.stderr.contains("Fatal error")
          && !result.stderr.contains("Backtrac"), "\(shown): \(result.stderr.prefix(300))")
      if result.status == 64 {
        #expect(result.stderr.hasPrefix("Error: "), "\(shown)")
        #expect(result.stderr.contains("\nUsage: bindiag \(command) "), "\(shown)")
      }
      // Standard error is for people: nothing from the value may reach it raw.
      #expect(
        !result.stderr.unicodeScalars.contains {
          ($0.value < 0x20 && $0 != "\n") || (0x7f...0x9f).contains($0.value)
            || (0x202a...0x202e).contains($0.value) || (0x2066...0x2069).contains($0.value)
        }, "\(shown): \(result.stderr.debugDescription.prefix(300))")
    }
  }
}
