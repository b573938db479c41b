import BindingDiagnostics
import Foundation
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// A mutable model the bindings in these tests point into.
///
/// `@unchecked Sendable`, so `Binding`'s `@Sendable` closures may capture it: `stored` is only
/// touched under `lock`.
final class Box<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value
  init(_ value: Value) { stored = value }
  var value: Value {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
  var binding: Binding<Value> { Binding(get: { self.value }, set: { self.value = $0 }) }
}

struct Point: Equatable {
  var x: Int
  var y: Int
}

@Suite struct BindingTests {
  @Test func getAndNonmutatingSetGoThroughTheClosures() {
    let box = Box(1)
    let binding = box.binding
    #expect(binding.wrappedValue == 1)
    binding.wrappedValue = 5
    #expect(box.value == 5)
    #expect(binding.projectedValue.wrappedValue == 5)
  }

  @Test func dynamicMemberLookupProjectsWritableKeyPaths() {
    let box = Box(Point(x: 1, y: 2))
    let x = box.binding.x
    x.wrappedValue = 10
    #expect(box.value == Point(x: 10, y: 2))
    #expect(box.binding.y.wrappedValue == 2)
  }

  @Test func constantIgnoresWrites() {
    let binding = Binding.constant("fixed")
    binding.wrappedValue = "changed"
    #expect(binding.wrappedValue == "fixed")
  }

  @Test func failableInitIsNilForNilAndProjectsOtherwise() throws {
    let empty = Box<Int?>(nil)
    #expect(Binding(empty.binding) == nil)
    let full = Box<Int?>(3)
    let unwrapped = try #require(Binding(full.binding))
    unwrapped.wrappedValue = 4
    #expect(full.value == 4)
  }

  @Test func worksAsAPropertyWrapper() {
    struct Child {
      @Binding var count: Int
    }
    let box = Box(0)
    let child = Child(count: box.binding)
    child.count = 7
    #expect(box.value == 7)
    #expect(child.$count.wrappedValue == 7)
  }
}
