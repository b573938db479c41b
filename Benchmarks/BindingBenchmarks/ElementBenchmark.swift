// The correct path of an element binding (issue 23) beside a hand-written binding by index.
import BindingDiagnostics

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// A row of a list, as an app's model holds it.
struct BenchmarkRow: Identifiable {
  let id: Int
  var title: String
}

/// A list's state: rows in an array, as `@State var rows: [Row]` holds them.
final class RowsModel {
  var rows = (1...16).map { BenchmarkRow(id: $0, title: "row \($0)") }
}

/// The two bindings compared: ours, by id (its element found at its remembered index), and
/// `Binding(get: { $rows.wrappedValue[i] }, set: { $rows.wrappedValue[i] = $0 })`, what
/// `ForEach($rows)` and `$rows[i]` amount to.
func elementBindingPair(_ model: RowsModel) -> (
  element: Binding<BenchmarkRow>, index: Binding<BenchmarkRow>
) {
  nonisolated(unsafe) let model = model
  let base = Binding<[BenchmarkRow]>(get: { model.rows }, set: { model.rows = $0 })
  let position = 7
  let element = Binding(element: model.rows[position].id, in: base)!
  let index = Binding<BenchmarkRow>(
    get: { base.wrappedValue[position] }, set: { base.wrappedValue[position] = $0 })
  return (element, index)
}

/// The same pair over a ``LockedValue``: ours, `Binding(element:in:)` given the `LockedValue`
/// (found and written in place under its lock), and a binding by index through its `binding`
/// (a read copies the array out under the lock, a write copies it, changes it and stores it back).
func lockedElementBindingPair() -> (element: Binding<BenchmarkRow>, index: Binding<BenchmarkRow>) {
  let rows = LockedValue((1...16).map { BenchmarkRow(id: $0, title: "row \($0)") })
  let base = rows.binding
  let position = 7
  let element = Binding(element: position + 1, in: rows)!
  let index = Binding<BenchmarkRow>(
    get: { base.wrappedValue[position] }, set: { base.wrappedValue[position] = $0 })
  return (element, index)
}

/// Reads (`write` false) or writes the row `count` times through `binding`.
@inline(never)
func exercise(_ binding: Binding<BenchmarkRow>, write: Bool, count: Int) {
  if write {
    let row = binding.wrappedValue
    for _ in 0..<count { binding.wrappedValue = row }
  } else {
    for _ in 0..<count { blackhole &+= binding.wrappedValue.title.utf8.count }
  }
}

/// ns per read and per write through each binding, interleaved so frequency changes hit both,
/// on the thread's CPU clock (a loaded machine taking the core away does not count), best of 21.
func runElement() {
  runElement(elementBindingPair(RowsModel()), prefix: "")
  runElement(lockedElementBindingPair(), prefix: "locked.")
}

/// ns per read and per write through `pair`, reported under `prefix`.
func runElement(
  _ pair: (element: Binding<BenchmarkRow>, index: Binding<BenchmarkRow>), prefix: String
) {
  let (element, index) = pair
  let iterations = 1_000_000
  for write in [false, true] {
    var ours = Double.infinity
    var theirs = Double.infinity
    for _ in 0..<7 {
      ours = min(
        ours,
        measure(rounds: 3, iterations: iterations, clock: threadCPUNanoseconds) {
          exercise(element, write: write, count: $0)
        })
      theirs = min(
        theirs,
        measure(rounds: 3, iterations: iterations, clock: threadCPUNanoseconds) {
          exercise(index, write: write, count: $0)
        })
    }
    let name = write ? "write" : "read"
    report("\(prefix)element.\(name)", ours, "ns/op")
    report("\(prefix)index.\(name)", theirs, "ns/op")
  }
}

/// `count` reads or writes through the element binding or the binding by index, for callgrind's
/// instruction counts: `which` is `element-read`, `element-write`, `index-read` or `index-write`,
/// with a `locked-` prefix for the pair over a ``LockedValue``.
func runElementCalls(which: String, count: Int) {
  let (element, index) =
    which.hasPrefix("locked-") ? lockedElementBindingPair() : elementBindingPair(RowsModel())
  let binding = which.contains("element") ? element : index
  exercise(binding, write: which.hasSuffix("write"), count: count)
  report("element.calls", Double(count), which)
}

/// Issue 28: `count` element bindings from `elementBindings()`, the first element removed, then
/// every binding read once more: seconds for the re-read (each binding finds its element one
/// place before where it was).
func runElementReread(count: Int) {
  let model = RowsModel()
  model.rows = (0..<count).map { BenchmarkRow(id: $0, title: "row \($0)") }
  nonisolated(unsafe) let shared = model
  let base = Binding<[BenchmarkRow]>(get: { shared.rows }, set: { shared.rows = $0 })
  let bindings = base.elementBindings()
  let made = (0..<count).map { bindings[$0] }
  model.rows.removeFirst()
  let start = ContinuousClock.now
  for binding in made.dropFirst() { blackhole &+= binding.wrappedValue.id }
  let elapsed = ContinuousClock.now - start
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  report("element.reread_after_remove_first", seconds, "s")
}
