import Foundation
import TestSupport
import Testing

/// The blame fixtures run as a real test process: each issue sits at the line that wrote, in the
/// test that ran, once per site per test; standard error stays short; the records name the test.
@Suite struct BlameProcessTests {
  private let sentence =
    "A Binding<Bool> mapped from an optional was set to true; the write had no effect."

  /// The text of an issue for the inbox model's flag.
  private func inboxMisuse(writer: String, count: Int? = nil) throws -> String {
    let mapping = try FixtureRun.line(of: "inbox-mapping", in: "InboxModel.swift")
    let counted = count.map { ", \($0) misuses" } ?? ""
    return
      "↳ Binding misuse mapped-bool-set-true at BindingDiagnosticsTestingFixtures/InboxModel.swift:\(mapping), written at \(writer), label \"inbox-alert\", String?\(counted): \(sentence)"
  }

  private var inboxWriter: String {
    get throws {
      "BindingDiagnosticsTestingFixtures/InboxModel.swift:"
        + String(try FixtureRun.line(of: "inbox-writer", in: "InboxModel.swift"))
    }
  }

  /// Records as `test label`, in file order.
  private func records(_ text: String) -> [String] {
    text.split(separator: "\n").map { line -> String in
      let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
      return "\(object?["test"] as? String ?? "-") \(object?["label"] as? String ?? "-")"
    }
  }

