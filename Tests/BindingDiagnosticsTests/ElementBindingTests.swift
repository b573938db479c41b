import BindingDiagnostics
import BindingDiagnosticsTesting
import Foundation
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// A row of a list: what element bindings point at.
struct Row: Identifiable, Equatable, Sendable {
  let id: Int
  var title: String
}

/// Rows 1 to `count`, titled `row 1`, `row 2`, ….
func rows(_ count: Int) -> [Row] {
  (1...count).map { Row(id: $0, title: "row \($0)") }
}

@Suite struct ElementBindingTests {
  @Test func isNilWhenNoElementHasTheId() {
    let items = Box(rows(3))
    #expect(Binding(element: 4, in: items.binding) == nil)
    #expect(Binding(element: 1, in: Box([Row]()).binding) == nil)
  }

  @Test func readsAndWritesItsElementWhilePresent() throws {
    let items = Box(rows(3))
    let (events, _) = try recordingMisuses {
      let row = try #require(Binding(element: 2, in: items.binding))
      #expect(row.wrappedValue == Row(id: 2, title: "row 2"))
      row.wrappedValue.title = "edited"
      #expect(items.value.map(\.title) == ["row 1", "edited", "row 3"])
      items.value[1].title = "changed elsewhere"
      #expect(row.wrappedValue.title == "changed elsewhere")
      #expect(row.title.wrappedValue == "changed elsewhere")
    }
    #expect(events.isEmpty)
  }

