import BindingDiagnostics
import BindingDiagnosticsTesting
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// A note in a list, for element bindings.
struct Note: Identifiable, Sendable {
  let id: Int
  var text: String
}

/// The testing library takes the element kinds as it takes the others: by static member in
/// `.failsOnMisuse(except:)` and `expectMisuse`.
@Suite struct ElementMisuseTests {
  @Test(.failsOnMisuse(except: [.elementReadAfterRemoval]))
  func aDeletedRowStillReadIsAllowedAndItsEditFails() throws {
    let notes = LockedValue([Note(id: 1, text: "first"), Note(id: 2, text: "second")])
    let line = #line + 1
    let row = try #require(Binding(element: 2, in: notes.binding, label: "note-row"))
    notes.value.removeLast()
    #expect(row.wrappedValue.text == "second")
    let writer = #line + 2
    withKnownIssue {
      row.wrappedValue = Note(id: 2, text: "edited")
    } matching: { issue in
      issue.sourceLocation?.line == writer
        && Misuses.text(of: issue)
          == "Binding misuse element-write-after-removal at BindingDiagnosticsTestingTests/ElementMisuseTests.swift:\(line), written at BindingDiagnosticsTestingTests/ElementMisuseTests.swift:\(writer), label \"note-row\", Note: A binding to a collection element was written after the element was removed; the write was dropped."
    }
    #expect(notes.value.map(\.text) == ["first"])
  }

  @Test func expectMisuseClaimsElementKinds() {
    let notes = LockedValue([Note(id: 1, text: "first")])
    let rows = notes.binding.elementBindings(label: "notes")
    notes.value = []
    let reads = expectMisuse(.elementReadAfterRemoval, count: 2) {
      _ = rows[0].wrappedValue
      _ = rows[0].wrappedValue
    }
    let writes = expectMisuse(.elementWriteAfterRemoval) {
      rows[0].wrappedValue = Note(id: 1, text: "late")
    }
    #expect(reads.map(\.level) == [.info, .info])
    #expect(writes.map(\.label) == ["notes"])
  }
}
