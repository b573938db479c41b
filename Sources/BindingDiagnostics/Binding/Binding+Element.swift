#if canImport(SwiftUI)
  public import SwiftUI
#endif

// As in Binding+Mapping.swift, an element binding is used where its base would be, starts with
// the base's transaction and writes through `base.transaction(transaction)`. Its getter and setter
// are the methods of an `ElementLocation` (which holds the base), passed as method references:
// made here, where the collection's type is known, they reach the specialised methods, and the
// `@Sendable` closures `Binding` takes capture no generic metatype (a closure literal using the
// collection's conformances here would, which Swift 6 refuses).

extension Binding where Value: Identifiable {
  /// A binding to the element with `id` in a collection, found by identity, or `nil` when no
  /// element has that id now.
  ///
  /// Unlike a binding by index (`$items[index]`, or `ForEach($items)`), it never traps and never
  /// reaches another element: each read and write finds the element by its id, first at the
  /// index where it was last found (one comparison), then by a search. A read after the element
  /// left the collection returns its last value and reports
  /// ``MisuseKind/elementReadAfterRemoval`` (level `info` by default: SwiftUI does this while a
  /// row or a detail view animates away); a write then is dropped and reports
  /// ``MisuseKind/elementWriteAfterRemoval``.
  ///
  /// With duplicate ids it binds to the first element with `id` when made, and keeps to it while
  /// the element at its remembered index has the id; otherwise the first element with the id.
  /// The binding follows `id`: writing an element with another id replaces the element, after
  /// which the binding reports as after a removal.
  /// - Parameters:
  ///   - id: The id of the element.
  ///   - base: A binding to the collection.
  ///   - label: A name for this binding in reports.
  ///   - fileID: Captured call site.
  ///   - line: Captured call site.
  ///   - function: Captured call site.
  @inlinable
  public init?<Elements: MutableCollection & RandomAccessCollection>(
    element id: Value.ID, in base: Binding<Elements>, label: String? = nil,
    fileID: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
  ) where Elements.Element == Value {
    let elements = base.wrappedValue
    guard let index = elements.firstIndex(where: { $0.id == id }) else { return nil }
    let location = ElementLocation(
      at: index, of: elements, in: base, label: label, fileID: fileID, line: line,
      function: function)
    self.init(
      get: location.get,
      set: WriteCheck.checking(
        location.set, label: label, fileID: fileID, line: line, function: function))
    transaction = base.transaction
  }
}

extension Binding
where Value: MutableCollection & RandomAccessCollection, Value.Element: Identifiable {
  /// One element binding per element of the collection now, for `ForEach`: each is
  /// ``Binding/init(element:in:label:fileID:line:function:)`` for its element's id, so a row or
  /// a detail view still holding it after the element was deleted gets a report instead of an
  /// "Index out of range" crash.
  ///
  /// `ForEach($items.elementBindings()) { item in … }`: a `Binding` is `Identifiable` by its
  /// value's id.
  /// - Parameters:
  ///   - label: A name for these bindings in reports.
  ///   - fileID: Captured call site.
  ///   - line: Captured call site.
  ///   - function: Captured call site.
  /// - Returns: The bindings, in the collection's order.
  @inlinable
  public func elementBindings(
    label: String? = nil, fileID: StaticString = #fileID, line: UInt = #line,
    function: StaticString = #function
  ) -> ElementBindings<Value> {
    ElementBindings(
      base: self, elements: wrappedValue, label: label, fileID: fileID, line: line,
      function: function)
  }
}
