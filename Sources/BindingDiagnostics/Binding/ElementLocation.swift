#if canImport(SwiftUI)
  public import SwiftUI
#endif

/// An element binding's state: the id it follows, where its element was last found and its value
/// then, the base binding and the call site for reports.
///
/// `@unchecked Sendable`: `index` and `last` are only touched under `lock`, so one binding may
/// be used from several threads at once (its base guards the collection; this lock, the
/// binding's memory of it). The lock also makes each access exclusive, so the run-time
/// exclusivity check is turned off for them (it cost three times the rest of a read). The base is used where the element binding is, as in
/// Binding+Mapping.swift.
@usableFromInline
final class ElementLocation<Elements: MutableCollection & RandomAccessCollection>:
  @unchecked Sendable
where Elements.Element: Identifiable {
  @usableFromInline let id: Elements.Element.ID
  /// Where the element was last found: checked first, never used without its id.
  @exclusivity(unchecked) @usableFromInline var index: Elements.Index
  /// The element's value when it was last found, read or written.
  @exclusivity(unchecked) @usableFromInline var last: Elements.Element
  @usableFromInline let lock = ElementLock()
  @usableFromInline let base: Binding<Elements>
  @usableFromInline let label: String?
  @usableFromInline let fileID: StaticString
  @usableFromInline let line: UInt
  @usableFromInline let function: StaticString

  @inlinable
  init(
    at index: Elements.Index, of elements: Elements, in base: Binding<Elements>, label: String?,
    fileID: StaticString, line: UInt, function: StaticString
  ) {
    let element = elements[index]
    self.id = element.id
    self.index = index
    self.last = element
    self.base = base
    self.label = label
    self.fileID = fileID
    self.line = line
    self.function = function
  }

  /// The element's position in `elements`: the remembered index when its element still has the
  /// id (one comparison), else the first element with the id, else `nil`. Call under the lock.
  @inlinable
  func position(in elements: Elements) -> Elements.Index? {
    if index >= elements.startIndex && index < elements.endIndex && elements[index].id == id {
      return index
    }
    return elements.firstIndex { $0.id == id }
  }

  /// The element now, or its last value (reported) when it is gone.
  @inlinable
  func get() -> Elements.Element {
    let elements = base.wrappedValue
    var value: Elements.Element?
    var gone = false
    lock.withLock {
      if let position = position(in: elements) {
        index = position
        last = elements[position]
      } else {
        gone = true
      }
      value = last
    }
    if gone {
      MappingReports.afterRemoval(
        .elementReadAfterRemoval, value: value!, label: label, fileID: fileID, line: line,
        function: function)
    }
    return value!
  }

  /// Writes the element, or drops the write (reported) when it is gone.
  @inlinable
  func set(_ newValue: Elements.Element, _ transaction: Transaction) {
    var elements = base.wrappedValue
    var found: Elements.Index?
    lock.withLock {
      found = position(in: elements)
      if let found {
        index = found
        last = newValue
      }
    }
    guard let found else {
      MappingReports.afterRemoval(
        .elementWriteAfterRemoval, value: newValue, label: label, fileID: fileID, line: line,
        function: function)
      return
    }
    elements[found] = newValue
    base.transaction(transaction).wrappedValue = elements
  }
}

/// The lock of an ``ElementLocation``: not generic and not inlinable, so specialised element
/// bindings call it without the lock's platform types in their inlined code.
@usableFromInline
final class ElementLock: Sendable {
  private let lock = Lock(())

  @usableFromInline
  init() {}

  /// Runs `body` under the lock.
  /// - Parameter body: Must not take this lock again.
  @usableFromInline
  func withLock(_ body: () -> Void) {
    lock.withLock { _ in body() }
  }
}
