import BindingDiagnostics
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The configuration file as an attacker or a mistake shapes it: writable by others, another
/// user's, a key written twice, too large, too many mistakes; and a path with a comma in
/// `BINDING_DIAGNOSTICS`.
@Suite struct ConfigurationHardeningTests {
  /// A file that would turn values public and send records to stderr as JSON.
  static let publicJSON = #"{"privacy":"public","sinks":["stderr:json"]}"#

  func load(_ path: String) -> EnvironmentConfiguration {
    EnvironmentConfiguration.load(from: ["BINDING_DIAGNOSTICS_CONFIG": path], warn: false)
  }

  @Test func aFileEveryUserMayWriteIsRefusedInOneLine() throws {
    let path = try temporaryFile(Self.publicJSON)
    #expect(chmod(path, 0o666) == 0)
    let refused = load(path)
    #expect(
      refused.warnings == [
        "BINDING_DIAGNOSTICS_CONFIG=\(path): writable by every user (mode 0666); refused: chmod o-w it; using defaults"
      ])
    #expect(refused.configuration.privacy == .private)
    #expect((refused.configuration.sink as? StandardErrorSink)?.format != .jsonLines)
    #expect(chmod(path, 0o664) == 0)
    let obeyed = load(path)
    #expect(obeyed.warnings == [])
    #expect(obeyed.configuration.privacy == .public)
    #expect((obeyed.configuration.sink as? StandardErrorSink)?.format == .jsonLines)
  }

  /// Run as root, a file another user owns is refused (that user could rewrite it); root's own
  /// file is obeyed.
  @Test(.enabled(if: geteuid() == 0, "chown needs root"))
  func anotherUsersFileIsRefusedInOneLine() throws {
    let path = try temporaryFile(Self.publicJSON)
    #expect(chown(path, 4242, 4242) == 0)
    let refused = load(path)
    #expect(
      refused.warnings == [
        "BINDING_DIAGNOSTICS_CONFIG=\(path): owned by uid 4242, neither this process's user (uid 0) nor root; refused; using defaults"
      ])
    #expect(refused.configuration.privacy == .private)
    #expect(chown(path, 0, 0) == 0)
    #expect(load(path).configuration.privacy == .public)
  }

  /// The finding as a real process: a world-writable file naming a JSON Lines path and public
  /// values is not obeyed; the misuse goes to stderr with its value private.
  @Test func aRealProcessDoesNotObeyAWorldWritableFile() throws {
    let directory = try temporaryDirectory()
    let records = directory + "/chosen.jsonl"
    let path = directory + "/config.json"
    try #"{"privacy":"public","sinks":["jsonl:\#(records)"]}"#.write(
      toFile: path, atomically: true, encoding: .utf8)
    #expect(chmod(path, 0o666) == 0)
    let result = try runProduct(
      "misuse-helper", ["1"],
      environment: ["BINDING_DIAGNOSTICS_CONFIG": path, "BINDING_DIAGNOSTICS": "stderr:logfmt"])
    #expect(result.status == 0)
    let lines = result.stderr.split(separator: "\n").map(String.init)
    // The refusal, the misuse's record, then the run's `run-end`.
    #expect(lines.count == 3)
    #expect(
      lines.first
        == "binding-diagnostics: BINDING_DIAGNOSTICS_CONFIG=\(path): writable by every user (mode 0666); refused: chmod o-w it; using defaults"
    )
    #expect(lines.dropFirst().first?.contains(" value=<private> ") == true)
    #expect(lines.last?.contains(" kind=run-end ") == true)
    #expect(!FileManager.default.fileExists(atPath: records))
  }

  /// A key written twice is named with both places, and the top-level key it is in keeps its
  /// default: neither of the two values is guessed.
  @Test func aKeyWrittenTwiceIsNamedWithLineAndColumn() throws {
    let top = try temporaryFile(
      """
      {
        "sinks": ["stderr:json"],
        "privacy": "public",
        "sinks": ["none"]
      }
      """)
    let loaded = load(top)
    #expect(
      loaded.warnings == [
        "\(top): line 4, column 3: key \"sinks\" repeats the one at line 2, column 3; \"sinks\" ignored, using its default"
      ])
    #expect(loaded.configuration.privacy == .public)
    #expect((loaded.configuration.sink as? StandardErrorSink)?.format != .jsonLines)

    let nested = try temporaryFile(
      #"{"privacy":"hash","sinks":[{"type":"jsonl","path":"a","päth":1,"path":"b"}]}"#)
    let inner = load(nested)
    #expect(
      inner.warnings == [
        "\(nested): line 1, column 64: key \"path\" (in \"sinks\") repeats the one at line 1, column 44; \"sinks\" ignored, using its default"
      ])
    #expect(inner.configuration.sink is StandardErrorSink)
    #expect(inner.configuration.privacy != .private)
  }

  /// Half a million unknown keys took 10.6 s and 160 MB at the first misuse: a file over 64 KiB
  /// is refused whole, before it is parsed.
  @Test func aFileOverSixtyFourKiBIsRefusedWhole() throws {
    let keys = (0..<8_000).map { "\"unknown\($0)\":0" }.joined(separator: ",")
    let path = try temporaryFile("{\(keys)}")
    #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0 > 65_536)
    #expect(
      load(path).warnings == [
        "BINDING_DIAGNOSTICS_CONFIG=\(path): larger than 64 KiB; refused; using defaults"
      ])
    let (_, warnings) = EnvironmentConfiguration.specification(
      environment: ["BINDING_DIAGNOSTICS_CONFIG": "big.json"],
      readFile: { _ in Array("{\(keys)}".utf8) })
    #expect(
      warnings == [
        "BINDING_DIAGNOSTICS_CONFIG=big.json: larger than 64 KiB; refused; using defaults"
      ])
  }

  /// A real process with 3 000 unknown keys prints ten warnings and one line counting the rest,
  /// then its record.
  @Test func aRealProcessPrintsTenWarningsAndCountsTheRest() throws {
    let keys = (0..<3_000).map { "\"unknown\($0)\":0" }.joined(separator: ",")
    let path = try temporaryFile("{\(keys)}")
    let result = try runProduct(
      "misuse-helper", ["1"],
      environment: ["BINDING_DIAGNOSTICS_CONFIG": path, "BINDING_DIAGNOSTICS": "stderr:logfmt"])
    #expect(result.status == 0)
    let lines = result.stderr.split(separator: "\n").map(String.init)
    // Ten warnings, the line counting the rest, the record and the run's `run-end`.
    #expect(lines.count == 13)
    #expect(
      lines.prefix(10).allSatisfy { $0.hasPrefix("binding-diagnostics: \(path): key \"unknown") })
    #expect(
      lines.dropFirst(10).first == "binding-diagnostics: 2990 more configuration warnings not shown"
    )
    #expect(lines.last?.hasPrefix("v=1 ts=") == true)
  }

  /// `\,` is a comma in a path, `\\` a backslash; any other backslash stays as written.
  @Test func aPathWithACommaIsWrittenWithABackslash() throws {
    func sinks(_ value: String) -> [SinkSpecification] {
      EnvironmentConfiguration.specification(
        environment: ["BINDING_DIAGNOSTICS": value], readFile: { _ in nil }
      ).specification.sinks
    }
    let options = JSONLinesFileSink.Options()
    #expect(
      sinks(#"jsonl:/logs/a\,b.jsonl,stderr:json"#) == [
        .jsonLines(path: "/logs/a,b.jsonl", options: options), .standardError(.jsonLines),
      ])
    #expect(
      sinks(#"jsonl:/logs/dir\\,journald"#) == [
        .jsonLines(path: #"/logs/dir\"#, options: options), .journald,
      ])
    #expect(
      sinks(#"jsonl:/logs/c:\d.jsonl"#) == [
        .jsonLines(path: #"/logs/c:\d.jsonl"#, options: options)
      ])
    #expect(
      sinks("jsonl:/logs/a.jsonl, stderr") == [
        .jsonLines(path: "/logs/a.jsonl", options: options), .standardError(nil),
      ])

    let directory = try temporaryDirectory()
    let result = try runProduct(
      "misuse-helper", ["1"],
      environment: [
        "BINDING_DIAGNOSTICS": #"jsonl:\#(directory)/a\,b.jsonl"#
      ])
    #expect(result.status == 0)
    #expect(result.stderr == "")
    // The misuse's record and the run's `run-end`.
    #expect(try lines(ofFile: directory + "/a,b.jsonl").count == 2)
  }
}
