import BindingDiagnostics
import BindingDiagnosticsTesting
import Foundation
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// A counter row: what threads increment through element bindings.
struct Tally: Identifiable, Equatable, Sendable {
  let id: Int
  var count: Int
}

/// A row whose `id` counts its reads, so a test can bound how many comparisons a search makes
/// without timing it.
struct CountedRow: Identifiable, Sendable {
  static let idReads = Box(0)
  let key: Int
  var id: Int {
    CountedRow.idReads.value += 1
    return key
  }
}

/// Runs `body(thread)` on `threads` threads of their own, started together, each recording
/// misuses into one sink; returns the events.
func misusesOnThreads(
  _ threads: Int, privacy: ValuePrivacy = .private, _ body: @escaping @Sendable (Int) -> Void
) -> [MisuseEvent] {
  let sink = RecordingSink()
  var configuration = DiagnosticsConfiguration(sink: sink, rateLimit: nil)
  configuration.privacy = privacy
  let diagnostics = Diagnostics(configuration: configuration)
  let ready = DispatchGroup()
  let go = DispatchSemaphore(value: 0)
  let done = DispatchGroup()
  for thread in 0..<threads {
    ready.enter()
    done.enter()
    Thread {
      ready.leave()
      go.wait()
      DiagnosticsSystem.withDiagnostics(diagnostics) { body(thread) }
      done.leave()
    }.start()
  }
  ready.wait()
  for _ in 0..<threads { go.signal() }
  done.wait()
  diagnostics.flush()
  return sink.events
}

