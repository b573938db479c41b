/// One value per group of threads (thread `n` uses value `n % count`), in raw memory so that
/// reading one retains no shared array: threads misusing at once then do not write the same
/// reference counts. The owner frees them with ``deallocate()``.
///
/// `@unchecked Sendable`: the slots are written once, in `init`, and only read after that (a
/// value that changes is a class that guards itself).
struct PerThread<Value: Sendable>: @unchecked Sendable {
  private let values: UnsafeMutablePointer<Value>
  private let count: Int

  /// `count` values, each made by `make`.
  /// - Parameters:
  ///   - count: How many groups of threads.
  ///   - make: Makes one value (with storage of its own).
  init(count: Int, _ make: () -> Value) {
    self.count = count
    values = .allocate(capacity: count)
    for index in 0..<count { (values + index).initialize(to: make()) }
  }

  /// The value thread `thread` (a ``ThreadOrdinal``) uses.
  subscript(thread: Int) -> Value { values[thread % count] }

  /// Every value, in order.
  var all: [Value] { (0..<count).map { values[$0] } }

  /// Frees the values; called once, by the owner's `deinit`.
  func deallocate() {
    values.deinitialize(count: count)
    values.deallocate()
  }
}
