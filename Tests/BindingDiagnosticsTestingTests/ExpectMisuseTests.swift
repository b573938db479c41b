import BindingDiagnostics
import BindingDiagnosticsTesting
import Testing

@Suite struct ExpectMisuseTests {
  @Test func returnsTheEventsOfTheKindWithTheirValues() {
    let line = #line + 2
    let events = expectMisuse(.mappedBoolSetTrue, count: 2) {
      Misuses.setTrue(label: "twice", times: 2)
    }
    #expect(events.map(\.label) == ["twice", "twice"])
    #expect(events.map(\.line) == [line, line])
    #expect(events.map(\.value) == ["Saved", "Saved"])
  }

  @Test func asyncBodiesAndTheirChildTasks() async {
    let events = await expectMisuse(.mappedBoolSetTrue, count: 3) {
      await withTaskGroup(of: Void.self) { group in
        for index in 0..<3 { group.addTask { Misuses.setTrue(label: "child-\(index)") } }
      }
    }
    #expect(Set(events.compactMap(\.label)) == ["child-0", "child-1", "child-2"])
  }

  @Test func aMiscountIsAnIssueAtTheCaller() {
    let line = #line + 2
    withKnownIssue {
      expectMisuse(.mappedBoolSetTrue, count: 2) { Misuses.setTrue(label: "once") }
    } matching: { issue in
      issue.sourceLocation?.line == line && issue.sourceLocation?.fileID == #fileID
        && issue.comments.map(\.rawValue) == [
          "Expected 2 misuses of kind mapped-bool-set-true, got 1"
        ]
    }
  }

  @Test func noMisuseIsAnIssueAtTheCaller() async {
    let line = #line + 2
    await withKnownIssue {
      await expectMisuse(.unwrappedWriteAfterNil) { await Task.yield() }
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.map(\.rawValue) == [
          "Expected a misuse of kind unwrapped-write-after-nil, got none"
        ]
    }
  }

  @Test(.failsOnMisuse) func otherKindsStillFailATestWithTheTrait() {
    let line = #line + 4
    withKnownIssue {
      expectMisuse(.mappedBoolSetTrue) {
        Misuses.setTrue(label: "expected")
        Misuses.afterNil(label: "unexpected", writing: true)
      }
    } matching: { issue in
      issue.sourceLocation == Misuses.location(Misuses.afterNilWriter)
        && Misuses.text(of: issue)?.hasPrefix(
          "Binding misuse unwrapped-write-after-nil at BindingDiagnosticsTestingTests/ExpectMisuseTests.swift:\(line)\(Misuses.writtenAt(Misuses.afterNilWriter)), label \"unexpected\", String?: "
        ) == true
    }
  }

  @Test func otherKindsGoToTheOuterPipelineUnderItsPrivacy() {
    let outer = RecordingSink()
    let diagnostics = Diagnostics(
      configuration: DiagnosticsConfiguration(sink: outer, privacy: .private, rateLimit: nil))
    let events = DiagnosticsSystem.withDiagnostics(diagnostics) {
      expectMisuse(.mappedBoolSetTrue) {
        Misuses.setTrue(label: "expected")
        Misuses.afterNil(label: "unexpected", writing: true)
      }
    }
    #expect(events.map(\.kind) == [.mappedBoolSetTrue])
    #expect(outer.events.map(\.kind) == [.unwrappedWriteAfterNil])
    #expect(outer.events.map(\.value) == ["<private>"])
    #expect(outer.events.map(\.label) == ["unexpected"])
    #expect(outer.events.map(\.run) == [diagnostics.run])
  }
}
