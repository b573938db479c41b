import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// A site is known by what it is, not by its line: edits above it change neither `check
/// --baseline` nor SARIF fingerprints.
@Suite struct BindiagSiteIdentityTests {
  /// The labelled site of the fixtures at `line`, and an unlabelled one in the same function.
  func events(line: Int, unlabelledLines: [Int] = [60], seq: Int = 1) -> [MisuseEvent] {
    var labelled = fixtureEvent(seq: seq, line: line)
    labelled.label = "save-alert"
    return [labelled]
      + unlabelledLines.enumerated().map {
        fixtureEvent(seq: seq + 1 + $0.offset, line: $0.element)
      }
  }

  func fingerprints(_ sarif: String) throws -> [String] {
    let log = try #require(
      try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
    let results = try #require(
      ((log["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
    return results.compactMap {
      ($0["partialFingerprints"] as? [String: String])?["bindiagSite/v2"]
    }.sorted()
  }

  @Test func aLineAddedAboveChangesNeitherTheBaselineNorTheFingerprints() throws {
    let before = try writeFixture(jsonLines(events(line: 42)))
    let after = try writeFixture(jsonLines(events(line: 43, unlabelledLines: [61])))
    let baseline = try temporaryDirectory() + "/baseline.json"
    #expect(try bindiag("check", "--write-baseline", baseline, before).status == 0)
    let result = try bindiag("check", "--format", "json", "--baseline", baseline, after)
    #expect(result.status == 0)
    #expect(
      result.stderr
        == "check passed: 0 events at warning and above at sites not in the baseline (--max-events 0), 0 lost records (--max-lost 0)\n"
    )
    let old = try fingerprints(try bindiag("summary", "--format", "sarif", before).stdout)
    let new = try fingerprints(try bindiag("summary", "--format", "sarif", after).stdout)
    #expect(old.count == 2)
    #expect(old == new)
  }

  @Test func aSecondUnlabelledSiteInTheSameFunctionIsNew() throws {
    let before = try writeFixture(jsonLines(events(line: 42)))
    let after = try writeFixture(jsonLines(events(line: 43, unlabelledLines: [61, 80])))
    let baseline = try temporaryDirectory() + "/baseline.json"
    #expect(try bindiag("check", "--write-baseline", baseline, before).status == 0)
    let result = try bindiag("check", "--format", "json", "--baseline", baseline, after)
    #expect(result.status == 3)
    #expect(
      result.stderr == """
        check failed: 1 new site not in the baseline, 1 event (--max-events 0)
          new: mapped-bool-set-true at App/ContentView.swift:80, 1 event

        """)
  }

  @Test func withASourceRootTheSourceLineTellsSitesApart() throws {
    let root = try temporaryDirectory()
    let file = root + "/Sources/App/ContentView.swift"
    try FileManager.default.createDirectory(
      atPath: root + "/Sources/App", withIntermediateDirectories: true)
    func source(_ lines: [Int: String]) throws {
      let text = (1...80).map { lines[$0] ?? "// \($0)" }.joined(separator: "\n")
      try text.write(toFile: file, atomically: true, encoding: .utf8)
    }
    try source([
      42: "  .alert(isPresented: $saved.mappedToBool(label: \"save-alert\"))",
      60: "$a.mappedToBool()",
    ])
    let baseline = root + "/baseline.json"
    let original = try writeFixture(jsonLines(events(line: 42)))
    let sarif = { (events: String) in
      try self.fingerprints(
        try bindiag("summary", "--format", "sarif", "--source-root", root, events).stdout)
    }
    let originalFingerprints = try sarif(original)
    let recorded = try bindiag(
      "check", "--source-root", root, "--write-baseline", baseline, original)
    #expect(recorded.status == 0)
    #expect(
      try String(contentsOfFile: baseline, encoding: .utf8).contains(#""line": 60, "source": ""#))
    // A line added above, re-indented: the same sites.
    try source([
      43: ".alert(isPresented: $saved.mappedToBool(label: \"save-alert\"))",
      61: "  $a.mappedToBool()",
    ])
    let moved = try writeFixture(jsonLines(events(line: 43, unlabelledLines: [61])))
    let same = try bindiag("check", "--source-root", root, "--baseline", baseline, moved)
    #expect(same.status == 0)
    #expect(try sarif(moved) == originalFingerprints)
    // The unlabelled mapping replaced by another at its line: a new site, a new fingerprint.
    try source([
      43: ".alert(isPresented: $saved.mappedToBool(label: \"save-alert\"))",
      61: "$b.mappedToBool()",
    ])
    let other = try bindiag("check", "--source-root", root, "--baseline", baseline, moved)
    #expect(other.status == 3)
    #expect(
      other.stderr.contains("  new: mapped-bool-set-true at App/ContentView.swift:61, 1 event\n"))
    let replaced = try sarif(moved)
    #expect(replaced.count == 2)
    #expect(replaced != originalFingerprints)
    #expect(Set(replaced).intersection(originalFingerprints).count == 1)
  }

  @Test func aBaselineThatIsNotARegularFileIsRefusedAtOnce() throws {
    let fifo = try temporaryDirectory() + "/baseline.fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    let events = try writeFixture(jsonLines(events(line: 42)))
    for path in [fifo, try temporaryDirectory()] {
      let result = try bindiag("check", "--format", "json", "--baseline", path, events)
      #expect(result.status == 1)
      #expect(
        result.stderr
          == "Error: cannot use baseline '\(path)': not a regular file (a baseline is a file --write-baseline wrote)\n"
      )
    }
  }
}
