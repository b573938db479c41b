/// One value per stripe, a group of threads (thread `n` uses stripe `n % count`), in raw memory
/// so that reading one retains no shared array: threads misusing at once then do not write the
/// same reference counts. Noncopyable: it frees its memory itself, once, when its owner goes.
///
/// `@unchecked Sendable`: the slots are written once, in `init`, and only read after that (a
/// value that changes is a class that guards itself).
struct Striped<Value: Sendable>: ~Copyable, @unchecked Sendable {
  private let values: UnsafeMutablePointer<Value>
  private let count: Int

  /// `count` values, each made by `make`.
  /// - Parameters:
  ///   - count: How many stripes.
  ///   - make: Makes one value (with storage of its own).
  init(count: Int, _ make: () -> Value) {
    self.count = count
    values = .allocate(capacity: count)
    for index in 0..<count { (values + index).initialize(to: make()) }
  }

  deinit {
    values.deinitialize(count: count)
    values.deallocate()
  }

  /// The value thread `thread` (a ``ThreadOrdinal``) uses.
  subscript(thread: Int) -> Value { values[thread % count] }

  /// Every value, in order.
  var all: [Value] { (0..<count).map { values[$0] } }

  /// Calls `body` with the value thread `thread` (a ``ThreadOrdinal``) uses, held for the whole
  /// call: an object's `let` strings can then be handed on without retaining each of them.
  /// - Parameters:
  ///   - thread: The caller's ``ThreadOrdinal``.
  ///   - body: Reads the value.
  /// - Returns: What `body` returns.
  func withValue<R>(_ thread: Int, _ body: (Value) throws -> R) rethrows -> R {
    try body(values[thread % count])
  }
}
