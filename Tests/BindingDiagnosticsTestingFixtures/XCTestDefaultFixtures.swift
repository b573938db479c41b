import BindingDiagnostics
import Foundation
import XCTest

/// XCTest fixtures without an assertion: the default policy fails them at a misuse.
/// `FixtureProcessTests` runs them in a child process and reads what XCTest prints. Each says
/// what the parent expects of it.
final class XCTestDefaultFixtures: XCTestCase {
  override func setUpWithError() throws {
    guard FixtureGate.isOn else { throw XCTSkip("a fixture, run by FixtureProcessTests") }
  }

  /// A misuse after the class's tests, with no test running: reported, fails nothing.
  override class func tearDown() {
    if FixtureGate.isOn { FixtureViews.misuse(label: "xctest-after") }
  }

  /// Runs first (XCTest orders tests by name), so its misuse is the process's first: the reporter
  /// does not know the running test yet, and fails it through `XCTFail` at the writer's line,
  /// which names the test to the reporter before the record is written.
  func testFirstMisuseOfTheProcess() {
    FixtureViews.misuse(label: "xctest-first")
  }

  /// Fails once at the mapping's `#fileID` and line; passes under
  /// `BINDING_DIAGNOSTICS_POLICY=report`.
  func testMisuseWithoutAssertion() {
    FixtureViews.misuse(label: "xctest-default")
  }

  /// Passes: a `Thread` may run work an earlier test left, so its misuse fails nothing and its
  /// record names no test.
  func testMisuseOnAThread() {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      FixtureViews.misuse(label: "xctest-thread")
      done.signal()
    }
    thread.start()
    done.wait()
  }

  /// Passes, with a warning line for the read after nil.
  func testReadAfterNil() {
    FixtureViews.peekAfterDismissal()
  }

  /// Passes.
  func testNoMisuse() {
    FixtureViews.editWithDefault()
  }
}
