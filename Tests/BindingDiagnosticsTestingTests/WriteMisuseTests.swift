import BindingDiagnostics
import BindingDiagnosticsTesting
import Foundation
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// The write kinds in tests: `expectMisuse` claims them, and an unexpected one fails the test.
@Suite struct WriteMisuseTests {
  // `swift test` runs no test on the main thread (on Linux not even a `@MainActor` one): these
  // make their bindings on the library's stand-in for it, and write them from a child task
  // (which runs on the global executor and inherits the test's pipeline).
  #if DEBUG
    @Test func expectMisuseClaimsAWriteFromAnotherThread() async throws {
      let counter = LockedValue(0)
      let binding = MainThreadStandIn.run { counter.binding.diagnosed(label: "counter") }
      let events = await expectMisuse(.setOffMainThread, count: 1) {
        await withTaskGroup(of: Bool.self) { group in
          group.addTask {
            binding.wrappedValue = 1
            return false
          }
          for await onStandIn in group { #expect(!onStandIn) }
        }
      }
      #expect(events.map(\.label) == ["counter"])
      #expect(counter.value == 1)
    }

    @Test(.failsOnMisuse)
    func anUnexpectedWriteFromAnotherThreadFailsTheTest() async throws {
      let line = #line + 1
      let binding = MainThreadStandIn.run { LockedValue(0).binding.diagnosed(label: "counter") }
      // The issue sits at the line that wrote, and names the line that made the binding.
      let writer = #line + 3
      await withKnownIssue {
        await withTaskGroup(of: Void.self) { group in
          group.addTask { binding.wrappedValue = 1 }
        }
      } matching: { issue in
        issue.sourceLocation?.line == writer
          && Misuses.text(of: issue)
            == "Binding misuse set-off-main-thread at BindingDiagnosticsTestingTests/WriteMisuseTests.swift:\(line), written at BindingDiagnosticsTestingTests/WriteMisuseTests.swift:\(writer), label \"counter\", Int: A binding made on the main thread was written from another thread."
      }
    }
  #endif

  @Test(.failsOnMisuse)
  func anUnexpectedWriteThatDoesNotStickFailsTheTest() {
    let line = #line + 1
    let title = Binding.constant("Draft").diagnosed(label: "title")
    // The issue sits at the line that wrote, and names the line that made the binding.
    let writer = #line + 2
    withKnownIssue {
      title.wrappedValue = "Final"
    } matching: { issue in
      issue.sourceLocation?.line == writer
        && Misuses.text(of: issue)
          == "Binding misuse write-not-applied at BindingDiagnosticsTestingTests/WriteMisuseTests.swift:\(line), written at BindingDiagnosticsTestingTests/WriteMisuseTests.swift:\(writer), label \"title\", String: A write through a binding did not stick: reading it right after gave another value (wrote String, read back String)."
    }
  }

  @Test func expectMisuseClaimsAReentrantWrite() {
    let volume = LockedValue(5)
    let slot = LockedValue<Binding<Int>?>(nil)
    slot.value = Binding(
      get: { volume.value },
      set: { newValue in
        volume.value = newValue
        if newValue > 10, let binding = slot.value { binding.wrappedValue = 10 }
      }
    ).diagnosed(label: "volume")
    let binding = slot.value!
    let events = expectMisuse(.reentrantWrite, count: 1) { binding.wrappedValue = 11 }
    #expect(events.map(\.label) == ["volume"])
    #expect(volume.value == 10)
  }
}
