import BindingDiagnostics
import Foundation
import Testing

/// The configuration's sink names, its parser's cases and its error texts come from
/// `SinkRegistry`: each row is accepted, listed, suggested and documented, or a test names it.
@Suite struct SinkRegistryTests {
  private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// How configuration writes `entry` with an argument filled in.
  private static func written(_ entry: SinkRegistry.Entry) -> String {
    entry.argument == nil ? entry.name : "\(entry.name):/var/log/app/bindings.jsonl"
  }

  private static func parse(_ sinks: String) -> (
    specification: ConfigurationSpecification, warnings: [String]
  ) {
    EnvironmentConfiguration.specification(
      environment: ["BINDING_DIAGNOSTICS": sinks], readFile: { _ in nil })
  }

  @Test(arguments: SinkRegistry.entries.map(\.name))
  func eachRowIsWhatTheParserAccepts(name: String) throws {
    let entry = try #require(SinkRegistry.entries.first { $0.name == name })
    let argument = entry.argument == nil ? "" : "/var/log/app/bindings.jsonl"
    let (specification, warnings) = Self.parse(Self.written(entry))
    if entry.platforms.includesThisPlatform {
      #expect(warnings == [])
      #expect(specification.sinks == [entry.factory(argument)])
    } else {
      #expect(warnings.count == 1)
      #expect(warnings.first?.hasPrefix("BINDING_DIAGNOSTICS: \(entry.name): ") == true)
      #expect(warnings.first?.hasSuffix("; using stderr") == true)
      #expect(specification.sinks == [.standardError(nil)])
    }
  }

  @Test(arguments: SinkRegistry.entries.map(\.name))
  func eachRowsSpecificationIsWrittenAsConfigurationWritesIt(name: String) throws {
    let entry = try #require(SinkRegistry.entries.first { $0.name == name })
    let specification = entry.factory(entry.argument == nil ? "" : "/var/log/app/bindings.jsonl")
    #expect(specification.description == Self.written(entry))
    if entry.platforms.includesThisPlatform {
      #expect(Self.parse(specification.description).specification.sinks == [specification])
    }
  }

  @Test func specificationsOfOneSinkDifferByTheirSettingsOnly() {
    var options = JSONLinesFileSink.Options()
    options.keep = 2
    let plain = SinkSpecification.jsonLines(path: "/a.jsonl", options: .init())
    #expect(plain != .jsonLines(path: "/a.jsonl", options: options))
    #expect(plain != .jsonLines(path: "/b.jsonl", options: .init()))
    #expect(plain == .jsonLines(path: "/a.jsonl", options: .init()))
    let specifications: [SinkSpecification] = [
      .standardError(nil), .standardError(.human), .standardError(nil), .journald, .journald,
      .osLog, .platformDefault, .none, .none,
    ]
    #expect(Set(specifications).count == 6)
    #expect(SinkSpecification.platformDefault.description == "default")
  }

  @Test func theUnknownSinkTextListsEveryRowInOrder() {
    let (_, warnings) = Self.parse("kafka")
    let usages = SinkRegistry.entries.map(\.usage)
    let expected = usages.dropLast().joined(separator: ", ") + " or " + usages.last!
    #expect(
      warnings == [
        "BINDING_DIAGNOSTICS: unknown sink \"kafka\" (expected \(expected)); using stderr"
      ])
    // The rows as the contract's users know them, spelled out once here.
    #expect(
      expected
        == "stderr, stderr:human, stderr:logfmt, stderr:json, jsonl:PATH, journald, oslog or none")
  }

  @Test(arguments: SinkRegistry.entries.map(\.name))
  func aTypoOfEachRowOfThisPlatformSuggestsIt(name: String) throws {
    let entry = try #require(SinkRegistry.entries.first { $0.name == name })
    // The last letter left out: one edit.
    let typo = String(entry.name.dropLast())
    let (_, warnings) = Self.parse(typo)
    let suggested = warnings.first?.contains("(did you mean \"\(entry.name)\"?)") == true
    #expect(suggested == entry.platforms.includesThisPlatform)
  }

  @Test func aRowTakingAnArgumentWithoutOneSaysWhatItNeeds() {
    for entry in SinkRegistry.entries where entry.argument != nil {
      let (_, warnings) = Self.parse(entry.name + ":")
      #expect(
        warnings == [
          "BINDING_DIAGNOSTICS: \(entry.name) needs a \(entry.argument!.lowercased()) (\(entry.usage)); using stderr"
        ])
    }
  }

  @Test(arguments: [
    "Sources/BindingDiagnostics/Configuration/EnvironmentConfiguration.swift", "config/README.md",
  ])
  func everyRowIsDocumented(path: String) throws {
    let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    for entry in SinkRegistry.entries {
      #expect(text.contains("`\(entry.usage)`"), "\(path) does not name \(entry.usage)")
    }
  }
}
