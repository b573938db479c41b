import BindingDiagnostics
import BindingDiagnosticsTesting
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif

// The shapes of swift-navigation's `Binding(unwrapping:)` and of the `isPresent()` helper that
// swift-navigation and TCA ship, as an app sees them once it imports those libraries (written
// here for the test: `fileprivate`, so they shadow the library in this file only).
extension Binding {
  fileprivate init?(unwrapping base: Binding<Value?>) {
    guard let initial = base.wrappedValue else { return nil }
    nonisolated(unsafe) let base = base
    nonisolated(unsafe) var last = initial
    self.init(
      get: {
        if let value = base.wrappedValue { last = value }
        return last
      },
      set: { newValue in
        if base.wrappedValue != nil { base.wrappedValue = newValue }
      })
  }

  fileprivate func isPresent<Wrapped>() -> Binding<Bool> where Value == Wrapped? {
    nonisolated(unsafe) let base = self
    return Binding<Bool>(
      get: { base.wrappedValue != nil },
      set: { isPresent in
        if !isPresent { base.wrappedValue = nil }
      })
  }
}

/// The migration article's claims about other libraries' helpers, pinned: if Swift's overload
/// ranking changes, these fail and the article must change with them.
@Suite struct ShadowingTests {
  /// A write after `nil` through `Binding(unwrapping:)`, made with whichever initializer wins.
  private static func writeAfterNil() {
    let selection = LockedValue<String?>("Lunch")
    guard let detail = Binding(unwrapping: selection.binding) else { return }
    selection.value = nil
    detail.wrappedValue = "Dinner"
  }

  @Test func anotherUnwrappingInitializerWinsOverloadResolutionSilently() {
    let (events, _) = recordingMisuses { Self.writeAfterNil() }
    #expect(events.isEmpty)
    // Any argument past `unwrapping:` reaches the library's initializer, which reports.
    let (labelled, _) = recordingMisuses {
      let selection = LockedValue<String?>("Lunch")
      guard let detail = Binding(unwrapping: selection.binding, label: "library") else { return }
      selection.value = nil
      detail.wrappedValue = "Dinner"
    }
    #expect(labelled.map(\.kind) == [.unwrappedWriteAfterNil])
  }

  @Test func isPresentIsNeverReported() {
    let (events, _) = recordingMisuses {
      LockedValue<String?>("shown").binding.isPresent().wrappedValue = true
    }
    #expect(events.isEmpty)
  }

  /// The article's detection test, as an app adds it: it fails while a shadowing helper is there.
  @Test func theDocumentedDetectionTestFailsWhileAShadowingHelperIsThere() {
    withKnownIssue {
      expectMisuse(.unwrappedWriteAfterNil, count: 1) { Self.writeAfterNil() }
    }
    withKnownIssue {
      expectMisuse(.mappedBoolSetTrue, count: 1) {
        LockedValue<String?>("shown").binding.isPresent().wrappedValue = true
      }
    }
  }
}