/// Element bindings over a ``LockedValue`` (an ``AtomicallyUpdatable``) with real threads, their
/// search after a removal at the front, and duplicate ids.
@Suite struct ElementBindingAtomicTests {
  /// Four threads each increment their own element 20 000 times through an element binding
  /// (two made with `Binding(element:in:)`, two from `elementBindings()`), in a collection of
  /// 4 096: every increment survives. Through a `Binding` to the collection, each write wrote
  /// the whole collection back and increments were lost.
  @Test func fourThreadsIncrementingTheirOwnElementsLoseNothing() throws {
    let increments = 20_000
    let size = 4_096
    let tallies = LockedValue((0..<size).map { Tally(id: $0, count: 0) })
    let list = tallies.elementBindings(label: "tally")
    let events = misusesOnThreads(4) { thread in
      let id = thread * 1_000
      let tally = thread < 2 ? Binding(element: id, in: tallies, label: "tally")! : list[id]
      for _ in 0..<increments { tally.wrappedValue.count += 1 }
    }
    #expect(events.isEmpty)
    #expect(
      tallies.value
        == (0..<size).map { Tally(id: $0, count: $0 % 1_000 == 0 && $0 < 4_000 ? increments : 0) })
  }

  /// One thread removes every odd row, one at a time, while another keeps writing every row:
  /// no removed row comes back, and every even row has its last write. Each write to a removed
  /// row is dropped and reported, never applied.
  @Test func aRemovedRowNeverComesBackWhileAnotherThreadWrites() throws {
    let count = 4_000
    let rounds = 3
    let rows = LockedValue((0..<count).map { Tally(id: $0, count: 0) })
    let bindings = rows.elementBindings(label: "row")
    let events = misusesOnThreads(2, privacy: .public) { thread in
      if thread == 0 {
        for id in stride(from: 1, to: count, by: 2) {
          rows.withLock { $0.removeAll { $0.id == id } }
        }
      } else {
        for round in 1...rounds {
          for (id, binding) in bindings.enumerated() {
            binding.wrappedValue = Tally(id: id, count: round)
          }
        }
      }
    }
    let final = rows.value
    #expect(final.map(\.id) == Array(stride(from: 0, to: count, by: 2)))
    #expect(final.allSatisfy { $0.count == rounds })
    #expect(events.allSatisfy { $0.kind == .elementWriteAfterRemoval })
    // "Tally(id: 3, count: 5)": the id of the dropped write.
    let dropped = events.compactMap { event in
      event.value.flatMap { $0.split(separator: ",").first?.split(separator: " ").last }
        .flatMap { Int($0) }
    }
    #expect(dropped.count == events.count)
    #expect(dropped.allSatisfy { $0 % 2 == 1 })
  }

  /// One binding read on three threads while a fourth rotates the collection: every read finds
  /// its own element (the binding's remembered index is only touched under the source's lock).
  @Test func oneBindingIsUsableFromManyThreads() throws {
    let rows = LockedValue((0..<64).map { Tally(id: $0, count: $0) })
    let shared = try #require(Binding(element: 40, in: rows))
    let wrong = LockedValue(0)
    let events = misusesOnThreads(4) { thread in
      for _ in 0..<5_000 {
        if thread == 0 {
          rows.withLock { $0.append($0.removeFirst()) }
        } else if shared.wrappedValue != Tally(id: 40, count: 40) {
          wrong.withLock { $0 += 1 }
        }
      }
    }
    #expect(events.isEmpty)
    #expect(wrong.value == 0)
  }

  /// 10 000 element bindings re-read after `removeFirst()`: each finds its element one place
  /// before where it was, so the whole re-read compares a few ids per binding. Searching from
  /// the start, it compared about 50 million.
  @Test func reReadingEveryBindingAfterRemoveFirstStaysLinear() throws {
    let count = 10_000
    let rows = Box((0..<count).map { CountedRow(key: $0) })
    let bindings = rows.binding.elementBindings()
    rows.value.removeFirst()
    CountedRow.idReads.value = 0
    var found = 0
    for position in 1..<count where bindings[position].wrappedValue.key == position {
      found += 1
    }
    #expect(found == count - 1)
    #expect(CountedRow.idReads.value <= 5 * count)
  }

  /// Two elements share an id: the binding to the second writes the second, after an insertion
  /// before both and after a removal at the front, through a `Binding` and a `LockedValue`.
  @Test func aWriteThroughTheSecondOfTwoDuplicateIdsNeverLandsOnTheFirst() throws {
    let start = [Row(id: 1, title: "a"), Row(id: 7, title: "first"), Row(id: 7, title: "second")]
    let boxed = Box(start)
    let locked = LockedValue(start)
    let (events, _) = recordingMisuses {
      for (bindings, edit) in [
        (
          boxed.binding.elementBindings(),
          { (change: ([Row]) -> [Row]) in
            boxed.value = change(boxed.value)
          }
        ),
        (
          locked.elementBindings(),
          { (change: ([Row]) -> [Row]) in
            locked.value = change(locked.value)
          }
        ),
      ] {
        let second = bindings[2]
        edit { [Row(id: 0, title: "inserted")] + $0 }
        second.wrappedValue.title = "second, after an insertion"
        edit { Array($0.dropFirst(2)) }
        #expect(second.wrappedValue.title == "second, after an insertion")
        second.wrappedValue.title = "second, after a removal"
      }
    }
    #expect(events.isEmpty)
    for final in [boxed.value, locked.value] {
      #expect(final == [Row(id: 7, title: "first"), Row(id: 7, title: "second, after a removal")])
    }
  }

  /// With duplicates, a binding whose rank is gone reports instead of taking another element:
  /// the second of two, after the second was removed, does not reach the first (its read and
  /// its write are reported).
  @Test func aDuplicateWhoseRankIsGoneReportsInsteadOfWritingAnother() throws {
    let rows = LockedValue([Row(id: 7, title: "first"), Row(id: 7, title: "second")])
    let bindings = rows.elementBindings()
    let first = bindings[0]
    let (events, _) = recordingMisuses {
      _ = rows.withLock { $0.removeLast() }
      bindings[1].wrappedValue.title = "dropped"
      first.wrappedValue.title = "also dropped"
    }
    // Which duplicate left cannot be told from ids: both bindings report, neither writes.
    #expect(
      events.map(\.kind) == [
        .elementReadAfterRemoval, .elementWriteAfterRemoval, .elementReadAfterRemoval,
        .elementWriteAfterRemoval,
      ])
    #expect(rows.value == [Row(id: 7, title: "first")])
  }

  /// The red team's case: the first of two duplicates removed, then both bindings written. The
  /// removed element's binding must not overwrite the survivor (it did when ranks were counted
  /// from the start of the collection alone).
  @Test(arguments: [true, false])
  func removingTheFirstDuplicateNeverSendsItsWritesToTheSecond(locked: Bool) throws {
    let rows = LockedValue([Row(id: 7, title: "first"), Row(id: 7, title: "second")])
    let bindings = locked ? Array(rows.elementBindings()) : Array(rows.binding.elementBindings())
    let (events, _) = recordingMisuses {
      _ = rows.withLock { $0.removeFirst() }
      bindings[0].wrappedValue.title = "written through the removed first"
      bindings[1].wrappedValue.title = "written through the second"
    }
    #expect(rows.value == [Row(id: 7, title: "second")])
    #expect(events.filter { $0.kind == .elementWriteAfterRemoval }.count == 2)
  }
}
