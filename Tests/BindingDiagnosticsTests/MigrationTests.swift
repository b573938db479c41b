import BindingDiagnostics
import BindingDiagnosticsTesting
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif

// The original blog extension, as apps still carry it (updated for Swift 6). `fileprivate` here,
// so it shadows the library in this file only; an app's internal copy does so in its whole module.
extension Binding {
  fileprivate func mappedToBool<Wrapped>() -> Binding<Bool> where Value == Wrapped? {
    nonisolated(unsafe) let base = self
    return Binding<Bool>(
      get: { base.wrappedValue != nil },
      set: { isPresented in
        if !isPresented { base.wrappedValue = nil }
      })
  }
}

/// The README's migration warning, pinned: if Swift's overload ranking changes, this fails and
/// the README must change with it.
@Suite struct MigrationTests {
  @Test func aLeftoverMappedToBoolWinsOverloadResolutionSilently() {
    let (events, _) = recordingMisuses {
      Binding<String?>.constant("shown").mappedToBool().wrappedValue = true
    }
    #expect(events.isEmpty)
    let (labelled, _) = recordingMisuses {
      Binding<String?>.constant("shown").mappedToBool(label: "library").wrappedValue = true
    }
    #expect(labelled.map(\.label) == ["library"])
  }

  @Test func theDocumentedDetectionTestFailsWhileTheLeftoverIsThere() {
    withKnownIssue {
      expectMisuse(.mappedBoolSetTrue, count: 1) {
        Binding<String?>.constant("shown").mappedToBool().wrappedValue = true
      }
    }
  }
}
