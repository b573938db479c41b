import BindingDiagnostics
import Foundation
import TestSupport
import Testing

@Suite struct ConfigurationTests {
  @Test func defaultsToStandardErrorPrivateAndTenPerSecond() {
    let loaded = EnvironmentConfiguration.load(from: [:], warn: false)
    #expect(loaded.warnings.isEmpty)
    #expect(loaded.configuration.sink is StandardErrorSink)
    #expect(loaded.configuration.privacy == .private)
    #expect(loaded.configuration.rateLimit == .default)
    #expect(loaded.configuration.minimumLevel == .trace)
    #expect(loaded.configuration.policy == .automatic)
  }

  @Test func readsEveryVariable() throws {
    let loaded = EnvironmentConfiguration.load(
      from: [
        "BINDING_DIAGNOSTICS": "stderr:json,none",
        "BINDING_DIAGNOSTICS_PRIVACY": "hash",
        "BINDING_DIAGNOSTICS_HASH_KEY": "000102030405060708090a0b0c0d0e0f",
        "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
        "BINDING_DIAGNOSTICS_MIN_LEVEL": "warning",
        "BINDING_DIAGNOSTICS_POLICY": "assert",
      ], warn: false)
    #expect(loaded.warnings == [])
    let sink = try #require(loaded.configuration.sink as? StandardErrorSink)
    #expect(sink.format == .jsonLines)
    #expect(loaded.configuration.privacy == .hash(key: try #require(HashKey(bytes: Array(0..<16)))))
    #expect(loaded.configuration.rateLimit == nil)
    #expect(loaded.configuration.minimumLevel == .warning)
    #expect(loaded.configuration.policy == .assert)
  }

  @Test func noSinkNamedUsesThePlatformDefault() {
    let loaded = EnvironmentConfiguration.load(from: [:], warn: false)
    #expect(loaded.warnings.isEmpty)
    #if canImport(os)
      #expect(loaded.configuration.sink is OSLogSink)
      #expect(DiagnosticsConfiguration().sink is OSLogSink)
    #else
      #expect(loaded.configuration.sink is StandardErrorSink)
      #expect(DiagnosticsConfiguration().sink is StandardErrorSink)
    #endif
  }

