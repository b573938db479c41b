import BindingDiagnostics
import BindingDiagnosticsReport
import Foundation
import Testing

@Suite struct SARIFRendererTests {
  /// Two sites: a built-in kind (11 events, labelled) and an application's own kind.
  func summary(offset: Int64 = 0, suppressed: Int = 10) -> Summary {
    var aggregator = Aggregator()
    var event = sampleEvent()
    event.timestamp.microsecondsSinceEpoch += offset
    event.suppressed = suppressed
    event.label = "save-alert"
    aggregator.add(event)
    event.seq += 1
    event.suppressed = 0
    event.kind = MisuseKind(code: "sheet-presented-twice", defaultLevel: .notice)!
    event.level = .notice
    event.file = "Feature/Sheet #1.swift"
    event.line = 0
    event.label = nil
    aggregator.add(event)
    return aggregator.summary()
  }

  func parse(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test func resultsCarryRuleLevelLocationCountsAndFingerprint() throws {
    let text = SARIFRenderer(
      toolVersion: "9.9.9", paths: ["App/ContentView.swift": "Sources/App/ContentView.swift"],
      sourceRoot: "/work/my repo"
    ).render(summary())
    let log = try parse(text)
    #expect(log["version"] as? String == "2.1.0")
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    let base = (run["originalUriBaseIds"] as? [String: [String: String]])?["%SRCROOT%"]
    #expect(base == ["uri": "file:///work/my%20repo/"])
    let results = try #require(run["results"] as? [[String: Any]])
    #expect(results.count == 2)
    let first = results[0]
    #expect(first["ruleId"] as? String == "mapped-bool-set-true")
    #expect(first["level"] as? String == "error")
    #expect(first["occurrenceCount"] as? Int == 11)
    #expect(
      (first["message"] as? [String: String])?["text"]
        == "A Binding<Bool> mapped from an optional was set to true: 11 events in 1 record, "
        + "first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC, label \"save-alert\"."
    )
    let location = try #require(
      ((first["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
    #expect(
      location["artifactLocation"] as? [String: String]
        == ["uri": "Sources/App/ContentView.swift", "uriBaseId": "%SRCROOT%"])
    #expect(location["region"] as? [String: Int] == ["startLine": 42])
    #expect(
      first["partialFingerprints"] as? [String: String]
        == [
          "bindiagSite/v2": SiteIdentity(
            kind: "mapped-bool-set-true", file: "App/ContentView.swift", function: "body",
            label: "save-alert"
          ).fingerprint(source: nil)
        ])
    // The unresolved file keeps its file ID, percent-encoded; line 0 has no region.
    let second = results[1]
    #expect(second["level"] as? String == "note")
    let secondLocation = try #require(
      ((second["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
    #expect(
      secondLocation["artifactLocation"] as? [String: String]
        == ["uri": "Feature/Sheet%20%231.swift", "uriBaseId": "%SRCROOT%"])
    #expect(secondLocation["region"] == nil)
    #expect(
      (second["message"] as? [String: String])?["text"]?.hasPrefix(
        "Misuse of kind sheet-presented-twice: 1 event in 1 record") == true)
  }

  @Test func rulesTakeTheirHelpFromTheCatalog() throws {
    let run = try #require(
      (try parse(SARIFRenderer(toolVersion: "1").render(summary()))["runs"]
        as? [[String: Any]])?.first)
    let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
    let rules = try #require(driver["rules"] as? [[String: Any]])
    #expect(rules.map { $0["id"] as? String } == ["mapped-bool-set-true", "sheet-presented-twice"])
    let entry = try #require(MessageCatalog.entry(for: "mapped-bool-set-true"))
    let help = try #require(rules[0]["help"] as? [String: String])
    #expect(help["text"] == entry.paragraphs.joined(separator: "\n\n"))
    #expect(
      help["text"]?.contains("use mappedToBool(default:) so that true stores a default") == true)
    #expect(help["text"]?.contains("@") == false)
    #expect(
      (rules[0]["shortDescription"] as? [String: String])?["text"]
        == "A Binding<Bool> mapped from an optional was set to true")
    #expect(
      (rules[0]["defaultConfiguration"] as? [String: String]) == ["level": "error"])
    let results = try #require(run["results"] as? [[String: Any]])
    #expect(results.map { $0["ruleIndex"] as? Int } == [0, 1])
  }

  @Test func invocationCarriesLostAndMalformedCounts() throws {
    var aggregator = Aggregator()
    var event = sampleEvent()
    event.seq = 1
    aggregator.add(event)
    event.seq = 4  // 2 and 3 are lost
    aggregator.add(event)
    aggregator.add(.malformed("bad"))
    aggregator.add(.other)
    let log = try parse(
      SARIFRenderer(toolVersion: "1", executionSuccessful: false).render(aggregator.summary()))
    let run = try #require((log["runs"] as? [[String: Any]])?.first)
    let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
    #expect(invocation["executionSuccessful"] as? Bool == false)
    #expect(
      invocation["properties"] as? [String: Int]
        == ["events": 2, "records": 2, "lost": 2, "duplicates": 0, "malformed": 1, "other": 1])
  }

  @Test func fingerprintsAreTheSameAcrossRuns() throws {
    func fingerprints(_ summary: Summary) throws -> [String] {
      let run = try #require(
        (try parse(SARIFRenderer(toolVersion: "1").render(summary))["runs"] as? [[String: Any]])?
          .first)
      return try #require(run["results"] as? [[String: Any]]).compactMap {
        ($0["partialFingerprints"] as? [String: String])?["bindiagSite/v2"]
      }
    }
    let monday = try fingerprints(summary())
    let tuesday = try fingerprints(summary(offset: 86_400_000_000, suppressed: 3))
    #expect(monday.count == 2)
    #expect(monday == tuesday)
  }

  @Test(arguments: [
    ("Sources/App/ContentView.swift", "Sources/App/ContentView.swift"),
    ("My App/Sheet #1.swift", "My%20App/Sheet%20%231.swift"),
    ("a:b/c?d=100%", "a%3Ab/c%3Fd%3D100%25"),
    ("Vüe.swift", "V%C3%BCe.swift"),
  ])
  func pathsArePercentEncoded(path: String, uri: String) throws {
    var aggregator = Aggregator()
    var event = sampleEvent()
    event.file = "App/X.swift"
    aggregator.add(event)
    let text = SARIFRenderer(toolVersion: "1", paths: ["App/X.swift": path]).render(
      aggregator.summary())
    #expect(text.contains(#""uri": "\#(uri)","#))
  }

  @Test func theLogIsIndentedJSON() {
    var aggregator = Aggregator()
    aggregator.add(sampleEvent())
    let lines = SARIFRenderer(toolVersion: "1").render(aggregator.summary())
      .components(separatedBy: "\n")
    #expect(
      Array(lines.prefix(4)) == [
        "{",
        #"  "$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json","#,
        #"  "version": "2.1.0","#,
        #"  "runs": ["#,
      ])
    #expect(lines.suffix(3) == ["  ]", "}", ""])
  }
}
