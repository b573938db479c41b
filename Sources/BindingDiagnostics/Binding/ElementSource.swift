#if canImport(SwiftUI)
  public import SwiftUI
#endif

/// Where an element binding's collection lives, and how a write reaches it.
@usableFromInline
enum ElementSource<Elements> {
  /// A binding to the collection: a read reads it whole; a write reads it, replaces the element
  /// and writes it back with the write's transaction. One writer at a time: two threads writing
  /// at once can lose a write, or write back an element the other removed.
  case binding(Binding<Elements>)
  /// A source changed in one atomic step (an ``AtomicallyUpdatable``, erased): runs its
  /// argument on the collection, in place, under the source's lock. A read and a write find the
  /// element and read or replace it in the same step.
  case atomic(@Sendable (_ body: (inout Elements) -> Void) -> Void)

  /// An atomic source's collection, copied out (one step).
  @inlinable
  static func snapshot<Source: AtomicallyUpdatable>(of source: Source) -> Elements
  where Source.Value == Elements {
    source.withLock { $0 }
  }

  /// The erased form of `source`.
  @inlinable
  static func atomic<Source: AtomicallyUpdatable>(_ source: Source) -> ElementSource
  where Source.Value == Elements {
    .atomic { body in source.withLock { body(&$0) } }
  }
}

extension ElementSource: Sendable where Elements: Sendable {}
