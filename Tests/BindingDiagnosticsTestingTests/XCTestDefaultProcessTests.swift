import Foundation
import TestSupport
import Testing

/// The XCTest fixtures without assertions run as a real test process: the default policy fails a
/// test at a misuse, with the same text as Swift Testing's, and `report` turns that off.
@Suite struct XCTestDefaultProcessTests {
  private let setTrue =
    "Int?: A Binding<Bool> mapped from an optional was set to true; the write had no effect."

  @Test func aMisuseFailsTheRunningXCTestTestWithoutAnAssertion() throws {
    let output = try FixtureRun.xcTestDefault.get()
    let line = try FixtureRun.line(of: "views-labelled", in: "FixtureViews.swift")
    let site = "BindingDiagnosticsTestingFixtures/FixtureViews.swift:\(line)"
    let path = FixtureRun.directory + "/FixtureViews.swift"
    let misuse = "Binding misuse mapped-bool-set-true at \(site), written at \(site)"
    let failures = output.lines.filter { $0.contains(": error: XCTestDefaultFixtures.") }
    // The process's first misuse, before the library saw a test start, at the writer too.
    #expect(
      failures == [
        "\(path):\(line): error: XCTestDefaultFixtures.testFirstMisuseOfTheProcess : failed - \(misuse), label \"xctest-first\", \(setTrue)",
        "\(path):\(line): error: XCTestDefaultFixtures.testMisuseWithoutAssertion : \(misuse), label \"xctest-default\", \(setTrue)",
      ])
    for test in ["testFirstMisuseOfTheProcess", "testMisuseWithoutAssertion"] {
      #expect(
        output.lines.contains { $0.hasPrefix("Test Case 'XCTestDefaultFixtures.\(test)' failed ") })
    }
    // A `Thread` may run work an earlier test left: its misuse fails nothing.
    for test in ["testNoMisuse", "testMisuseOnAThread"] {
      #expect(
        output.lines.contains {
          $0.hasPrefix("Test Case 'XCTestDefaultFixtures.\(test)' passed ")
        })
    }
    #expect(output.status == 1)
    // Shown as failures, or else as one short line on standard error; never logfmt.
    #expect(!output.stderr.contains("v=1 "))
    for label in ["xctest-thread", "xctest-after"] {
      #expect(output.stderr.contains(", \(label)] written at \(site)\n"))
    }
    for label in ["xctest-first", "xctest-default"] {
      #expect(!output.stderr.contains(label))
    }
    #expect(output.lines.contains { $0.contains("Executed 5 tests, with 2 failures") })
  }

  @Test func aLabelCannotForgeALineOfTheTestOutput() throws {
    // The label holds a newline and a failure line as XCTest prints it: the failure and the
    // count line name it on their own line, its newline escaped.
    let output = try FixtureRun.xcTestHostileLabel.get()
    #expect(!output.lines.contains { $0.hasPrefix("/src/Forged.swift") })
    #expect(!output.lines.contains { $0.contains("ForgedTests") && !$0.contains("row\\u000a") })
    let named = output.lines.filter {
      $0.contains("XCTestHostileLabelFixtures.testHostileLabel : ")
        && $0.contains(#"label "row\u000a/src/Forged.swift:1: error: ForgedTests.testForged : failed - forged""#)
    }
    #expect(named.count == 2)
    #expect(output.lines.contains { $0.contains("Executed 1 test, with 1 failure") })
  }

  @Test func aReadAfterNilInAnXCTestTestIsAWarningLineAndPasses() throws {
    let output = try FixtureRun.xcTestDefault.get()
    let line = try FixtureRun.line(of: "views-read", in: "FixtureViews.swift")
    let reader = try FixtureRun.line(of: "views-read-reader", in: "FixtureViews.swift")
    let site = "BindingDiagnosticsTestingFixtures/FixtureViews.swift:\(line)"
    let path = FixtureRun.directory + "/FixtureViews.swift"
    let warnings = output.lines.filter { $0.contains(": warning: XCTestDefaultFixtures.") }
    #expect(
      warnings == [
        "\(path):\(reader): warning: XCTestDefaultFixtures.testReadAfterNil : Binding misuse unwrapped-read-after-nil at \(site), written at BindingDiagnosticsTestingFixtures/FixtureViews.swift:\(reader), label \"peek\", String?: A binding unwrapped from an optional was read after it became nil; the last value was returned."
      ])
    #expect(
      output.lines.contains {
        $0.hasPrefix("Test Case 'XCTestDefaultFixtures.testReadAfterNil' passed ")
      })
  }

  /// A record names the XCTest test that was running, the process's first misuse's too (the
  /// reporter learns it from that misuse's failure); one after the class's tests names none.
  @Test func recordsNameTheRunningXCTestTest() throws {
    let text = try FixtureRun.xcTestDefaultRecords.get()
    let records = text.split(separator: "\n").map { line -> String in
      let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
      return "\(object?["label"] as? String ?? "?") \(object?["test"] as? String ?? "-")"
    }
    // Records of different threads may reach the file out of order (the sink queues by thread).
    #expect(
      records.sorted() == [
        "peek XCTestDefaultFixtures.testReadAfterNil",
        "xctest-after -",
        "xctest-default XCTestDefaultFixtures.testMisuseWithoutAssertion",
        "xctest-first XCTestDefaultFixtures.testFirstMisuseOfTheProcess",
        "xctest-thread -",
      ])
  }

  @Test func theReportPolicyTurnsXCTestFailuresOff() throws {
    let output = try FixtureRun.xcTestDefaultReportOnly.get()
    #expect(output.status == 0)
    #expect(
      !output.lines.contains {
        $0.contains(": error: XCTestDefaultFixtures.") || $0.contains(": warning: XCTestDefault")
      })
    #expect(output.lines.contains { $0.contains("Executed 5 tests, with 0 failures") })
    #expect(output.stderr.contains(", xctest-default] written at "))
  }
}
