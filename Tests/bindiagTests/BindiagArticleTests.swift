import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// The DocC articles show what the tool really prints, as ``BindiagReadmeTests`` holds the
/// README to it: each command an article quotes with its output is run, and each line it quotes
/// from the demo names a site the demo has.
@Suite struct BindiagArticleTests {
  static let articles = TriageDay.snapshots.deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/BindingDiagnostics/BindingDiagnostics.docc")

  static func article(_ name: String) throws -> String {
    try String(
      contentsOf: articles.appendingPathComponent(name + ".md"), encoding: .utf8)
  }

  /// BindiagOutputs shows the sample at 80 columns, as the README does.
  @Test func theOutputsArticleShowsTheTableATerminalShows() throws {
    let session = try TerminalSession(["summary", "--color=never", TriageDay.path], columns: 80)
    #expect(session.finish() == 0)
    let block =
      "```console\n$ bindiag summary Tests/bindiagTests/Snapshots/triage-day.jsonl\n"
      + session.text + "```\n"
    #expect(try Self.article("BindiagOutputs").contains(block), "it should show:\n\(block)")
  }

  /// Every `$ bindiag …` of BindiagCommandLine's console blocks that writes to no file prints
  /// on standard error the lines shown under it, over an `app.jsonl` with three warnings and an
  /// app's own kind.
  @Test func theCommandLineArticleQuotesWhatBindiagSays() throws {
    let twice = try #require(MisuseKind(code: "sheet-presented-twice", defaultLevel: .notice))
    let file = try writeFixture(
      jsonLines([
        fixtureEvent(seq: 1, kind: .unwrappedWriteAfterNil),
        fixtureEvent(seq: 2, kind: .setOffMainThread),
        fixtureEvent(seq: 3, kind: .writeNotApplied),
        fixtureEvent(seq: 4, kind: twice),
      ]), name: "app.jsonl")
    let text = try Self.article("BindiagCommandLine")
    var checked = 0
    for block in text.components(separatedBy: "```console\n").dropFirst() {
      let lines = block.components(separatedBy: "\n```")[0].split(
        separator: "\n", omittingEmptySubsequences: false)
      var index = 0
      while index < lines.count {
        let command = lines[index].dropFirst(2)
        index += 1
        var shown: [Substring] = []
        while index < lines.count, !lines[index].hasPrefix("$ ") {
          shown.append(lines[index])
          index += 1
        }
        guard command.hasPrefix("bindiag "), !command.contains(">"), !command.contains("|")
        else { continue }
        let arguments = command.split(separator: " ").dropFirst().map {
          $0 == "app.jsonl" ? file : String($0)
        }
        let result = try bindiag(arguments: arguments)
        let expected = shown.map { $0 + "\n" }.joined()
        #expect(result.stderr == expected, "\(command)")
        checked += 1
      }
    }
    #expect(checked == 5)
  }

  /// WritesThatGoWrong quotes the demo's records (`bindiag/DemoApp.swift:LINE: LEVEL: … [KIND,
  /// LABEL]`): each names a site, level and label of the demo's own events.
  @Test func writesThatGoWrongQuotesTheDemosSites() throws {
    let directory = try temporaryDirectory() + "/demo"
    let demo = try PrivateJournal.run(
      "bindiag", ["demo", "--dir", directory], environment: bindiagEnvironment)
    #expect(demo.status == 0, "\(demo.stderr)")
    let summary = try bindiag(
      "summary", "--format", "json", "--group-by", "kind,file,line,label",
      directory + "/events.jsonl")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any])
    let sites = Set(
      ((object["groups"] as? [[String: Any]]) ?? []).compactMap { group -> String? in
        guard let key = group["key"] as? [String: Any], let levels = group["levels"] as? [String: Int],
          let level = levels.first(where: { $0.value > 0 })?.key,
          let kind = key["kind"] as? String, let file = key["file"] as? String,
          let line = key["line"] as? Int, let label = key["label"] as? String
        else { return nil }
        return "\(file):\(line): \(level): [\(kind), \(label)]"
      })
    let quoted = try Self.article("WritesThatGoWrong").split(separator: "\n").filter {
      $0.hasPrefix("bindiag/DemoApp.swift:")
    }
    #expect(quoted.count == 3)
    for line in quoted {
      let parts = line.split(separator: ": ", maxSplits: 2)
      let tag = line[line.lastIndex(of: "[")!...]
      let site = "\(parts[0]): \(parts[1]): \(tag)"
      #expect(sites.contains(site), "\(line)\nthe demo's sites: \(sites.sorted())")
    }
  }
}
