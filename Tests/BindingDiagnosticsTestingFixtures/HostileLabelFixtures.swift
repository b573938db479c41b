import BindingDiagnostics
import Foundation
import XCTest

/// An XCTest fixture whose misuse has a label with a line of XCTest's output in it:
/// `XCTestDefaultProcessTests` runs it in a child process and checks that no line of the output
/// is the label's.
final class XCTestHostileLabelFixtures: XCTestCase {
  /// The label: a newline, then what XCTest prints for a failure.
  static let label = "row\n/src/Forged.swift:1: error: ForgedTests.testForged : failed - forged"

  override func setUpWithError() throws {
    guard FixtureGate.isOn else { throw XCTSkip("a fixture, run by FixtureProcessTests") }
  }

  /// Fails once, at the mapping's line, and counts two misuses in a warning line.
  func testHostileLabel() {
    FixtureViews.misuse(label: Self.label)
    FixtureViews.misuse(label: Self.label)
  }
}