  @Test func anIssueSitsAtTheWriterOncePerSitePerTestWithOrWithoutTheTrait() throws {
    let output = try FixtureRun.blame.get().output
    let writer = try FixtureRun.line(of: "inbox-writer", in: "InboxModel.swift")
    let at = "✘ at InboxModel.swift:\(writer):1"
    let mapping = try FixtureRun.line(of: "inbox-mapping", in: "InboxModel.swift")
    #expect(output.issues(of: "modelMethod()") == [at, try inboxMisuse(writer: inboxWriter)])
    #expect(
      output.issues(of: "modelMethodWithTheTrait()") == [
        at, try inboxMisuse(writer: inboxWriter), "⚠︎ at InboxModel.swift:\(writer):1",
        "↳ Binding misuses counted: mapped-bool-set-true at BindingDiagnosticsTestingFixtures/InboxModel.swift:\(mapping), written at \(try inboxWriter): 5 misuses",
      ])
    // 20 000 misuses of one site: one issue.
    #expect(
      output.issues(of: "twentyThousandMisuses()") == [at, try inboxMisuse(writer: inboxWriter)])
    #expect(output.issues(of: "childTask()") == [at, try inboxMisuse(writer: inboxWriter)])
    let body = try FixtureRun.line(of: "blame-body", in: "BlameFixtures.swift")
    #expect(
      output.issues(of: "testBody()") == [
        "✘ at BlameFixtures.swift:\(body):1",
        try inboxMisuse(writer: "BindingDiagnosticsTestingFixtures/BlameFixtures.swift:\(body)"),
      ])
  }

  /// A detached task and a `DispatchQueue` carry no test: their misuses fail nothing and reach
  /// the sinks naming no test. A misuse after its test ended fails no other test: it reaches the
  /// sinks naming the test it came from.
  @Test func theRightTestOrNone() throws {
    let (text, output) = try FixtureRun.blame.get()
    for test in [
      "detachedTask()", "dispatchQueue()", "lateTaskWithTheTrait()",
      "waitsWhileTheLateTaskMisuses()",
    ] {
      #expect(output.issues(of: test) == [])
      #expect(output.lines.contains { $0.hasPrefix("✔ Test \(test) passed after ") })
    }
    let all = records(text)
    #expect(all.filter { $0.hasPrefix("- ") } == ["- inbox-alert", "- inbox-alert"])
    #expect(all.filter { $0.hasSuffix(" late-trait") } == ["BlameFixtures/lateTaskWithTheTrait() late-trait"])
  }

  /// Two cases of a parameterised test are two tests in the records; 20 000 misuses are
  /// 20 000 records of their test.
  @Test func recordsNameTheTestAndItsArguments() throws {
    let all = records(try FixtureRun.blame.get().records)
    #expect(all.filter { $0.hasPrefix("BlameFixtures/tapping(") }.sorted() == [
      "BlameFixtures/tapping(times: 1) inbox-alert", "BlameFixtures/tapping(times: 3) inbox-alert",
      "BlameFixtures/tapping(times: 3) inbox-alert", "BlameFixtures/tapping(times: 3) inbox-alert",
    ])
    #expect(all.filter { $0 == "BlameFixtures/twentyThousandMisuses() inbox-alert" }.count == 20_000)
  }

  /// `swift test`'s output holds no logfmt record: misuses shown as issues are not printed
  /// again, the others are one short line naming the writer.
  @Test func standardErrorIsShortLinesForWhatNoIssueShows() throws {
    let output = try FixtureRun.blame.get().output
    let mapping = try FixtureRun.line(of: "inbox-mapping", in: "InboxModel.swift")
    let labelled = try FixtureRun.line(of: "views-labelled", in: "FixtureViews.swift")
    let views = "BindingDiagnosticsTestingFixtures/FixtureViews.swift:\(labelled)"
    let short =
      "BindingDiagnosticsTestingFixtures/InboxModel.swift:\(mapping): error: a Binding<Bool> mapped from String? was set to true; no effect [mapped-bool-set-true, inbox-alert] written at \(try inboxWriter)"
    #expect(!output.stderr.contains("v=1 "))
    #expect(
      output.stderr.split(separator: "\n").map(String.init).filter { $0.contains(": error: a ") }
        == [
        short, short,
        "\(views): error: a Binding<Bool> mapped from Int? was set to true; no effect [mapped-bool-set-true, late-trait] written at \(views)",
      ])
  }

  /// XCTest: at the writer's file and line (the process's first misuse too, never
  /// `<unknown>:0`), once per site with a warning line counting the rest; an `async` test's body
  /// is its test's; a misuse a test scheduled on a queue fails no later test.
  @Test func xcTestFailsAtTheWriterAndNeverANeighbour() throws {
    let (text, output) = try FixtureRun.xcTestBlame.get()
    let inbox = FixtureRun.directory + "/InboxModel.swift"
    let writer = try FixtureRun.line(of: "inbox-writer", in: "InboxModel.swift")
    let blame = FixtureRun.directory + "/XCTestBlameFixtures.swift"
    let async = try FixtureRun.line(of: "xctest-blame-async", in: "XCTestBlameFixtures.swift")
    let misuse = try inboxMisuse(writer: inboxWriter).dropFirst(2)
    let asyncMisuse = try inboxMisuse(
      writer: "BindingDiagnosticsTestingFixtures/XCTestBlameFixtures.swift:\(async)"
    ).dropFirst(2)
    let counted = try inboxMisuse(writer: inboxWriter, count: 5).dropFirst(2)
    #expect(
      output.lines.filter {
        $0.contains(": error: XCTestBlame") || $0.contains(": warning: XCTestBlame")
      } == [
        "\(inbox):\(writer): error: XCTestBlameFixtures.testX1ModelMethod : failed - \(misuse)",
        "\(inbox):\(writer): warning: XCTestBlameFixtures.testX1ModelMethod : \(counted)",
        "\(blame):\(async): error: XCTestBlameFixtures.testX2AsyncBody : \(asyncMisuse)",
      ])
    for test in ["testX3SchedulesALateMisuse", "testX4Waits"] {
      #expect(
        output.lines.contains { $0.hasPrefix("Test Case 'XCTestBlameFixtures.\(test)' passed ") })
    }
    #expect(output.lines.contains { $0.contains("Executed 4 tests, with 2 failures") })
    #expect(!output.stderr.contains("v=1 "))
    #expect(output.stderr.contains(", x3-late] written at "))
    #expect(
      records(text).sorted() == [
        "- x3-late",
        "XCTestBlameFixtures.testX1ModelMethod inbox-alert",
        "XCTestBlameFixtures.testX1ModelMethod inbox-alert",
        "XCTestBlameFixtures.testX1ModelMethod inbox-alert",
        "XCTestBlameFixtures.testX1ModelMethod inbox-alert",
        "XCTestBlameFixtures.testX1ModelMethod inbox-alert",
        "XCTestBlameFixtures.testX2AsyncBody inbox-alert",
      ])
  }
}
