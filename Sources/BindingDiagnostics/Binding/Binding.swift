#if !canImport(SwiftUI)
  /// A SwiftUI-compatible two-way connection to a value owned elsewhere, for platforms
  /// without SwiftUI. Where SwiftUI exists, its own `Binding` is extended instead.
  ///
  /// It has SwiftUI's surface: `init(get:set:)`, `wrappedValue` with a nonmutating setter,
  /// `projectedValue`, `init(projectedValue:)`, dynamic member lookup over writable key paths,
  /// `.constant(_:)` and the failable `init?(_:)`.
  @propertyWrapper
  @dynamicMemberLookup
  public struct Binding<Value> {
    @usableFromInline let getValue: () -> Value
    @usableFromInline let setValue: (Value) -> Void

    /// A binding that reads with `get` and writes with `set`.
    /// - Parameters:
    ///   - get: Returns the current value.
    ///   - set: Stores a new value.
    @inlinable
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
      self.getValue = get
      self.setValue = set
    }

    /// The value the binding refers to; setting it writes through without mutating the binding.
    @inlinable
    public var wrappedValue: Value {
      get { getValue() }
      nonmutating set { setValue(newValue) }
    }

    /// The binding itself, as `$property` gives it.
    @inlinable
    public var projectedValue: Binding<Value> { self }

    /// Wraps an existing binding, as `@Binding var x: T` initialised with `$x` does.
    /// - Parameter projectedValue: The binding.
    @inlinable
    public init(projectedValue: Binding<Value>) {
      self = projectedValue
    }

    /// A binding to a property of the value.
    /// - Parameter keyPath: A writable key path into `Value`.
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<
      Subject
    > {
      Binding<Subject>(
        get: { self.wrappedValue[keyPath: keyPath] },
        set: { newValue in
          var value = self.wrappedValue
          value[keyPath: keyPath] = newValue
          self.wrappedValue = value
        })
    }

    /// A binding to a value that never changes; writes are ignored.
    /// - Parameter value: The value.
    public static func constant(_ value: Value) -> Binding<Value> {
      Binding(get: { value }, set: { _ in })
    }

    /// SwiftUI's failable projection of an optional: `nil` when `base` is `nil` now.
    ///
    /// Like SwiftUI's, the result traps if read after `base` becomes `nil`; use
    /// ``Binding/init(unwrapping:label:fileID:line:function:)`` to get a report instead.
    /// - Parameter base: A binding to an optional.
    public init?(_ base: Binding<Value?>) {
      guard base.wrappedValue != nil else { return nil }
      self.init(get: { base.wrappedValue! }, set: { base.wrappedValue = $0 })
    }
  }
#endif
