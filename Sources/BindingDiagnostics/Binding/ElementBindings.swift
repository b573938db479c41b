#if canImport(SwiftUI)
  public import SwiftUI
#endif

/// The element bindings of a collection as it was when they were asked for, from
/// `$items.elementBindings(label:)`: one binding per element, found by its id, in the
/// collection's order, for `ForEach`. Each subscript makes a new binding.
///
/// Made from a ``LockedValue`` (any ``AtomicallyUpdatable``), each binding writes its element in
/// place under the lock, so threads may write different elements at once. Made from a `Binding`
/// to the collection, a write reads the collection and writes it back: one writer at a time.
///
/// When two elements share an id, each of their bindings keeps its rank among the elements with
/// that id (the second stays on the second), at the cost of a scan of the collection per access.
public struct ElementBindings<Elements: MutableCollection & RandomAccessCollection>:
  RandomAccessCollection
where Elements.Element: Identifiable {
  /// A position: the collection's own index.
  public typealias Index = Elements.Index

  @usableFromInline let source: ElementSource<Elements>
  @usableFromInline let elements: Elements
  /// `nil` when every id is unique; otherwise each position's rank among the elements with its
  /// id, `nil` for an id no other element has.
  @usableFromInline let ranks: [Int?]?
  @usableFromInline let label: String?
  @usableFromInline let fileID: StaticString
  @usableFromInline let line: UInt
  @usableFromInline let function: StaticString

  @inlinable
  init(
    source: ElementSource<Elements>, elements: Elements, label: String?, fileID: StaticString,
    line: UInt, function: StaticString
  ) {
    self.source = source
    self.elements = elements
    self.ranks = Self.ranks(of: elements)
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
    let rank = ranks.flatMap { $0[elements.distance(from: elements.startIndex, to: position)] }
    let location = ElementLocation(
      at: position, rank: rank, of: elements, in: source, label: label, fileID: fileID,
      line: line, function: function)
    var binding = Binding(
      get: location.get,
      set: WriteCheck.checking(
        location.set, label: label, fileID: fileID, line: line, function: function))
    if case .binding(let base) = source { binding.transaction = base.transaction }
    return binding
  }

  /// Each position's rank among the elements with its id (`nil` for a unique id), or `nil` when
  /// all ids are unique: one pass with a set of ids, a second only when some id repeats.
  @inlinable
  static func ranks(of elements: Elements) -> [Int?]? {
    var seen = Set<Elements.Element.ID>(minimumCapacity: elements.count)
    var repeated = Set<Elements.Element.ID>()
    for element in elements where !seen.insert(element.id).inserted {
      repeated.insert(element.id)
    }
    guard !repeated.isEmpty else { return nil }
    var counts: [Elements.Element.ID: Int] = [:]
    return elements.map { element -> Int? in
      guard repeated.contains(element.id) else { return nil }
      defer { counts[element.id, default: 0] += 1 }
      return counts[element.id, default: 0]
    }
  }
}

extension ElementBindings: Sendable where Elements: Sendable {}