  #if !canImport(os)
    @Test func oslogIsRefusedWhereThereIsNoUnifiedLog() {
      let loaded = EnvironmentConfiguration.load(
        from: ["BINDING_DIAGNOSTICS": "oslog"], warn: false)
      #expect(
        loaded.warnings == [
          "BINDING_DIAGNOSTICS: oslog: the unified log exists on Apple platforms only; using stderr"
        ])
      #expect(loaded.configuration.sink is StandardErrorSink)
    }
  #endif

  @Test func noneDiscards() {
    let loaded = EnvironmentConfiguration.load(from: ["BINDING_DIAGNOSTICS": "none"], warn: false)
    #expect(loaded.configuration.sink is DiscardingSink)
    #expect(loaded.configuration.sink.acceptsEvents == false)
  }

  @Test(arguments: [
    (
      ["BINDING_DIAGNOSTICS": "syslog"],
      #"BINDING_DIAGNOSTICS: unknown sink "syslog" (expected stderr, stderr:human, stderr:logfmt, stderr:json, jsonl:PATH, journald, oslog or none); using stderr"#
    ),
    (
      ["BINDING_DIAGNOSTICS": "jsonl:"],
      "BINDING_DIAGNOSTICS: jsonl needs a path (jsonl:PATH); using stderr"
    ),
    (
      ["BINDING_DIAGNOSTICS_PRIVACY": "secret"],
      #"BINDING_DIAGNOSTICS_PRIVACY: expected private, hash or public, got "secret"; using private"#
    ),
    (
      ["BINDING_DIAGNOSTICS_RATE_LIMIT": "fast"],
      #"BINDING_DIAGNOSTICS_RATE_LIMIT: expected off or BURST/SECONDS, got "fast"; using 10/1"#
    ),
    (
      ["BINDING_DIAGNOSTICS_MIN_LEVEL": "loud"],
      #"BINDING_DIAGNOSTICS_MIN_LEVEL: expected one of trace, debug, info, notice, warning, error, critical (or as journalctl: emerg, alert, crit, err, warn, 0-7), got "loud"; using trace"#
    ),
    (
      ["BINDING_DIAGNOSTICS_POLICY": "crash"],
      #"BINDING_DIAGNOSTICS_POLICY: expected automatic, report, assert, fail-tests or break, got "crash"; using automatic"#
    ),
    (
      ["BINDING_DIAGNOSTICS_HASH_KEY": "abc"],
      "BINDING_DIAGNOSTICS_HASH_KEY: expected 32 hex digits; using a random per-process key"
    ),
  ])
  func badValuesWarnOnceAndFallBack(environment: [String: String], warning: String) {
    let loaded = EnvironmentConfiguration.load(from: environment, warn: false)
    #expect(loaded.warnings == [warning])
    if environment["BINDING_DIAGNOSTICS"] != nil {
      #expect(loaded.configuration.sink is StandardErrorSink)
    }
  }

  @Test func fileIsReadAndEnvironmentOverridesIt() throws {
    let path = try temporaryFile(
      #"{"sinks":["stderr:json"],"privacy":"public","rate_limit":"5/2","min_level":"error","policy":"report"}"#
    )
    var loaded = EnvironmentConfiguration.load(
      from: ["BINDING_DIAGNOSTICS_CONFIG": path], warn: false)
    #expect(loaded.warnings == [])
    #expect((loaded.configuration.sink as? StandardErrorSink)?.format == .jsonLines)
    #expect(loaded.configuration.privacy == .public)
    #expect(loaded.configuration.rateLimit == RateLimit(burst: 5, interval: 2))
    #expect(loaded.configuration.minimumLevel == .error)

    loaded = EnvironmentConfiguration.load(
      from: [
        "BINDING_DIAGNOSTICS_CONFIG": path, "BINDING_DIAGNOSTICS_PRIVACY": "private",
        "BINDING_DIAGNOSTICS": "stderr:logfmt",
      ], warn: false)
    #expect(loaded.configuration.privacy == .private)
    #expect((loaded.configuration.sink as? StandardErrorSink)?.format == .logfmt)
  }

  @Test func brokenFilesNameTheFileAndKey() throws {
    let notJSON = try temporaryFile("{not json")
    #expect(
      EnvironmentConfiguration.load(from: ["BINDING_DIAGNOSTICS_CONFIG": notJSON], warn: false)
        .warnings == [
          "BINDING_DIAGNOSTICS_CONFIG=\(notJSON): not valid JSON at line 1, column 2; using defaults"
        ])

    let missing = "/nonexistent/binding.json"
    #expect(
      EnvironmentConfiguration.load(from: ["BINDING_DIAGNOSTICS_CONFIG": missing], warn: false)
        .warnings == ["BINDING_DIAGNOSTICS_CONFIG=\(missing): cannot read the file; using defaults"]
    )

    let badKeys = try temporaryFile(#"{"privacy":3,"colour":"red","sinks":[{"type":"kafka"}]}"#)
    let loaded = EnvironmentConfiguration.load(
      from: ["BINDING_DIAGNOSTICS_CONFIG": badKeys], warn: false)
    #expect(
      loaded.warnings == [
        "\(badKeys): key \"colour\": unknown key; ignored",
        "\(badKeys): key \"privacy\": expected a string; ignored",
        "\(badKeys): key \"sinks\"[0]: unknown sink \"kafka\" (expected stderr, stderr:human, stderr:logfmt, stderr:json, jsonl:PATH, journald, oslog or none); using stderr",
      ])
    #expect(loaded.configuration.sink is StandardErrorSink)
  }

  @Test func aHostileValueCannotForgeAWarningLine() throws {
    // One misuse makes the process configure itself: one warning line, then the event line
    // on the stderr fallback.
    let result = try runProduct(
      "misuse-helper", ["1"],
      environment: ["BINDING_DIAGNOSTICS": "x\nbinding-diagnostics: forged\u{1b}[2J"])
    #expect(result.status == 0)
    let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    // The warning, the record, the run's end, and the empty piece after the last newline.
    #expect(lines.count == 4)
    #expect(
      lines.first
        == #"binding-diagnostics: BINDING_DIAGNOSTICS: unknown sink "x\u000abinding-diagnostics: forged\u001b[2J" (expected stderr, stderr:human, stderr:logfmt, stderr:json, jsonl:PATH, journald, oslog or none); using stderr"#
    )
    #expect(lines.dropFirst().first?.hasPrefix("v=1 ts=") == true)
  }

  @Test func theShippedExampleConfigurationLoadsCleanly() throws {
    let example = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("config/binding-diagnostics.json").path
    let loaded = EnvironmentConfiguration.load(
      from: ["BINDING_DIAGNOSTICS_CONFIG": example, "BINDING_DIAGNOSTICS": "stderr"], warn: false)
    #expect(loaded.warnings == [])
  }
}
