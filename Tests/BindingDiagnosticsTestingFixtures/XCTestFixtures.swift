import BindingDiagnostics
import BindingDiagnosticsXCTest
import XCTest

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// XCTest fixtures: `FixtureProcessTests` runs them in a child process and reads what XCTest
/// prints. Each says what the parent expects of it.
final class XCTestFixtures: XCTestCase {
  override func setUpWithError() throws {
    guard FixtureGate.isOn else { throw XCTSkip("a fixture, run by FixtureProcessTests") }
  }

  /// Fails at the mapping's line, which is in this file.
  func testMappingInThisFile() {
    XCTAssertNoMisuse {
      let alert = LockedValue<String?>("Saved").binding
      let flag = alert.mappedToBool(label: "xctest-here")  // fixture-mark: xctest-here
      flag.wrappedValue = true
      flag.wrappedValue = true
    }
  }

  /// Fails at the assertion's line, naming FixtureViews.swift and the mapping's line.
  func testMappingInAnotherFile() {
    XCTAssertNoMisuse { FixtureViews.tapAlertOK(times: 1) }  // fixture-mark: xctest-caller
  }

  /// Passes.
  func testNoMisuse() {
    XCTAssertNoMisuse { FixtureViews.editWithDefault() }
  }

  /// Passes: two misuses of the kind, as expected.
  func testExpectedMisuse() {
    let events = XCTAssertMisuse(
      .mappedBoolSetTrue, { FixtureViews.tapAlertOK(times: 2) }, count: 2)
    XCTAssertEqual(events.map(\.label), ["save-alert", "save-alert"])
  }

  /// Fails at the assertion's line: no misuse happened.
  func testExpectedMisuseMissing() {
    let edit = FixtureViews.editWithDefault
    XCTAssertMisuse(.unwrappedWriteAfterNil, edit)  // fixture-mark: xctest-missing
  }

  /// Fails once at the mapping in FixtureViews.swift through an async expression.
  func testAsyncExpression() async {
    await XCTAssertNoMisuse {  // fixture-mark: xctest-async
      await Task.yield()
      FixtureViews.misuse(label: "xctest-async")
    }
  }
}
