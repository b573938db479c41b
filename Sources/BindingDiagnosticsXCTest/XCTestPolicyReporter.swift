#if !canImport(ObjectiveC)
  import BindingDiagnostics
  import BindingDiagnosticsTesting
  import Foundation
  import XCTest

  /// What fails a running XCTest test at a misuse without `XCTAssertNoMisuse`: the process
  /// pipeline's default policy (`automatic`) and `fail-tests` call it, one failure per misuse, when
  /// Swift Testing's reporter had no test on the misusing task.
  ///
  /// The core finds this class by name (`BindingDiagnosticsXCTest.XCTestPolicyReporter`), so it
  /// works in any process that links this library. corelibs XCTest runs one test at a time and
  /// names none to the code under test, so the reporter listens to test starts and ends as an
  /// `XCTestObservation`, from its creation on (the process's first misuse). A misuse on any
  /// thread while a test runs belongs to that test.
  ///
  /// corelibs XCTest has no warnings: a kind below `warning` is printed to standard output as a
  /// `path:line: warning: Test : …` line, the form editors read, and the test passes.
  ///
  /// Linux only: on Apple platforms this class is not compiled, and XCTest tests fail through
  /// `XCTAssertNoMisuse`.
  final class XCTestPolicyReporter: NSObject, TestFailureReporter, XCTestObservation,
    @unchecked Sendable
  {
    // @unchecked Sendable: the only state, the running test, is read and written under `lock`.
    private let lock = NSLock()
    private var running: XCTestCase?
    private var sawTestEvent = false

    /// The reporter; the core makes the one it uses. Starts observing XCTest.
    override required init() {
      super.init()
      XCTestObservationCenter.shared.addTestObserver(self)
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
      let (test, listening) = lock.withLock { (running, sawTestEvent) }
      guard let test else {
        // Before the first test event the observer has seen, the running test (if any) is
        // unknown: XCTFail finds it, and records nothing outside a test.
        if !listening, fails { XCTFail(text, file: "<unknown>", line: 0) }
        return false
      }
      let line = max(site.line, 0)
      if fails {
        test.recordFailure(
          withDescription: text, inFile: site.fileID, atLine: line, expected: true)
      } else {
        let warning = "\(site.fileID):\(line): warning: \(test.name) : \(text)\n"
        FileHandle.standardOutput.write(Data(warning.utf8))
      }
      return true
    }

    /// The running XCTest test's name (`Class.testMethod`), or `nil` outside a test.
    func currentTestName() -> String? {
      lock.withLock { running?.name }
    }

    /// Remembers the test that starts.
    /// - Parameter testCase: The test.
    func testCaseWillStart(_ testCase: XCTestCase) {
      lock.withLock {
        running = testCase
        sawTestEvent = true
      }
    }

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
      lock.withLock {
        if !sawTestEvent { running = testCase }
        sawTestEvent = true
      }
    }

    /// Forgets the test that ended.
    /// - Parameter testCase: The test.
    func testCaseDidFinish(_ testCase: XCTestCase) {
      lock.withLock {
        if running === testCase { running = nil }
        sawTestEvent = true
      }
    }
  }
#endif
