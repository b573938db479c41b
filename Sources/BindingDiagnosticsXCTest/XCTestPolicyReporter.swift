import BindingDiagnostics
import BindingDiagnosticsTesting
import Dispatch
import Foundation
import XCTest

/// What fails a running XCTest test at a misuse without `XCTAssertNoMisuse`: the process
/// pipeline's default policy (`automatic`) and `fail-tests` call it, when Swift Testing's
/// reporter had no test on the misusing task.
///
/// Each call site a test misuses is one failure, at the writer's file and line (the mapping's
/// `#fileID` and line without debug information), recorded at the site's first misuse; later
/// misuses of the site are counted, and when the test ends a warning line gives each count.
///
/// A misuse belongs to the running test when it is made on the main thread (where XCTest runs
/// tests) or on a Swift task (an `async` test's body and its tasks); one made on a thread of a
/// `DispatchQueue` or a `Thread` may come from an earlier test (work it scheduled), so it fails
/// nothing and its record names no test.
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
    /// The running test's sites and how many misuses each made.
    var counts: [MisuseSite.Key: Counted] = [:]
    var order: [MisuseSite.Key] = []
  }

  /// A site of the running test: where its failure went, and how many misuses it made.
  private struct Counted: Sendable {
    let site: MisuseSite
    let path: String
    let line: Int
    var count: Int
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

  /// Records one failure for the site's first misuse in the running XCTest test, if there is
  /// one, at the writer's file and line (the mapping's `#fileID` and line without one); a level
  /// below `warning` (unless `failsBelowWarning`) prints a warning line instead. Returns whether
  /// a test was running.
  func failCurrentTest(
    _ misuse: Misuse, writer: () -> WriterSite?, failsBelowWarning: Bool
  ) -> Bool {
    guard XCTestPolicyReporter.mayBelongToTheRunningTest else { return false }
    let fails = failsBelowWarning || misuse.level >= .warning
    var running: XCTestCase?
    let key = MisuseSite.key(of: misuse)
    let (listening, first) = state.withLock { state -> (Bool, Bool) in
      running = state.running
      guard state.running != nil else { return (state.sawTestEvent, true) }
      let counted = state.counts[key]?.count ?? 0
      if counted > 0 { state.counts[key]?.count = counted + 1 }
      return (state.sawTestEvent, counted == 0)
    }
    guard first else { return true }
    let writer = writer()
    let site = MisuseSite(misuse, writer: writer?.text)
    let text = site.describe(count: nil)
    let path = writer?.path ?? misuse.site.fileID
    let line = max(writer?.line ?? misuse.site.line, 0)
    guard let test = running else {
      // Before the first test event the reporter has seen, the running test (if any) is unknown:
      // XCTFail finds it (its callback tells this reporter), and records nothing outside a test.
      guard !listening, fails else { return false }
      XCTFail(text, file: InternedStaticString.of(path), line: UInt(line))
      guard currentTestName() != nil else { return false }
      count(Counted(site: site, path: path, line: line, count: 1), key: key)
      return true
    }
    count(Counted(site: site, path: path, line: line, count: 1), key: key)
    if fails {
      record(text, in: test, path: path, line: line)
    } else {
      let warning = "\(path):\(line): warning: \(test.name) : \(text)\n"
      FileHandle.standardOutput.write(Data(warning.utf8))
    }
    return true
  }

  /// Whether a misuse made here may be the running test's: on the main thread, or on a Swift
  /// task; not on a `DispatchQueue`'s or a `Thread`'s thread, where work an earlier test
  /// scheduled runs as well.
  private static var mayBelongToTheRunningTest: Bool {
    Thread.isMainThread || withUnsafeCurrentTask { $0 != nil }
  }

  /// Starts counting `site` in the running test.
  private func count(_ site: Counted, key: MisuseSite.Key) {
    state.withLock { state in
      if state.counts[key] == nil {
        state.order.append(key)
        state.counts[key] = site
      }
    }
  }

  /// The running XCTest test's name (`Class.testMethod` on Linux, `-[Class testMethod]` on
  /// Apple platforms), or `nil` outside a test or for a misuse that may come from an earlier
  /// test (see ``failCurrentTest(_:writer:failsBelowWarning:)``).
  func currentTestName() -> String? {
    guard XCTestPolicyReporter.mayBelongToTheRunningTest else { return nil }
    return state.withLock { $0.running?.name }
  }

  /// Remembers the test that starts.
  /// - Parameter testCase: The test.
  func testCaseWillStart(_ testCase: XCTestCase) {
    state.withLock {
      $0.running = testCase
      $0.sawTestEvent = true
      $0.counts = [:]
      $0.order = []
    }
  }

  /// Forgets the test that ended, and prints a warning line with the count of each site it
  /// misused more than once.
  /// - Parameter testCase: The test.
  func testCaseDidFinish(_ testCase: XCTestCase) {
    let counted = state.withLock { state -> [Counted] in
      state.sawTestEvent = true
      guard state.running === testCase else { return [] }
      state.running = nil
      let counted = state.order.compactMap { state.counts[$0] }.filter { $0.count > 1 }
      state.counts = [:]
      state.order = []
      return counted
    }
    for site in counted {
      let text = site.site.describe(count: site.count)
      let path = LogfmtEscaping.escapingControls(site.path)
      let warning = "\(path):\(site.line): warning: \(testCase.name) : \(text)\n"
      FileHandle.standardOutput.write(Data(warning.utf8))
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

    private func record(_ text: String, in test: XCTestCase, path: String, line: Int) {
      let location = XCTSourceCodeLocation(filePath: path, lineNumber: line)
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

    private func record(_ text: String, in test: XCTestCase, path: String, line: Int) {
      test.recordFailure(withDescription: text, inFile: path, atLine: line, expected: true)
    }
  #endif
}
