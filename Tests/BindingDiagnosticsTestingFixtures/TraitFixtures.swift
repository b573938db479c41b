import BindingDiagnostics
import BindingDiagnosticsTesting
import Foundation
import Testing

/// Swift Testing fixtures: `FixtureProcessTests` runs them in a child process and reads what the
/// test runner prints. Each says what the parent expects of it.
@Suite(.enabled(if: FixtureGate.isOn))
struct TraitFixtures {
  /// Fails once at the mapping in FixtureViews.swift, with a warning counting 3.
  @Test(.failsOnMisuse) func alertTappedThreeTimes() {
    FixtureViews.tapAlertOK(times: 3)
  }

  /// Passes.
  @Test(.failsOnMisuse) func fixedPattern() {
    FixtureViews.editWithDefault()
  }

  /// Cases 1, 3, 5 and 7 fail, each at its own label; the others pass.
  @Test(.failsOnMisuse, arguments: 0..<8) func parallelCases(n: Int) async {
    await Task.yield()
    if n % 2 == 1 { FixtureViews.misuse(label: "case-\(n)") }
    await Task.yield()
  }

  /// Reads allowed: fails once, for the write after nil.
  @Test(.failsOnMisuse(except: [.unwrappedReadAfterNil])) func detailDismissed() {
    FixtureViews.dismissDetail()
  }

  /// A child task's misuse fails this test.
  @Test(.failsOnMisuse) func childTask() async {
    await withTaskGroup(of: Void.self) { group in
      group.addTask { FixtureViews.misuse(label: "child-task") }
    }
  }

  /// Passes: a DispatchQueue and a Thread are outside the test's task tree, so their misuses go
  /// to the process pipeline (logfmt lines on standard error).
  @Test(.failsOnMisuse) func dispatchQueueAndThreadGoToTheProcess() {
    let group = DispatchGroup()
    DispatchQueue(label: "fixture").async(group: group) {
      FixtureViews.misuse(label: "dispatch-queue")
    }
    group.wait()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      FixtureViews.misuse(label: "thread")
      done.signal()
    }
    thread.start()
    done.wait()
  }

  /// Fails when the test ends, with a count of 2: the work ran inside `withDiagnostics` with the
  /// test's pipeline.
  @Test(.failsOnMisuse) func dispatchQueueCapturedWithDiagnostics() {
    let pipeline = DiagnosticsSystem.current
    let group = DispatchGroup()
    DispatchQueue(label: "fixture").async(group: group) {
      DiagnosticsSystem.withDiagnostics(pipeline) {
        FixtureViews.tapAlertOK(times: 2)
      }
    }
    group.wait()
  }

  /// Fails once at the mapping; with the process's sinks configured, writes nothing there.
  @Test(.failsOnMisuse(except: [], reportsToProcessSinks: false)) func keptInTheTest() {
    FixtureViews.misuse(label: "kept")
  }

  /// Fails at the `expectMisuse` line: 2 expected, 1 happened.
  @Test func expectationMiscounted() {
    expectMisuse(.mappedBoolSetTrue, count: 2) {  // fixture-mark: expect-miscounted
      FixtureViews.tapAlertOK(times: 1)
    }
  }

  /// No trait: fails at the mapping, and reports on standard error; passes under
  /// `BINDING_DIAGNOSTICS_POLICY=report`.
  @Test func withoutTheTrait() {
    FixtureViews.misuse(label: "no-trait")
  }

  /// No trait: a read after nil is a warning at the mapping; the test passes. Fails under
  /// `BINDING_DIAGNOSTICS_POLICY=fail-tests`; no warning under `report`.
  @Test func readAfterNilWithoutTheTrait() {
    FixtureViews.peekAfterDismissal()
  }
}
