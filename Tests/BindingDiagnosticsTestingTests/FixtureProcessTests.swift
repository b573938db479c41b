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

  @Test func traitFailsTheTestOnceAtTheMappingAndWarnsWithTheCount() throws {
    let output = try FixtureRun.swiftTesting.get()
    let line = try FixtureRun.line(of: "views-alert", in: "FixtureViews.swift")
    let sentence =
      "A Binding<Bool> mapped from an optional was set to true; the write had no effect."
    #expect(output.status == 1)
    #expect(
      issues(of: "alertTappedThreeTimes()", in: output) == [
        "✘ at FixtureViews.swift:\(line):1",
        "Caught error: \(alert)\(line), label \"save-alert\", String?: \(sentence)",
        "⚠︎ at FixtureViews.swift:\(line):1",
        "↳ \(alert)\(line), label \"save-alert\", String?, 3 times: \(sentence)",
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
        "✘ Test parallelCases(n:) recorded an issue with 1 argument n → \(n) at FixtureViews.swift:\(line):1: Caught error: \(alert)\(line), label \"case-\(n)\", \(setTrue)"
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
      issues(of: "childTask()", in: output) == [
        "✘ at FixtureViews.swift:\(labelled):1",
        "Caught error: \(alert)\(labelled), label \"child-task\", \(setTrue)",
      ])
    #expect(
      issues(of: "detailDismissed()", in: output) == [
        "✘ at FixtureViews.swift:\(detail):1",
        "Caught error: Binding misuse unwrapped-write-after-nil at BindingDiagnosticsTestingFixtures/FixtureViews.swift:\(detail), label \"detail\", String?: A binding unwrapped from an optional was written after it became nil; the write was dropped.",
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
    for label in ["dispatch-queue", "thread"] {
      let logfmt = output.stderr.split(separator: "\n").filter {
        $0.hasPrefix("v=1 ") && $0.contains(" label=\(label) ")
      }
      #expect(logfmt.count == 1)
      #expect(
        logfmt.first?.contains(
          " kind=mapped-bool-set-true message_id=2b9f53b872d7905613eeb68e53797657 ") == true)
      #expect(
        logfmt.first?.contains(
          " file=BindingDiagnosticsTestingFixtures/FixtureViews.swift line=\(labelled) ") == true)
    }
    #expect(
      issues(of: "dispatchQueueCapturedWithDiagnostics()", in: output) == [
        "✘ at FixtureViews.swift:\(alertLine):1",
        "Caught error: \(alert)\(alertLine), label \"save-alert\", String?, 2 times: A Binding<Bool> mapped from an optional was set to true; the write had no effect.",
      ])
  }

  @Test func expectMisuseFailsAtItsCaller() throws {
    let output = try FixtureRun.swiftTesting.get()
    let line = try FixtureRun.line(of: "expect-miscounted", in: "TraitFixtures.swift")
    let found = issues(of: "expectationMiscounted()", in: output)
    #expect(found.count == 2)
    #expect(found.first?.hasPrefix("✘ at TraitFixtures.swift:\(line):") == true)
    #expect(found.last == "↳ Expected 2 misuses of kind mapped-bool-set-true, got 1")
  }

  @Test func aMisuseFailsATestWithoutTheTraitAndIsStillReported() throws {
    let output = try FixtureRun.swiftTesting.get()
    let line = try FixtureRun.line(of: "views-labelled", in: "FixtureViews.swift")
    #expect(
      issues(of: "withoutTheTrait()", in: output) == [
        "✘ at FixtureViews.swift:\(line):1",
        "Caught error: \(alert)\(line), label \"no-trait\", \(setTrue)",
      ])
    #expect(
      output.lines.contains {
        $0.hasPrefix("✘ Test withoutTheTrait() failed after ") && $0.hasSuffix(" with 1 issue.")
      })
    // Reported as usual too, so `seq` stays without gaps.
    #expect(output.stderr.contains(" label=no-trait "))
  }

  @Test func aReadAfterNilWithoutTheTraitIsAWarning() throws {
    let output = try FixtureRun.swiftTesting.get()
    let line = try FixtureRun.line(of: "views-read", in: "FixtureViews.swift")
    #expect(
      issues(of: "readAfterNilWithoutTheTrait()", in: output) == [
        "⚠︎ at FixtureViews.swift:\(line):1",
        "↳ Binding misuse unwrapped-read-after-nil at BindingDiagnosticsTestingFixtures/FixtureViews.swift:\(line), label \"peek\", String?: A binding unwrapped from an optional was read after it became nil; the last value was returned.",
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
    #expect(issues(of: "withoutTheTrait()", in: output) == [])
    #expect(issues(of: "readAfterNilWithoutTheTrait()", in: output) == [])
    #expect(output.lines.contains { $0.hasPrefix("✔ Test withoutTheTrait() passed after ") })
    #expect(output.stderr.contains(" label=no-trait "))
  }

  @Test func theFailTestsPolicyFailsEveryKind() throws {
    let output = try FixtureRun.failTests.get()
    let line = try FixtureRun.line(of: "views-read", in: "FixtureViews.swift")
    #expect(output.status == 1)
    #expect(
      issues(of: "readAfterNilWithoutTheTrait()", in: output) == [
        "✘ at FixtureViews.swift:\(line):1",
        "Caught error: Binding misuse unwrapped-read-after-nil at BindingDiagnosticsTestingFixtures/FixtureViews.swift:\(line), label \"peek\", String?: A binding unwrapped from an optional was read after it became nil; the last value was returned.",
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
      expected.append("TraitFixtures/parallelCases(n:) case-\(n) \(set):\(labelled)")
    }
    #expect(records.sorted() == expected.sorted())
  }

  @Test func xcTestAssertionsFailAtTheMappingOrTheCaller() throws {
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
    let failures = output.lines.filter { $0.contains(": error: XCTestFixtures.") }
    #expect(
      failures.sorted()
        == [
          "\(path):\(async): error: XCTestFixtures.testAsyncExpression : failed - \(alert)\(labelled), label \"xctest-async\", Int?, 1 time: \(sentence)",
          "\(path):\(caller): error: XCTestFixtures.testMappingInAnotherFile : failed - \(alert)\(viewsAlert), label \"save-alert\", String?, 1 time: \(sentence)",
          "\(path):\(here): error: XCTestFixtures.testMappingInThisFile : failed - Binding misuse mapped-bool-set-true at BindingDiagnosticsTestingFixtures/XCTestFixtures.swift:\(here), label \"xctest-here\", String?, 2 times: \(sentence)",
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

  /// The issues one fixture test recorded: for each, its symbol and location, then what the
  /// runner printed for it (a failure's error, or a comment's `↳` line).
  private func issues(of test: String, in output: ProcessOutput) -> [String] {
    var found: [String] = []
    let lines = output.lines
    for (index, line) in lines.enumerated() {
      for (symbol, verb) in [("✘", "an issue"), ("⚠︎", "a warning")] {
        let prefix = "\(symbol) Test \(test) recorded \(verb) at "
        guard line.hasPrefix(prefix), let colon = line.firstRange(of: ": ") else { continue }
        let location = line[line.index(line.startIndex, offsetBy: prefix.count)..<colon.lowerBound]
        let said = line[colon.upperBound...]
        if said == "Issue recorded", index + 1 < lines.count {
          found += ["\(symbol) at \(location)", lines[index + 1]]
        } else {
          found += ["\(symbol) at \(location)", String(said)]
        }
      }
    }
    return found
  }
}
