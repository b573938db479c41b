#if canImport(SwiftUI)
  public import SwiftUI
#endif

/// The element bindings of a collection as it was when they were asked for, from
/// `$items.elementBindings(label:)`: one binding per element, found by its id, in the
/// collection's order, for `ForEach`. Each subscript makes a new binding.
public struct ElementBindings<Elements: MutableCollection & RandomAccessCollection>:
  RandomAccessCollection
where Elements.Element: Identifiable {
  /// A position: the collection's own index.
  public typealias Index = Elements.Index

  @usableFromInline let base: Binding<Elements>
  @usableFromInline let elements: Elements
  @usableFromInline let label: String?
  @usableFromInline let fileID: StaticString
  @usableFromInline let line: UInt
  @usableFromInline let function: StaticString

  @inlinable
  init(
    base: Binding<Elements>, elements: Elements, label: String?, fileID: StaticString,
    line: UInt, function: StaticString
  ) {
    self.base = base
    self.elements = elements
    self.label = label
    self.fileID = fileID
    self.line = line
    self.function = function
  }

  /// The first position.
  @inlinable public var startIndex: Index { elements.startIndex }

  /// The position after the last.
  @inlinable public var endIndex: Index { elements.endIndex }

  /// The position after `i`.
  /// - Parameter i: A valid position before ``endIndex``.
  @inlinable public func index(after i: Index) -> Index { elements.index(after: i) }

  /// The position before `i`.
  /// - Parameter i: A valid position after ``startIndex``.
  @inlinable public func index(before i: Index) -> Index { elements.index(before: i) }

  /// The position `distance` away from `i`.
  /// - Parameters:
  ///   - i: A valid position.
  ///   - distance: How far to move.
  @inlinable public func index(_ i: Index, offsetBy distance: Int) -> Index {
    elements.index(i, offsetBy: distance)
  }

  /// The number of positions from `start` to `end`.
  /// - Parameters:
  ///   - start: A valid position.
  ///   - end: A valid position.
  @inlinable public func distance(from start: Index, to end: Index) -> Int {
    elements.distance(from: start, to: end)
  }

  /// The binding to the element that was at `position`, found by its id from then on.
  /// - Parameter position: A valid position.
  @inlinable
  public subscript(position: Index) -> Binding<Elements.Element> {
    let location = ElementLocation(
      at: position, of: elements, in: base, label: label, fileID: fileID, line: line,
      function: function)
    var binding = Binding(
      get: location.get,
      set: WriteCheck.checking(
        location.set, label: label, fileID: fileID, line: line, function: function))
    binding.transaction = base.transaction
    return binding
  }
}

extension ElementBindings: Sendable where Elements: Sendable {}
