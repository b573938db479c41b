#if canImport(SwiftUI)
  package import SwiftUI
#endif

extension Lock {
  /// A binding to the guarded state: what the demo, the helpers and the tests use where an app
  /// has `@State`. The lock lets `Binding`'s `@Sendable` closures share the state.
  package var binding: Binding<State> {
    Binding(get: { self.withLock { $0 } }, set: { newValue in self.withLock { $0 = newValue } })
  }
}
