#if canImport(SwiftUI)
  public import SwiftUI
#endif

/// An element binding's state: the id it follows (and its rank among equal ids, when the
/// collection had duplicates), where its element was last found and its value then, the source
/// and the call site for reports.
///
/// `index` and `last` are not locked by this class. With a ``ElementSource/binding(_:)`` source
/// an element binding is used where its base is (SwiftUI: the main actor), one thread at a time,
/// like the base binding's own storage and `Binding(unwrapping:)`'s last value; a lock here cost
/// almost as much as the rest of a read. With an ``ElementSource/atomic(_:)`` source they are
/// only touched inside the source's lock, so one binding may be used on any thread.
/// `@unchecked Sendable` on that condition, as `Binding` itself is. No run-time exclusivity check
/// on `index` and `last` (it cost more than the rest of a read); they are only accessed for an
/// instant, never across a call that could reach them again. Figures:
/// Benchmarks/results/element.txt.
@usableFromInline
final class ElementLocation<Elements: MutableCollection & RandomAccessCollection>:
  @unchecked Sendable
where Elements.Element: Identifiable {
  @usableFromInline typealias Element = Elements.Element

  @usableFromInline let id: Element.ID
  /// `nil` when no other element had the id when the binding was made (the usual case);
  /// otherwise the binding's element is the one of that rank (0 the first) among the elements
  /// with the id, found by a scan on each access.
  @usableFromInline let rank: Int?
  /// How many elements had the id when the binding was made (1 for a unique id). A ranked
  /// binding finds its element only while exactly that many have it: when one of them leaves,
  /// which one left cannot be told from ids alone, so the binding reports as after a removal
  /// rather than reach a neighbour with the same id.
  @usableFromInline let copies: Int
  /// Where the element was last found: checked first, never used without its id.
  @exclusivity(unchecked) @usableFromInline var index: Elements.Index
  /// The element's value when it was last found, read or written.
  @exclusivity(unchecked) @usableFromInline var last: Element
  @usableFromInline let source: ElementSource<Elements>
  @usableFromInline let label: String?
  @usableFromInline let fileID: StaticString
  @usableFromInline let line: UInt
  @usableFromInline let function: StaticString

  @inlinable
  init(
    at index: Elements.Index, rank: Int?, of elements: Elements, in source: ElementSource<Elements>,
    label: String?, fileID: StaticString, line: UInt, function: StaticString
  ) {
    let element = elements[index]
    self.id = element.id
    self.rank = rank
    self.copies = rank == nil ? 1 : elements.reduce(0) { $0 + ($1.id == element.id ? 1 : 0) }
    self.index = index
    self.last = element
    self.source = source
    self.label = label
    self.fileID = fileID
    self.line = line
    self.function = function
  }

  /// The location of the first element with `id`, ranked when another element has the id too;
  /// `nil` when none has it.
  @inlinable
  convenience init?(
    id: Element.ID, in elements: Elements, source: ElementSource<Elements>, label: String?,
    fileID: StaticString, line: UInt, function: StaticString
  ) {
    guard let index = elements.firstIndex(where: { $0.id == id }) else { return nil }
    let duplicated = elements[elements.index(after: index)...].contains { $0.id == id }
    self.init(
      at: index, rank: duplicated ? 0 : nil, of: elements, in: source, label: label,
      fileID: fileID, line: line, function: function)
  }

  // MARK: Finding the element

  /// Where the element is in `elements` now, remembered; `nil` when it is gone. One comparison
  /// when it is where it was last found.
  @inlinable
  func locate(in elements: Elements) -> Elements.Index? {
    if rank == nil, index >= elements.startIndex, index < elements.endIndex,
      elements[index].id == id
    {
      return index
    }
    return search(elements)
  }

  /// The slow path, after the element moved or left: outwards from where it was last found
  /// (nearer positions first, the one before ahead of the one after), so an element `k` places
  /// away costs `k` comparisons and re-reading every binding after a removal at the front stays
  /// linear; by rank when the id had duplicates.
  @inlinable @inline(never)
  func search(_ elements: Elements) -> Elements.Index? {
    if let rank { return search(elements, rank: rank) }
    let count = elements.count
    guard count > 0 else { return nil }
    let start = elements.startIndex
    // Where it was last found, when still a position, was compared already by `locate`.
    let inside = index >= start && index < elements.endIndex
    let center =
      inside ? elements.distance(from: start, to: index) : index < start ? 0 : count - 1
    var below = inside ? center - 1 : center
    var above = center + 1
    while below >= 0 || above < count {
      if below >= 0 {
        let position = elements.index(start, offsetBy: below)
        if elements[position].id == id {
          index = position
          return position
        }
        below -= 1
      }
      if above < count {
        let position = elements.index(start, offsetBy: above)
        if elements[position].id == id {
          index = position
          return position
        }
        above += 1
      }
    }
    return nil
  }

  /// The element of `rank` among those with the id, remembered; `nil` unless exactly
  /// ``copies`` elements have the id (one of them left, or another came: which element the rank
  /// now names cannot be known).
  @inlinable @inline(never)
  func search(_ elements: Elements, rank: Int) -> Elements.Index? {
    var seen = 0
    var found: Elements.Index?
    var position = elements.startIndex
    while position < elements.endIndex {
      if elements[position].id == id {
        if seen == rank { found = position }
        seen += 1
      }
      elements.formIndex(after: &position)
    }
    guard seen == copies, let found else { return nil }
    index = found
    return found
  }

  /// The element in `elements`, remembered as `last`, and `true`; `last` and `false` when it is
  /// gone.
  @inlinable
  func read(_ elements: Elements) -> (value: Element, found: Bool) {
    guard let position = locate(in: elements) else { return (last, false) }
    let value = elements[position]
    last = value
    return (value, true)
  }

  /// Replaces the element in `elements` with `newValue`, remembered as `last`: `false`, and
  /// `elements` untouched, when it is gone.
  @inlinable
  func write(_ newValue: Element, into elements: inout Elements) -> Bool {
    guard let position = locate(in: elements) else { return false }
    elements[position] = newValue
    last = newValue
    return true
  }

  // MARK: The binding's getter and setter

  /// The element now, or its last value (reported) when it is gone.
  @inlinable
  func get() -> Element {
    let outcome: (value: Element, found: Bool)
    switch source {
    case .binding(let base):
      outcome = read(base.wrappedValue)
    case .atomic(let update):
      var inside: (value: Element, found: Bool)?
      update { inside = self.read($0) }
      outcome = inside!
    }
    if !outcome.found {
      MappingReports.afterRemoval(
        .elementReadAfterRemoval, value: outcome.value, label: label, fileID: fileID, line: line,
        function: function)
    }
    return outcome.value
  }

  /// Writes the element where it is now, or drops the write (reported) when it is gone.
  ///
  /// An atomic source finds and replaces the element in one step; a binding's collection is read,
  /// changed and written back, with `transaction`.
  @inlinable
  func set(_ newValue: Element, _ transaction: Transaction) {
    let written: Bool
    switch source {
    case .binding(let base):
      var elements = base.wrappedValue
      written = write(newValue, into: &elements)
      if written { base.write(elements, with: transaction) }
    case .atomic(let update):
      var inside = false
      update { inside = self.write(newValue, into: &$0) }
      written = inside
    }
    if !written {
      MappingReports.afterRemoval(
        .elementWriteAfterRemoval, value: newValue, label: label, fileID: fileID, line: line,
        function: function)
    }
  }
}
