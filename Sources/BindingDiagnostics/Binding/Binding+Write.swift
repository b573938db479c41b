#if canImport(SwiftUI)
  public import SwiftUI
#endif

extension Binding {
  /// Writes `newValue` through this binding with `transaction`, as
  /// `transaction(transaction).wrappedValue = newValue` does. On Linux it calls the setter
  /// directly, without copying the binding (and retaining its closures) for one write: the
  /// write checks' correct path.
  @inlinable
  func write(_ newValue: Value, with transaction: Transaction) {
    #if canImport(SwiftUI)
      self.transaction(transaction).wrappedValue = newValue
    #else
      setValue(newValue, transaction)
    #endif
  }

  /// The value now, read as `wrappedValue` does: on Linux the getter called directly.
  @inlinable
  var current: Value {
    #if canImport(SwiftUI)
      wrappedValue
    #else
      getValue()
    #endif
  }
}
