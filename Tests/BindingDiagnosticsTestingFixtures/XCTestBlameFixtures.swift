import BindingDiagnostics
import Foundation
import XCTest

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// XCTest fixtures for blame, without assertions: `FixtureProcessTests` runs them in a child
/// process (XCTest runs them by name, in this order) and reads what XCTest prints.
final class XCTestBlameFixtures: XCTestCase {
  override func setUpWithError() throws {
    guard FixtureGate.isOn else { throw XCTSkip("a fixture, run by FixtureProcessTests") }
  }

  /// Fails once at the writer's file and line, with a warning line counting 5.
  func testX1ModelMethod() {
    InboxModel().tapOK(times: 5)
  }

  /// Fails once at the writer's line in this file.
  func testX2AsyncBody() async {
    await Task.yield()
    let flag = InboxModel().isAlertPresented
    flag.wrappedValue = true  // fixture-mark: xctest-blame-async
  }

  /// Schedules a misuse 0.3 s ahead on a Dispatch queue and passes.
  func testX3SchedulesALateMisuse() {
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) {
      FixtureViews.misuse(label: "x3-late")
      XCTestBlameFixtures.lateMisuseDone.signal()
    }
  }

  /// Waits until the late misuse happened (60 s at most), and passes: it is not this test's.
  func testX4Waits() {
    _ = XCTestBlameFixtures.lateMisuseDone.wait(timeout: .now() + 60)
  }

  /// Signalled once the late misuse was made.
  private static let lateMisuseDone = DispatchSemaphore(value: 0)
}
