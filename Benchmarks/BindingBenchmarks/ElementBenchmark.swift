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
  let (element, index) = elementBindingPair(RowsModel())
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
    report("element.\(name)", ours, "ns/op")
    report("index.\(name)", theirs, "ns/op")
  }
}

/// `count` reads or writes through the element binding or the binding by index, for callgrind's
/// instruction counts: `which` is `element-read`, `element-write`, `index-read` or `index-write`.
func runElementCalls(which: String, count: Int) {
  let (element, index) = elementBindingPair(RowsModel())
  let binding = which.hasPrefix("element") ? element : index
  exercise(binding, write: which.hasSuffix("write"), count: count)
  report("element.calls", Double(count), which)
}
