import BindingDiagnostics
import BindingDiagnosticsTesting
import Foundation
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// Swift Testing fixtures for blame: where an issue sits, which test it belongs to, and how
/// often it is said. `FixtureProcessTests` runs them in a child process (serialized, in this
/// order) and reads what the runner prints and what the sinks hold.
@Suite(.enabled(if: FixtureGate.isOn), .serialized)
struct BlameFixtures {
  /// No trait: one issue, at the writer's line in InboxModel.swift, naming the mapping's line.
  @Test func modelMethod() {
    InboxModel().tapOK(times: 5)
  }

  /// The trait: one issue at the writer's line, and a warning at the end counting 5.
  @Test(.failsOnMisuse) func modelMethodWithTheTrait() {
    InboxModel().tapOK(times: 5)
  }

  /// No trait: 20 000 misuses of one site are one issue.
  @Test func twentyThousandMisuses() {
    InboxModel().tapOK(times: 20_000)
  }

  /// No trait, the test's body writes: the issue sits on this file's line.
  @Test func testBody() {
    let flag = InboxModel().isAlertPresented
    flag.wrappedValue = true  // fixture-mark: blame-body
  }

  /// A child task is the test's: one issue at the writer.
  @Test func childTask() async {
    await withTaskGroup(of: Void.self) { group in
      group.addTask { InboxModel().tapOK(times: 2) }
    }
  }

  /// A detached task does not carry the test (Swift's runtime gives it no task-local values):
  /// its misuse fails nothing and its record names no test.
  @Test func detachedTask() async {
    await Task.detached { InboxModel().tapOK(times: 1) }.value
  }

  /// A `DispatchQueue` runs no test: nothing fails, the record names no test.
  @Test func dispatchQueue() {
    let group = DispatchGroup()
    DispatchQueue(label: "blame").async(group: group) { InboxModel().tapOK(times: 1) }
    group.wait()
  }

  /// The trait: an unstructured task misuses 0.3 s after the test ended. The test passes; the
  /// misuse fails nothing and goes to the sinks naming this test.
  @Test(.failsOnMisuse) func lateTaskWithTheTrait() {
    Task {
      try? await Task.sleep(for: .milliseconds(300))
      FixtureViews.misuse(label: "late-trait")
    }
  }

  /// Waits while the late task misuses: passes. Long enough for a loaded machine's first
  /// symbolication.
  @Test func waitsWhileTheLateTaskMisuses() async throws {
    try await Task.sleep(for: .seconds(3))
  }

  /// Two cases of one parameterised test are two tests in the records.
  @Test(arguments: [1, 3]) func tapping(times: Int) {
    InboxModel().tapOK(times: times)
  }
}
