import BindingDiagnostics
import BindingDiagnosticsTesting
import Dispatch
import Foundation
import XCTest

/// What fails a running XCTest test at a misuse without `XCTAssertNoMisuse`: the process
/// pipeline's default policy (`automatic`) and `fail-tests` call it, one failure per misuse, when
/// Swift Testing's reporter had no test on the misusing task.
///
/// The core finds this class by name (`BindingDiagnosticsXCTest.XCTestPolicyReporter`), so it
/// works in any process that links this library. XCTest runs one test at a time and names none to
/// the code under test, so the reporter listens to test starts and ends as an
/// `XCTestObservation`, from its creation on (the process's first misuse; on Apple platforms, from
/// the main thread's next turn when that misuse is on another thread). A misuse on any thread
/// while a test runs belongs to that test. For the first misuse, before the reporter has seen a
/// test start, `XCTFail` finds the running test, and the failure's callback names it to the
/// reporter before the misuse's record is written.
///
/// XCTest has no warnings: a kind below `warning` is printed to standard output as a
/// `path:line: warning: Test : …` line, the form editors read, and the test passes.
///
/// The platforms differ in how a failure is recorded and observed: Xcode's XCTest
/// (`canImport(ObjectiveC)`) records an `XCTIssue` at the mapping's `#fileID` and line and reports
/// it through `testCase(_:didRecord:)`; corelibs XCTest (Linux) records
/// `recordFailure(withDescription:inFile:atLine:expected:)` and reports it through
/// `testCase(_:didFailWithDescription:inFile:atLine:)`.
final class XCTestPolicyReporter: NSObject, TestFailureReporter, XCTestObservation {
  private struct State: Sendable {
    /// `XCTestCase` is not `Sendable`; the lock guards only this reference. The reporter reads
    /// the test's name and records failures into it, which XCTest accepts from any thread.
    nonisolated(unsafe) var running: XCTestCase?
    /// Whether any test start, end or failure has reached the reporter.
    var sawTestEvent = false
  }

  private let state = Lock(State())

  /// The reporter; the core makes the one it uses. Starts observing XCTest.
  override required init() {
    super.init()
    #if canImport(ObjectiveC)
      // Xcode's XCTest takes observers on the main thread only (it raises otherwise). A first
      // misuse off it registers later, never waiting on the main thread, which may be waiting
      // for the misusing thread; until then misuses go through `XCTFail`.
      if Thread.isMainThread {
        XCTestObservationCenter.shared.addTestObserver(self)
      } else {
        DispatchQueue.main.async { XCTestObservationCenter.shared.addTestObserver(self) }
      }
    #else
      XCTestObservationCenter.shared.addTestObserver(self)
    #endif
  }

  /// Records one failure for the misuse in the running XCTest test, if there is one, at the
  /// mapping's `#fileID` and line; a level below `warning` (unless `failsBelowWarning`) prints a
  /// warning line instead. Returns whether a test was running.
  func failCurrentTest(
    kind: MisuseKind, level: MisuseLevel, message: String, label: String?, valueType: String,
    site: CallSite, failsBelowWarning: Bool
  ) -> Bool {
    let text = MisuseSite(
      kind: kind, fileID: site.fileID, line: site.line, label: label, valueType: valueType,
      message: message
    ).describe(count: nil)
    let fails = failsBelowWarning || level >= .warning
    var running: XCTestCase?
    let listening = state.withLock { state in
      running = state.running
      return state.sawTestEvent
    }
    guard let test = running else {
      // Before the first test event the reporter has seen, the running test (if any) is unknown:
      // XCTFail finds it (its callback tells this reporter), and records nothing outside a test.
      guard !listening, fails else { return false }
      XCTFail(text, file: "<unknown>", line: 0)
      return currentTestName() != nil
    }
    let line = max(site.line, 0)
    if fails {
      record(text, in: test, fileID: site.fileID, line: line)
    } else {
      let warning = "\(site.fileID):\(line): warning: \(test.name) : \(text)\n"
      FileHandle.standardOutput.write(Data(warning.utf8))
    }
    return true
  }

  /// The running XCTest test's name (`Class.testMethod` on Linux, `-[Class testMethod]` on
  /// Apple platforms), or `nil` outside a test.
  func currentTestName() -> String? {
    state.withLock { $0.running?.name }
  }

  /// Remembers the test that starts.
  /// - Parameter testCase: The test.
  func testCaseWillStart(_ testCase: XCTestCase) {
    state.withLock {
      $0.running = testCase
      $0.sawTestEvent = true
    }
  }

  /// Forgets the test that ended.
  /// - Parameter testCase: The test.
  func testCaseDidFinish(_ testCase: XCTestCase) {
    state.withLock {
      if $0.running === testCase { $0.running = nil }
      $0.sawTestEvent = true
    }
  }

  /// Learns the running test from a failure recorded before the reporter saw it start.
  private func learn(from testCase: XCTestCase) {
    state.withLock {
      if !$0.sawTestEvent { $0.running = testCase }
      $0.sawTestEvent = true
    }
  }

  #if canImport(ObjectiveC)
    /// Learns the running test from an issue recorded before the reporter saw it start.
    /// - Parameters:
    ///   - testCase: The test that recorded it.
    ///   - issue: The issue.
    func testCase(_ testCase: XCTestCase, didRecord issue: XCTIssue) {
      learn(from: testCase)
    }

    private func record(_ text: String, in test: XCTestCase, fileID: String, line: Int) {
      let location = XCTSourceCodeLocation(filePath: fileID, lineNumber: line)
      test.record(
        XCTIssue(
          type: .assertionFailure, compactDescription: text,
          sourceCodeContext: XCTSourceCodeContext(location: location)))
    }
  #else
    /// Learns the running test from a failure recorded before the reporter saw it start.
    /// - Parameters:
    ///   - testCase: The failing test.
    ///   - description: The failure's text.
    ///   - filePath: Where it failed.
    ///   - lineNumber: The line it failed at.
    func testCase(
      _ testCase: XCTestCase, didFailWithDescription description: String, inFile filePath: String?,
      atLine lineNumber: Int
    ) {
      learn(from: testCase)
    }

    private func record(_ text: String, in test: XCTestCase, fileID: String, line: Int) {
      test.recordFailure(withDescription: text, inFile: fileID, atLine: line, expected: true)
    }
  #endif
}
