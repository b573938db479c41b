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
  /// reaches an element with another id: each read and write finds the element by its id, first
  /// at the index where it was last found (one comparison), then by a search outwards from there.
  /// A read after the element left the collection returns its last value and reports
  /// ``MisuseKind/elementReadAfterRemoval`` (level `info` by default: SwiftUI does this while a
  /// row or a detail view animates away); a write then is dropped and reports
  /// ``MisuseKind/elementWriteAfterRemoval``.
  ///
  /// With duplicate ids (which `ForEach` does not allow) it binds to the first element with `id`
  /// and keeps that rank: on each access, the first of the elements with `id` then (a scan).
  /// When the number of elements with `id` changes, which one left or came cannot be told, so
  /// the binding reports as after a removal instead of reaching a neighbour with the same id.
  /// The binding follows `id`: writing an element with another id replaces the element, after
  /// which the binding reports as after a removal.
  ///
  /// A write reads the collection through `base`, replaces the element and writes the collection
  /// back, as `$items[index]` does: one writer at a time. Two threads writing elements at once
  /// through such bindings can lose a write or bring back a removed element. For state written
  /// from several threads, pass the state itself, an ``AtomicallyUpdatable`` such as a
  /// ``LockedValue``, as `source` instead of its binding.
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
    guard
      let location = ElementLocation(
        id: id, in: base.wrappedValue, source: .binding(base), label: label, fileID: fileID,
        line: line, function: function)
    else { return nil }
    self.init(
      get: location.get,
      set: WriteCheck.checking(
        location.set, label: label, fileID: fileID, line: line, function: function))
    transaction = base.transaction
  }

  /// A binding to the element with `id` in a collection that `source` guards, written in place:
  /// `nil` when no element has that id now.
  ///
  /// It finds its element as the binding made from a `Binding` does, and reports the same
  /// misuses, but each read and each write is one call of the source's
  /// ``AtomicallyUpdatable/withLock(_:)``: the element is found and read, or found and replaced,
  /// in one step. Threads writing different elements of a ``LockedValue`` collection lose
  /// nothing, an element another thread removed is never written back (the write is dropped and
  /// reported), and one binding may be used on any thread. A write's transaction is not passed
  /// on (a ``LockedValue/binding`` ignores it too).
  /// - Parameters:
  ///   - id: The id of the element.
  ///   - source: The collection's state, such as a ``LockedValue``.
  ///   - label: A name for this binding in reports.
  ///   - fileID: Captured call site.
  ///   - line: Captured call site.
  ///   - function: Captured call site.
  @inlinable
  public init?<Source: AtomicallyUpdatable>(
    element id: Value.ID, in source: Source, label: String? = nil,
    fileID: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
  )
  where
    Source.Value: MutableCollection & RandomAccessCollection, Source.Value.Element == Value
  {
    guard
      let location = ElementLocation(
        id: id, in: ElementSource.snapshot(of: source), source: .atomic(source), label: label,
        fileID: fileID, line: line, function: function)
    else { return nil }
    self.init(
      get: location.get,
      set: WriteCheck.checking(
        location.set, label: label, fileID: fileID, line: line, function: function))
  }
}

extension Binding
where Value: MutableCollection & RandomAccessCollection, Value.Element: Identifiable {
  /// One element binding per element of the collection now, for `ForEach`: each is
  /// `init(element:in:label:fileID:line:function:)` over this binding, for its element's id, so
  /// a row or a detail view still holding it after the element was deleted gets a report instead
  /// of an "Index out of range" crash.
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
      source: .binding(self), elements: wrappedValue, label: label, fileID: fileID, line: line,
      function: function)
  }
}

extension AtomicallyUpdatable
where Value: MutableCollection & RandomAccessCollection, Value.Element: Identifiable {
  /// One element binding per element of the collection now, for `ForEach`, each written in
  /// place: `Binding(element: id, in: self, label: label)` for its element's id, so threads may
  /// write different elements at once and lose nothing.
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
      source: .atomic(self), elements: ElementSource.snapshot(of: self), label: label,
      fileID: fileID, line: line, function: function)
  }
}
