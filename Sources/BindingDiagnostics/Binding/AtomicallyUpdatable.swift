/// A value that can be read and changed in one atomic step, such as ``LockedValue``.
///
/// Element bindings made from such a source (`Binding(element: id, in: source)` and
/// ``AtomicallyUpdatable/elementBindings(label:fileID:line:function:)``) write each element
/// in place, in one call of ``withLock(_:)``: the element is found by its id and replaced in the
/// same step, so threads writing different elements lose nothing, and an element another thread
/// removed is never written back. An element binding made from a `Binding` to the collection
/// reads the whole collection and writes it back instead, and has one writer at a time.
///
/// Conform a model's own lock-guarded state to it to get the same guarantee.
public protocol AtomicallyUpdatable<Value>: Sendable {
  /// The value guarded.
  associatedtype Value: Sendable

  /// Runs `body` with the value so that no other call of this method, on any thread, sees the
  /// value between `body`'s reads and writes.
  /// - Parameter body: Reads or changes the value; must not use this source again.
  /// - Returns: What `body` returns.
  func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result
}
