import BindingDiagnostics
import BindingDiagnosticsTesting
import Foundation
import Testing

@Suite struct FailTestsPolicyTests {
  @Test func theEnvironmentNamesThePolicy() {
    let loaded = EnvironmentConfiguration.load(
      from: ["BINDING_DIAGNOSTICS_POLICY": "fail-tests"], warn: false)
    #expect(loaded.configuration.policy == .failTests)
    #expect(loaded.warnings.isEmpty)
  }

  @Test func aMisuseFailsTheRunningTestAndIsStillReported() {
    let sink = RecordingSink()
    let diagnostics = Diagnostics(
      configuration: DiagnosticsConfiguration(sink: sink, rateLimit: nil, policy: .failTests))
    let line = #line + 3
    withKnownIssue {
      DiagnosticsSystem.withDiagnostics(diagnostics) {
        Misuses.setTrue(label: "policy")
      }
    } matching: { issue in
      issue.sourceLocation == Misuses.location(Misuses.setTrueWriter)
        && Misuses.text(of: issue)
          == "Binding misuse mapped-bool-set-true at BindingDiagnosticsTestingTests/FailTestsPolicyTests.swift:\(line)\(Misuses.writtenAt(Misuses.setTrueWriter)), label \"policy\", String?: A Binding<Bool> mapped from an optional was set to true; the write had no effect."
    }
    #expect(sink.events.map(\.label) == ["policy"])
  }

  /// A thread runs no test, so the misuse is only reported; an issue recorded there would fail
  /// this run.
  @Test func outsideATestAMisuseIsOnlyReported() {
    let sink = RecordingSink()
    let diagnostics = Diagnostics(
      configuration: DiagnosticsConfiguration(sink: sink, rateLimit: nil, policy: .failTests))
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      DiagnosticsSystem.withDiagnostics(diagnostics) { Misuses.setTrue(label: "thread") }
      done.signal()
    }
    thread.start()
    done.wait()
    #expect(sink.events.map(\.label) == ["thread"])
  }
}