  @Test func readAfterRemovalReturnsTheLastValueAndReportsOneInfoEvent() throws {
    let items = Box(rows(3))
    let (events, line) = try recordingMisuses { () -> Int in
      let line = #line + 1
      let row = try #require(Binding(element: 2, in: items.binding, label: "row-detail"))
      items.value[1].title = "last seen"
      #expect(row.wrappedValue.title == "last seen")
      items.value[1].title = "never read"
      items.value.remove(at: 1)
      #expect(row.wrappedValue == Row(id: 2, title: "last seen"))
      return line
    }
    #expect(items.value.map(\.id) == [1, 3])
    let event = try #require(events.first)
    #expect(events.count == 1)
    #expect(event.kind == .elementReadAfterRemoval)
    #expect(event.level == .info)
    #expect(event.file == #fileID)
    #expect(event.line == line)
    #expect(event.function == "readAfterRemovalReturnsTheLastValueAndReportsOneInfoEvent()")
    #expect(event.valueType == String(reflecting: Row.self))
    #expect(event.valuePresent == false)
    #expect(event.value == "<private>")
    #expect(event.label == "row-detail")
    #expect(
      event.message
        == "A binding to a collection element was read after the element was removed; the last value was returned."
    )
  }

  @Test func writeAfterRemovalLeavesTheCollectionAndReportsOneWarning() throws {
    let items = Box(rows(3))
    let (events, _) = try recordingMisuses {
      let row = try #require(Binding(element: 3, in: items.binding, label: "row-editor"))
      items.value.removeLast()
      row.wrappedValue = Row(id: 3, title: "typed after deletion")
    }
    #expect(items.value == rows(2))
    let event = try #require(events.first)
    #expect(events.count == 1)
    #expect(event.kind == .elementWriteAfterRemoval)
    #expect(event.level == .warning)
    #expect(event.valuePresent == false)
    #expect(event.label == "row-editor")
    #expect(
      event.message
        == "A binding to a collection element was written after the element was removed; the write was dropped."
    )
  }

  @Test func publicPrivacyShowsTheLastValue() throws {
    let items = Box(rows(1))
    var configuration = DiagnosticsConfiguration(rateLimit: nil)
    configuration.privacy = .public
    let (events, _) = try recordingMisuses(configuration: configuration) {
      let row = try #require(Binding(element: 1, in: items.binding))
      items.value = []
      _ = row.wrappedValue
    }
    #expect(events.map(\.value) == [String(describing: Row(id: 1, title: "row 1"))])
  }

  @Test func followsItsElementThroughReorderingAndInsertion() throws {
    let items = Box(rows(5))
    let (events, _) = try recordingMisuses {
      let row = try #require(Binding(element: 4, in: items.binding))
      items.value.reverse()
      #expect(row.wrappedValue.id == 4)
      row.wrappedValue.title = "after reverse"
      #expect(items.value[1] == Row(id: 4, title: "after reverse"))
      items.value.insert(Row(id: 9, title: "new"), at: 0)
      items.value.insert(Row(id: 10, title: "newer"), at: 0)
      #expect(row.wrappedValue.title == "after reverse")
      row.wrappedValue.title = "after insertion"
      #expect(items.value.map(\.id) == [10, 9, 5, 4, 3, 2, 1])
      #expect(items.value[3].title == "after insertion")
      items.value.sort { $0.id < $1.id }
      #expect(row.wrappedValue.title == "after insertion")
      #expect(items.value.filter { $0.title == "after insertion" }.map(\.id) == [4])
    }
    #expect(events.isEmpty)
  }

  /// Duplicate ids: the binding takes the first element with the id, keeps to the element at
  /// its remembered index while that one has the id, and otherwise takes the first with the id.
  @Test func duplicateIdsBindTheFirstThenKeepTheRememberedOne() throws {
    let items = Box([
      Row(id: 1, title: "a"), Row(id: 7, title: "first"), Row(id: 7, title: "second"),
    ])
    let (events, _) = try recordingMisuses {
      let row = try #require(Binding(element: 7, in: items.binding))
      #expect(row.wrappedValue.title == "first")
      items.value.swapAt(1, 2)
      #expect(row.wrappedValue.title == "second")
      row.wrappedValue.title = "written"
      #expect(items.value.map(\.title) == ["a", "written", "first"])
      items.value.insert(Row(id: 2, title: "b"), at: 0)
      #expect(row.wrappedValue.title == "written")
      // One of the two elements with id 7 leaves: which one cannot be told from ids, so the
      // binding reports as after a removal and gives its last value, never the other one's.
      items.value.remove(at: 2)
      #expect(row.wrappedValue.title == "written")
      items.value.removeAll { $0.id == 7 }
      #expect(row.wrappedValue.title == "written")
    }
    #expect(events.map(\.kind) == [.elementReadAfterRemoval, .elementReadAfterRemoval])
  }

  /// The binding follows the id it was made with: writing an element with another id replaces
  /// the element, and the binding then reports as after a removal.
  @Test func writingAnotherIdReplacesTheElementAndLosesIt() throws {
    let items = Box(rows(2))
    let (events, _) = try recordingMisuses {
      let row = try #require(Binding(element: 2, in: items.binding))
      row.wrappedValue = Row(id: 5, title: "renumbered")
      #expect(items.value.map(\.id) == [1, 5])
      #expect(row.wrappedValue == Row(id: 5, title: "renumbered"))
    }
    #expect(events.map(\.kind) == [.elementReadAfterRemoval])
  }

  @Test func writesCarryTheirTransactionToTheCollection() throws {
    let items = Box(rows(2))
    let seen = Box<[Bool]>([])
    let base = Binding<[Row]>(
      get: { items.value },
      set: { newValue, transaction in
        seen.value.append(transaction.disablesAnimations)
        items.value = newValue
      })
    var quiet = Transaction()
    quiet.disablesAnimations = true
    let row = try #require(Binding(element: 1, in: base.transaction(quiet)))
    row.wrappedValue.title = "quiet"
    #expect(row.transaction.disablesAnimations)
    row.transaction(Transaction()).wrappedValue.title = "loud"
    let second = base.elementBindings()[1]
    second.transaction(quiet).wrappedValue.title = "quiet too"
    #expect(seen.value == [true, false, true])
    #expect(items.value.map(\.title) == ["loud", "quiet too"])
  }

  @Test func elementBindingsGiveOneBindingPerElementByIdentity() throws {
    let items = Box(rows(4))
    let (events, line) = recordingMisuses { () -> Int in
      let line = #line + 1
      let bindings = items.binding.elementBindings(label: "row")
      #expect(bindings.count == 4)
      #expect(bindings.map(\.wrappedValue) == rows(4))
      #expect(bindings.map(\.id) == [1, 2, 3, 4])
      items.value.remove(at: 0)
      bindings[1].wrappedValue.title = "second, moved up"
      #expect(items.value.map(\.title) == ["second, moved up", "row 3", "row 4"])
      #expect(bindings[0].wrappedValue.title == "row 1")
      bindings[0].wrappedValue = Row(id: 1, title: "gone")
      #expect(bindings.reversed().map(\.wrappedValue.id) == [4, 3, 2, 1])
      return line
    }
    #expect(
      events.map(\.kind) == [
        .elementReadAfterRemoval, .elementWriteAfterRemoval, .elementReadAfterRemoval,
      ])
    #expect(events.allSatisfy { $0.line == line && $0.label == "row" })
    #expect(items.value.map(\.id) == [2, 3, 4])
  }

  /// Eight real threads read one collection through element bindings (each thread a detail
  /// binding of its own, and a new binding per row from a shared `elementBindings()`) while a
  /// ninth keeps rotating the collection: every read finds its own element. After a removal,
  /// every read and write of a removed element is reported, once each.
  @Test func manyThreadsReadTheirElementsWhileTheCollectionMoves() throws {
    let items = Box(rows(16))
    let list = items.binding.elementBindings(label: "row")
    let sink = RecordingSink()
    let diagnostics = Diagnostics(
      configuration: DiagnosticsConfiguration(sink: sink, rateLimit: nil))
    let wrong = Box(0)
    DispatchQueue.concurrentPerform(iterations: 9) { thread in
      DiagnosticsSystem.withDiagnostics(diagnostics) {
        if thread == 8 {
          for _ in 0..<2_000 {
            var rotated = items.value
            rotated.append(rotated.removeFirst())
            items.value = rotated
          }
          return
        }
        guard let detail = Binding(element: thread + 1, in: items.binding) else { return }
        for round in 0..<2_000 {
          var misread = detail.wrappedValue != Row(id: thread + 1, title: "row \(thread + 1)")
          let position = (thread + round) % 16
          misread = misread || list[position].wrappedValue.id != position + 1
          if misread { wrong.value += 1 }
        }
      }
    }
    #expect(wrong.value == 0)
    let details = try (0..<8).map { thread in
      try #require(Binding(element: 2 * (thread + 1), in: items.binding, label: "detail"))
    }
    items.value.removeAll { $0.id % 2 == 0 }
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      DiagnosticsSystem.withDiagnostics(diagnostics) {
        let detail = details[thread]
        for round in 0..<100 {
          var misread = detail.wrappedValue.id != 2 * (thread + 1)
          for (position, row) in list.enumerated() {
            misread = misread || row.wrappedValue.title != "row \(position + 1)"
          }
          if misread { wrong.value += 1 }
          if round % 10 == 0 { detail.wrappedValue = Row(id: 0, title: "dropped") }
        }
      }
    }
    diagnostics.flush()
    #expect(wrong.value == 0)
    #expect(items.value == rows(16).filter { $0.id % 2 == 1 })
    let events = sink.events
    // Per thread and round: its detail and the 8 removed rows read; a write every ten rounds.
    #expect(events.filter { $0.kind == .elementReadAfterRemoval }.count == 8 * 100 * 9)
    #expect(
      events.filter { $0.kind == .elementWriteAfterRemoval && $0.label == "detail" }.count
        == 8 * 10)
    #expect(events.map(\.seq).sorted() == Array(1...events.count))
  }
}
