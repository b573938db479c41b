#if !canImport(SwiftUI)
  extension Binding: Identifiable where Value: Identifiable {
    /// The value's id, as SwiftUI's `Binding` has it, so `ForEach` takes element bindings.
    public var id: Value.ID { wrappedValue.id }
  }
#endif
