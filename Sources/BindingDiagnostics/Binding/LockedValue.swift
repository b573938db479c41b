#if canImport(SwiftUI)
  package import SwiftUI
#endif

/// A value behind a lock, and a binding to it: what the demo, the helpers and the tests use where
/// an app has `@State`. The lock lets `Binding`'s `@Sendable` closures share the value.
package final class LockedValue<Value: Sendable>: Sendable {
  private let lock: Lock<Value>

  /// A value to bind to.
  /// - Parameter value: The initial value.
  package init(_ value: Value) {
    lock = Lock(value)
  }

  /// The value now; setting it is what the app's own code does to its state.
  package var value: Value {
    get { lock.withLock { $0 } }
    set { lock.withLock { $0 = newValue } }
  }

  /// What `$property` gives a view.
  package var binding: Binding<Value> {
    Binding(get: { self.value }, set: { self.value = $0 })
  }
}
