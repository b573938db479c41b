import BindingDiagnostics
import BindingDiagnosticsTesting
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif

@Suite struct FailsOnMisuseTraitTests {
  @Test(.failsOnMisuse) func aMisuseIsAnIssueAtTheMappingsCallSite() {
    let line = #line + 2
    withKnownIssue {
      Misuses.setTrue(label: "trait-alert")
    } matching: {
      Misuses.isSetTrue($0, line: line, label: "trait-alert")
    }
  }

  @Test(.failsOnMisuse) func correctCodeRecordsNothing() {
    let draft = LockedValue<String?>(nil)
    let binding = draft.binding
    binding.mappedToBool(default: "Untitled").wrappedValue = true
    binding.mappedToBool().wrappedValue = false
    #expect(draft.value == nil)
  }

  @Test(.failsOnMisuse(except: [.unwrappedReadAfterNil])) func allowedKindsDoNotFail() {
    Misuses.afterNil(label: "read-only", writing: false)
    let line = #line + 2
    withKnownIssue {
      Misuses.afterNil(label: "edited", writing: true)
    } matching: { issue in
      issue.sourceLocation == Misuses.location(Misuses.afterNilWriter)
        && Misuses.text(of: issue)
          == "Binding misuse unwrapped-write-after-nil at BindingDiagnosticsTestingTests/FailsOnMisuseTraitTests.swift:\(line)\(Misuses.writtenAt(Misuses.afterNilWriter)), label \"edited\", String?: A binding unwrapped from an optional was written after it became nil; the write was dropped."
    }
  }

  @Test(.failsOnMisuse) func childTasksAreAttributedToTheTest() async {
    let groupLine = #line + 4
    let asyncLetLine = #line + 5
    await withKnownIssue {
      await withTaskGroup(of: Void.self) { group in
        group.addTask { Misuses.setTrue(label: "group-child") }
      }
      async let grandchild: Void = Misuses.setTrue(label: "async-let")
      await grandchild
    } matching: { issue in
      Misuses.isSetTrue(issue, line: groupLine, label: "group-child")
        || Misuses.isSetTrue(issue, line: asyncLetLine, label: "async-let")
    }
  }

  /// 48 cases run in parallel; every third misuses at its own label. A case blamed for another's
  /// misuse fails: an issue in a case that did not misuse, or one its matcher does not expect.
  @Test(.failsOnMisuse, arguments: 0..<48) func parallelCasesAreNeverCrossBlamed(n: Int)
    async throws
  {
    try await Task.sleep(for: .milliseconds(n % 4))
    if n % 3 == 0 {
      let line = #line + 2
      withKnownIssue {
        Misuses.setTrue(label: "case-\(n)")
      } matching: {
        Misuses.isSetTrue($0, line: line, label: "case-\(n)")
      }
    }
    try await Task.sleep(for: .milliseconds(3 - n % 4))
  }

  @Suite(.failsOnMisuse) struct OnASuite {
    @Test func appliesToEachTest() {
      let line = #line + 2
      withKnownIssue {
        Misuses.setTrue(label: "suite-level")
      } matching: {
        Misuses.isSetTrue($0, line: line, label: "suite-level")
      }
    }

    @Test(.failsOnMisuse(except: [.mappedBoolSetTrue])) func aTestsOwnTraitReplacesTheSuites() {
      Misuses.setTrue(label: "allowed-here")
    }
  }
}
