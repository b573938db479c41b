import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// Configuration as data: the environment and the file's bytes in, a specification and one
/// warning per mistake out, no file opened and nothing written.
@Suite struct ConfigurationSpecificationTests {
  /// Parses `environment`, with `file` as the bytes of the file it names (`config.json`).
  func parse(
    _ environment: [String: String], file: String? = nil
  ) -> (specification: ConfigurationSpecification, warnings: [String]) {
    var environment = environment
    if file != nil { environment["BINDING_DIAGNOSTICS_CONFIG"] = "config.json" }
    return EnvironmentConfiguration.specification(environment: environment) { path in
      #expect(path == "config.json")
      return file.map { Array($0.utf8) }
    }
  }

  @Test func sinksAreDataUntilOpened() {
    // A path that could never be opened: parsing does not try.
    let parsed = parse([
      "BINDING_DIAGNOSTICS": "stderr,jsonl:/nonexistent/dir/a.jsonl,journald,stderr:human"
    ])
    #expect(parsed.warnings == [])
    #expect(
      parsed.specification.sinks == [
        .standardError(nil), .jsonLines(path: "/nonexistent/dir/a.jsonl", options: .init()),
        .journald, .standardError(.human),
      ])
    let (configuration, warnings) = ConfigurationSpecification().open()
    #expect(warnings == [])
    #expect(configuration.sink is StandardErrorSink)
  }

  @Test func aFileObjectBecomesOptions() {
    let parsed = parse(
      [:],
      file: #"{"sinks":[{"type":"jsonl","path":"/x.jsonl","max_bytes":100,"keep":2,"#
        + #""fsync":"always","synchronous":true}]}"#)
    var options = JSONLinesFileSink.Options()
    options.maxBytes = 100
    options.keep = 2
    options.fsync = .always
    options.synchronous = true
    #expect(parsed.warnings == [])
    #expect(parsed.specification.sinks == [.jsonLines(path: "/x.jsonl", options: options)])
  }

  @Test(arguments: [
    ("warn", MisuseLevel.warning), ("err", .error), ("crit", .critical), ("emerg", .critical),
    ("alert", .critical), ("0", .critical), ("1", .critical), ("2", .critical), ("3", .error),
    ("4", .warning), ("5", .notice), ("6", .info), ("7", .trace), ("debug", .debug),
    ("notice", .notice),
  ])
  func levelsAsJournalctlTakesThem(text: String, level: MisuseLevel) {
    let parsed = parse(["BINDING_DIAGNOSTICS_MIN_LEVEL": text])
    #expect(parsed.warnings == [])
    #expect(parsed.specification.minimumLevel == level)
  }

  @Test(arguments: [
    (
      ["BINDING_DIAGNOSTIC": "journald"],
      "BINDING_DIAGNOSTIC: unknown variable (did you mean BINDING_DIAGNOSTICS?); ignored"
    ),
    (
      ["BINDING_DIAGNOSTICS_PRIVCY": "hash"],
      "BINDING_DIAGNOSTICS_PRIVCY: unknown variable (did you mean BINDING_DIAGNOSTICS_PRIVACY?); ignored"
    ),
    (
      ["BINDINGS_DIAGNOSTICS_RATE_LIMIT": "off"],
      "BINDINGS_DIAGNOSTICS_RATE_LIMIT: unknown variable (did you mean BINDING_DIAGNOSTICS_RATE_LIMIT?); ignored"
    ),
    (
      ["BINDING_DIAGNOSTICS_COLOUR": "red"],
      "BINDING_DIAGNOSTICS_COLOUR: unknown variable; ignored"
    ),
    (
      ["BINDING_DIAGNOSTICS": "jounald"],
      #"BINDING_DIAGNOSTICS: unknown sink "jounald" (did you mean "journald"?) (expected stderr, stderr:human, stderr:logfmt, stderr:json, jsonl:PATH, journald, oslog or none); using stderr"#
    ),
    (
      ["BINDING_DIAGNOSTICS": "stderr:humam"],
      #"BINDING_DIAGNOSTICS: unknown sink "stderr:humam" (did you mean "stderr:human"?) (expected stderr, stderr:human, stderr:logfmt, stderr:json, jsonl:PATH, journald, oslog or none); using stderr"#
    ),
    (
      ["BINDING_DIAGNOSTICS_PRIVACY": "hashed"],
      #"BINDING_DIAGNOSTICS_PRIVACY: expected private, hash or public, got "hashed" (did you mean "hash"?); using private"#
    ),
    (
      ["BINDING_DIAGNOSTICS_MIN_LEVEL": "warnig"],
      #"BINDING_DIAGNOSTICS_MIN_LEVEL: expected one of trace, debug, info, notice, warning, error, critical (or as journalctl: emerg, alert, crit, err, warn, 0-7), got "warnig" (did you mean "warning"?); using trace"#
    ),
    (
      ["BINDING_DIAGNOSTICS_MIN_LEVEL": "8"],
      #"BINDING_DIAGNOSTICS_MIN_LEVEL: expected one of trace, debug, info, notice, warning, error, critical (or as journalctl: emerg, alert, crit, err, warn, 0-7), got "8"; using trace"#
    ),
    (
      ["BINDING_DIAGNOSTICS_POLICY": "fail-test"],
      #"BINDING_DIAGNOSTICS_POLICY: expected automatic, report, assert, fail-tests or break, got "fail-test" (did you mean "fail-tests"?); using automatic"#
    ),
  ])
  func eachMistakeInTheEnvironmentIsOneLine(environment: [String: String], warning: String) {
    #expect(parse(environment).warnings == [warning])
  }

  @Test func othersVariablesAreNotOurs() {
    let parsed = parse([
      "PATH": "/usr/bin", "BINDING": "x", "DIAGNOSTICS": "y", "BINDIAG_UPDATE_SNAPSHOTS": "1",
      "BINDING_DIAGNOSTICS_SIGNALS": "off", "BINDING_DIAGNOSTICS_TESTING_FIXTURES": "1",
    ])
    #expect(parsed.warnings == [])
  }

  @Test(arguments: [
    (
      #"{"sink":["journald"]}"#,
      #"config.json: key "sink": unknown key (did you mean "sinks"?); ignored"#
    ),
    (
      #"{"min-level":"warn"}"#,
      #"config.json: key "min-level": unknown key (did you mean "min_level"?); ignored"#
    ),
    (
      #"{"sinks":[{"type":"jsonl","path":"/x","max_byte":10}]}"#,
      #"config.json: key "sinks"[0].max_byte: unknown key (did you mean "max_bytes"?); ignored"#
    ),
    (
      #"{"sinks":[{"type":"journald","path":"/x"}]}"#,
      #"config.json: key "sinks"[0].path: only a jsonl sink takes more than "type"; ignored"#
    ),
    (
      "{\n  \"privacy\": \"hash\",\n  \"policy\": report\n}\n",
      "BINDING_DIAGNOSTICS_CONFIG=config.json: not valid JSON at line 3, column 13; using defaults"
    ),
    (
      "{\n  \"privacy\": \"hash\"\n  \"policy\": \"report\"\n}\n",
      "BINDING_DIAGNOSTICS_CONFIG=config.json: not valid JSON at line 3, column 3; using defaults"
    ),
    (
      #"["stderr"]"#,
      "BINDING_DIAGNOSTICS_CONFIG=config.json: the top level must be an object; using defaults"
    ),
  ])
  func eachMistakeInTheFileIsOneLine(file: String, warning: String) {
    #expect(parse([:], file: file).warnings == [warning])
  }

  @Test func anUnreadableFileIsOneLine() {
    #expect(
      parse(["BINDING_DIAGNOSTICS_CONFIG": "config.json"]).warnings == [
        "BINDING_DIAGNOSTICS_CONFIG=config.json: cannot read the file; using defaults"
      ])
  }

  @Test func aLateBootstrapNamesTheFirstOne() throws {
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Helpers/misuse-helper/main.swift")
    let lines = try String(contentsOf: source, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    // The bootstrap calls right under `if earlyBootstrap {` and `if lateBootstrap {`.
    let early = try #require(lines.firstIndex { $0.hasPrefix("if earlyBootstrap {") }) + 2
    let late = try #require(lines.firstIndex { $0.hasPrefix("if lateBootstrap {") }) + 2
    #expect(lines[early - 1].contains("DiagnosticsSystem.bootstrap("))
    #expect(lines[late - 1].contains("DiagnosticsSystem.bootstrap("))

    let afterBootstrap = try runProduct(
      "misuse-helper", ["0", "--early-bootstrap", "--late-bootstrap"])
    #expect(
      afterBootstrap.stderr
        == "binding-diagnostics: DiagnosticsSystem.bootstrap at misuse_helper/main.swift:\(late) called after the pipeline was set up by the bootstrap at misuse_helper/main.swift:\(early); call ignored\n"
    )

    let mapping = try #require(lines.firstIndex { $0.contains("alert.mappedToBool(") }) + 1
    let events = try temporaryDirectory() + "/events.jsonl"
    let afterMisuse = try runProduct(
      "misuse-helper", ["1", "--late-bootstrap"],
      environment: ["BINDING_DIAGNOSTICS": "jsonl:\(events)"])
    #expect(
      afterMisuse.stderr
        == "binding-diagnostics: DiagnosticsSystem.bootstrap at misuse_helper/main.swift:\(late) called after the pipeline was set up from the environment by the first misuse, at misuse_helper/main.swift:\(mapping); call ignored\n"
    )
  }
}
