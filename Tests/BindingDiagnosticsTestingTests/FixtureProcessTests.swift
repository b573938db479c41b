import Foundation
import TestSupport
import Testing

/// The fixtures run as a real test process: what its runner prints names the failing tests and
/// the mappings' `file:line`, and only those.
@Suite struct FixtureProcessTests {
  private let alert =
    "Binding misuse mapped-bool-set-true at BindingDiagnosticsTestingFixtures/FixtureViews.swift:"
  private let setTrue =
    "Int?: A Binding<Bool> mapped from an optional was set to true; the write had no effect."

  /// `, written at BindingDiagnosticsTestingFixtures/FixtureViews.swift:LINE` for a mark.
  private func writtenAt(_ mark: String, in file: String = "FixtureViews.swift") throws -> String {
    ", written at BindingDiagnosticsTestingFixtures/\(file):\(try FixtureRun.line(of: mark, in: file))"
  }

  @Test func traitFailsTheTestOnceAtTheWriterAndWarnsWithTheCount() throws {
    let output = try FixtureRun.swiftTesting.get()
    let line = try FixtureRun.line(of: "views-alert", in: "FixtureViews.swift")
    let writer = try FixtureRun.line(of: "views-alert-writer", in: "FixtureViews.swift")
    let sentence =
      "A Binding<Bool> mapped from an optional was set to true; the write had no effect."
    #expect(output.status == 1)
    #expect(
      output.issues(of: "alertTappedThreeTimes()") == [
        "✘ at FixtureViews.swift:\(writer):1",
        "↳ \(alert)\(line)\(try writtenAt("views-alert-writer")), label \"save-alert\", String?: \(sentence)",
        "⚠︎ at FixtureViews.swift:\(writer):1",
        "↳ Binding misuses counted: mapped-bool-set-true at BindingDiagnosticsTestingFixtures/FixtureViews.swift:\(line)\(try writtenAt("views-alert-writer")): 3 misuses",
      ])
    #expect(
      output.lines.contains {
        $0.hasPrefix("✘ Test alertTappedThreeTimes() failed after ")
          && $0.hasSuffix(" with 2 issues (including 1 warning).")
      })
    #expect(output.lines.contains { $0.hasPrefix("✔ Test fixedPattern() passed after ") })
  }

  @Test func parallelCasesFailOnlyForTheirOwnMisuses() throws {
    let output = try FixtureRun.swiftTesting.get()
    let line = try FixtureRun.line(of: "views-labelled", in: "FixtureViews.swift")
    var expected: [String] = []
    for n in [1, 3, 5, 7] {
      expected += [
        "✘ Test parallelCases(n:) recorded an issue with 1 argument n → \(n) at FixtureViews.swift:\(line):1: Issue recorded"
      ]
    }
    let actual = output.lines.filter {
      $0.hasPrefix("✘ Test parallelCases(n:) recorded an issue")
    }
    #expect(actual.sorted() == expected.sorted())
    #expect(
      output.lines.contains {
        $0.hasPrefix("✘ Test parallelCases(n:) with 8 test cases failed after ")
          && $0.hasSuffix(" with 4 issues.")
      })
  }

  @Test func childTasksAndAllowedKinds() throws {
    let output = try FixtureRun.swiftTesting.get()
    let labelled = try FixtureRun.line(of: "views-labelled", in: "FixtureViews.swift")
    let detail = try FixtureRun.line(of: "views-detail", in: "FixtureViews.swift")
    #expect(
      output.issues(of: "childTask()") == [
        "✘ at FixtureViews.swift:\(labelled):1",
        "↳ \(alert)\(labelled)\(try writtenAt("views-labelled")), label \"child-task\", \(setTrue)",
      ])
    let writer = try FixtureRun.line(of: "views-detail-writer", in: "FixtureViews.swift")
    #expect(
      output.issues(of: "detailDismissed()") == [
        "✘ at FixtureViews.swift:\(writer):1",
        "↳ Binding misuse unwrapped-write-after-nil at BindingDiagnosticsTestingFixtures/FixtureViews.swift:\(detail)\(try writtenAt("views-detail-writer")), label \"detail\", String?: A binding unwrapped from an optional was written after it became nil; the write was dropped.",
      ])
  }

  @Test func dispatchQueueAndThreadMisusesGoToTheProcessPipelineUnlessCaptured() throws {
    let output = try FixtureRun.swiftTesting.get()
    let labelled = try FixtureRun.line(of: "views-labelled", in: "FixtureViews.swift")
    let alertLine = try FixtureRun.line(of: "views-alert", in: "FixtureViews.swift")
    #expect(
      output.lines.contains {
        $0.hasPrefix("✔ Test dispatchQueueAndThreadGoToTheProcess() passed after ")
      })
    // A test process's standard error gets the short line, never a logfmt record.
    #expect(!output.stderr.contains("v=1 "))
    for label in ["dispatch-queue", "thread"] {
      let lines = output.stderr.split(separator: "\n").filter { $0.contains(", \(label)]") }
      #expect(
        lines == [
          "BindingDiagnosticsTestingFixtures/FixtureViews.swift:\(labelled): error: a Binding<Bool> mapped from Int? was set to true; no effect [mapped-bool-set-true, \(label)]\(try writtenAt("views-labelled").replacing(", written at", with: " written at"))"
        ])
    }
    let writer = try FixtureRun.line(of: "views-alert-writer", in: "FixtureViews.swift")
    #expect(
      output.issues(of: "dispatchQueueCapturedWithDiagnostics()") == [
        "✘ at FixtureViews.swift:\(writer):1",
        "↳ \(alert)\(alertLine)\(try writtenAt("views-alert-writer")), label \"save-alert\", String?, 2 misuses: A Binding<Bool> mapped from an optional was set to true; the write had no effect.",
      ])
  }

  @Test func expectMisuseFailsAtItsCaller() throws {
    let output = try FixtureRun.swiftTesting.get()
    let line = try FixtureRun.line(of: "expect-miscounted", in: "TraitFixtures.swift")
    let found = output.issues(of: "expectationMiscounted()")
    #expect(found.count == 2)
    #expect(found.first?.hasPrefix("✘ at TraitFixtures.swift:\(line):") == true)
    #expect(found.last == "↳ Expected 2 misuses of kind mapped-bool-set-true, got 1")
  }

  @Test func aMisuseFailsATestWithoutTheTraitAndIsStillReported() throws {
    let output = try FixtureRun.swiftTesting.get()
    let line = try FixtureRun.line(of: "views-labelled", in: "FixtureViews.swift")
    #expect(
      output.issues(of: "withoutTheTrait()") == [
        "✘ at FixtureViews.swift:\(line):1",
        "↳ \(alert)\(line)\(try writtenAt("views-labelled")), label \"no-trait\", \(setTrue)",
      ])
    #expect(
      output.lines.contains {
        $0.hasPrefix("✘ Test withoutTheTrait() failed after ") && $0.hasSuffix(" with 1 issue.")
      })
    // Shown once, as the issue: standard error does not repeat it.
    #expect(!output.stderr.contains("no-trait] written at"))
  }

  @Test func aReadAfterNilWithoutTheTraitIsAWarning() throws {
    let output = try FixtureRun.swiftTesting.get()
    let line = try FixtureRun.line(of: "views-read", in: "FixtureViews.swift")
    let reader = try FixtureRun.line(of: "views-read-reader", in: "FixtureViews.swift")
    #expect(
      output.issues(of: "readAfterNilWithoutTheTrait()") == [
        "⚠︎ at FixtureViews.swift:\(reader):1",
        "↳ Binding misuse unwrapped-read-after-nil at BindingDiagnosticsTestingFixtures/FixtureViews.swift:\(line)\(try writtenAt("views-read-reader")), label \"peek\", String?: A binding unwrapped from an optional was read after it became nil; the last value was returned.",
      ])
    #expect(
      output.lines.contains {
        $0.hasPrefix("✔ Test readAfterNilWithoutTheTrait() passed after ")
          && $0.hasSuffix(" with 1 warning.")
      })
  }

  @Test func theReportPolicyTurnsTestFailuresOff() throws {
    let output = try FixtureRun.reportOnly.get()
    #expect(output.status == 0)
    #expect(output.issues(of: "withoutTheTrait()") == [])
    #expect(output.issues(of: "readAfterNilWithoutTheTrait()") == [])
    #expect(output.lines.contains { $0.hasPrefix("✔ Test withoutTheTrait() passed after ") })
    #expect(output.stderr.contains(", no-trait]"))
  }

  @Test func theFailTestsPolicyFailsEveryKind() throws {
    let output = try FixtureRun.failTests.get()
    let line = try FixtureRun.line(of: "views-read", in: "FixtureViews.swift")
    let reader = try FixtureRun.line(of: "views-read-reader", in: "FixtureViews.swift")
    #expect(output.status == 1)
    #expect(
      output.issues(of: "readAfterNilWithoutTheTrait()") == [
        "✘ at FixtureViews.swift:\(reader):1",
        "↳ Binding misuse unwrapped-read-after-nil at BindingDiagnosticsTestingFixtures/FixtureViews.swift:\(line)\(try writtenAt("views-read-reader")), label \"peek\", String?: A binding unwrapped from an optional was read after it became nil; the last value was returned.",
      ])
  }

  /// Every misuse the tests caught reaches the process's sinks, naming its test; a `DispatchQueue`
  /// or `Thread` runs no test, and `reportsToProcessSinks: false` keeps a test's misuses in it.
  @Test func caughtMisusesAreAlsoWrittenToTheProcessSinksWithTheirTest() throws {
    let (text, output) = try FixtureRun.withFileSink.get()
    #expect(output.status == 1)
    let alert = try FixtureRun.line(of: "views-alert", in: "FixtureViews.swift")
    let labelled = try FixtureRun.line(of: "views-labelled", in: "FixtureViews.swift")
    let detail = try FixtureRun.line(of: "views-detail", in: "FixtureViews.swift")
    let read = try FixtureRun.line(of: "views-read", in: "FixtureViews.swift")
    let records = text.split(separator: "\n").map { line -> String in
      let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
      let test = object?["test"] as? String ?? "-"
      let label = object?["label"] as? String ?? "-"
      let site = "\(object?["kind"] as? String ?? "?"):\(object?["line"] as? Int ?? 0)"
      return "\(test) \(label) \(site)"
    }
    let set = "mapped-bool-set-true"
    var expected = [
      "TraitFixtures/alertTappedThreeTimes() save-alert \(set):\(alert)",
      "TraitFixtures/alertTappedThreeTimes() save-alert \(set):\(alert)",
      "TraitFixtures/alertTappedThreeTimes() save-alert \(set):\(alert)",
      "TraitFixtures/detailDismissed() detail unwrapped-read-after-nil:\(detail)",
      "TraitFixtures/detailDismissed() detail unwrapped-read-after-nil:\(detail)",
      "TraitFixtures/detailDismissed() detail unwrapped-write-after-nil:\(detail)",
      "TraitFixtures/childTask() child-task \(set):\(labelled)",
      "- dispatch-queue \(set):\(labelled)",
      "- thread \(set):\(labelled)",
      "TraitFixtures/dispatchQueueCapturedWithDiagnostics() save-alert \(set):\(alert)",
      "TraitFixtures/dispatchQueueCapturedWithDiagnostics() save-alert \(set):\(alert)",
      "TraitFixtures/withoutTheTrait() no-trait \(set):\(labelled)",
      "TraitFixtures/readAfterNilWithoutTheTrait() peek unwrapped-read-after-nil:\(read)",
    ]
    for n in [1, 3, 5, 7] {
      expected.append("TraitFixtures/parallelCases(n: \(n)) case-\(n) \(set):\(labelled)")
    }
    #expect(records.sorted() == expected.sorted())
  }

  @Test func xcTestAssertionsFailAtTheWriter() throws {
    let output = try FixtureRun.xcTest.get()
    let path = FixtureRun.directory + "/XCTestFixtures.swift"
    let here = try FixtureRun.line(of: "xctest-here", in: "XCTestFixtures.swift")
    let caller = try FixtureRun.line(of: "xctest-caller", in: "XCTestFixtures.swift")
    let missing = try FixtureRun.line(of: "xctest-missing", in: "XCTestFixtures.swift")
    let async = try FixtureRun.line(of: "xctest-async", in: "XCTestFixtures.swift")
    let viewsAlert = try FixtureRun.line(of: "views-alert", in: "FixtureViews.swift")
    let labelled = try FixtureRun.line(of: "views-labelled", in: "FixtureViews.swift")
    let sentence =
      "A Binding<Bool> mapped from an optional was set to true; the write had no effect."
    let views = FixtureRun.directory + "/FixtureViews.swift"
    let viewsWriter = try FixtureRun.line(of: "views-alert-writer", in: "FixtureViews.swift")
    let failures = output.lines.filter { $0.contains(": error: XCTestFixtures.") }
    _ = (async, caller)
    #expect(
      failures.sorted()
        == [
          "\(views):\(labelled): error: XCTestFixtures.testAsyncExpression : failed - \(alert)\(labelled)\(try writtenAt("views-labelled")), label \"xctest-async\", Int?, 1 misuse: \(sentence)",
          "\(views):\(viewsWriter): error: XCTestFixtures.testMappingInAnotherFile : failed - \(alert)\(viewsAlert)\(try writtenAt("views-alert-writer")), label \"save-alert\", String?, 1 misuse: \(sentence)",
          "\(path):\(here + 1): error: XCTestFixtures.testMappingInThisFile : failed - Binding misuse mapped-bool-set-true at BindingDiagnosticsTestingFixtures/XCTestFixtures.swift:\(here), written at BindingDiagnosticsTestingFixtures/XCTestFixtures.swift:\(here + 1), label \"xctest-here\", String?, 2 misuses: \(sentence)",
          "\(path):\(missing): error: XCTestFixtures.testExpectedMisuseMissing : failed - Expected a misuse of kind unwrapped-write-after-nil, got none",
        ].sorted())
    #expect(
      output.lines.contains { $0.hasPrefix("Test Case 'XCTestFixtures.testNoMisuse' passed ") })
    #expect(
      output.lines.contains {
        $0.hasPrefix("Test Case 'XCTestFixtures.testExpectedMisuse' passed ")
      })
    #expect(output.status == 1)
  }

  /// A record the rate limit folded is written when the process ends and names its test: the
  /// limit folds each test's misuses of a site apart, with or without the trait.
  @Test func foldedRecordsNameTheirTest() throws {
    let text = try FixtureRun.foldedRecords.get()
    let records = text.split(separator: "\n").map { line -> String in
      let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
      let test = object?["test"] as? String ?? "-"
      return "\(test) \(object?["label"] as? String ?? "-") +\(object?["suppressed"] as? Int ?? -1)"
    }
    let without = "FoldingFixtures/foldedWithoutTheTrait() save-alert"
    let with = "FoldingFixtures/foldedWithTheTrait() save-alert"
    #expect(
      records.sorted()
        == [
          "\(without) +0", "\(without) +0", "\(without) +2",
          "\(with) +0", "\(with) +0", "\(with) +1",
        ].sorted())
  }

  /// What XCTest assertions caught goes to the process's sinks with the test's name, except the
  /// misuses `XCTAssertMisuse` expected: those are intentional, and would fail a CI gate.
  @Test func xcTestAssertionsWriteUnexpectedMisusesToTheProcessSinksOnly() throws {
    let text = try FixtureRun.xcTestRecords.get()
    let records = text.split(separator: "\n").map { line -> String in
      let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
      return "\(object?["test"] as? String ?? "-") \(object?["label"] as? String ?? "-")"
    }
    #expect(
      records.sorted() == [
        "XCTestFixtures.testAsyncExpression xctest-async",
        "XCTestFixtures.testMappingInAnotherFile save-alert",
        "XCTestFixtures.testMappingInThisFile xctest-here",
        "XCTestFixtures.testMappingInThisFile xctest-here",
      ])
  }
}
