#if canImport(SwiftUI)
  public import SwiftUI
#endif

/// An element binding's state: the id it follows, where its element was last found and its value
/// then, the base binding and the call site for reports.
///
/// Unlocked, like the base binding's own storage and `Binding(unwrapping:)`'s last value: an
/// element binding is used where its base is (SwiftUI: the main actor), one thread at a time,
/// while any number of element bindings into one collection may be used on as many threads as
/// the base allows. A lock here cost almost as much as the rest of a read, and each view makes
/// its own bindings anyway. `@unchecked Sendable` on that condition, as `Binding` itself is. No
/// run-time exclusivity check on `index` and `last` (it cost more than the rest of a read), which
/// are only accessed for an instant, never across a call that could reach them again. Figures:
/// Benchmarks/results/element.txt.
@usableFromInline
final class ElementLocation<Elements: MutableCollection & RandomAccessCollection>:
  @unchecked Sendable
where Elements.Element: Identifiable {
  @usableFromInline let id: Elements.Element.ID
  /// Where the element was last found: checked first, never used without its id.
  @exclusivity(unchecked) @usableFromInline var index: Elements.Index
  /// The element's value when it was last found, read or written.
  @exclusivity(unchecked) @usableFromInline var last: Elements.Element
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

  /// Whether the remembered index is one of `elements`' positions.
  @inlinable
  func indexIsValid(in elements: Elements) -> Bool {
    index >= elements.startIndex && index < elements.endIndex
  }

  /// The first position of an element with the id, remembered; `nil` when there is none. The
  /// slow path, after the element moved or left.
  @inlinable @inline(never)
  func search(_ elements: Elements) -> Elements.Index? {
    guard let position = elements.firstIndex(where: { $0.id == id }) else { return nil }
    index = position
    return position
  }

  /// The element now, or its last value (reported) when it is gone.
  @inlinable
  func get() -> Elements.Element {
    let elements = base.wrappedValue
    if indexIsValid(in: elements) {
      let value = elements[index]
      if value.id == id {
        last = value
        return value
      }
    }
    if let position = search(elements) {
      let value = elements[position]
      last = value
      return value
    }
    let value = last
    MappingReports.afterRemoval(
      .elementReadAfterRemoval, value: value, label: label, fileID: fileID, line: line,
      function: function)
    return value
  }

  /// Writes the element, or drops the write (reported) when it is gone.
  @inlinable
  func set(_ newValue: Elements.Element, _ transaction: Transaction) {
    var elements = base.wrappedValue
    let remembered = indexIsValid(in: elements) && elements[index].id == id
    guard let position = remembered ? index : search(elements) else {
      MappingReports.afterRemoval(
        .elementWriteAfterRemoval, value: newValue, label: label, fileID: fileID, line: line,
        function: function)
      return
    }
    last = newValue
    elements[position] = newValue
    base.transaction(transaction).wrappedValue = elements
  }
}
