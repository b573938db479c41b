#if !canImport(SwiftUI)
  /// A SwiftUI-compatible two-way connection to a value owned elsewhere, for platforms
  /// without SwiftUI. Where SwiftUI exists, its own `Binding` is extended instead.
  ///
  /// It has the shape of SwiftUI's current `Binding`: `init(get:set:)` with `@Sendable` closures,
  /// with a plain setter or one that receives the write's ``Transaction``; `Sendable` where
  /// `Value` is; `wrappedValue` with a nonmutating setter, `projectedValue`,
  /// `init(projectedValue:)`, ``transaction`` and ``transaction(_:)``, dynamic member lookup over
  /// writable key paths, `.constant(_:)` and the failable `init?(_:)`. SwiftUI's closures are
  /// also `@isolated(any)`, so a closure written in a main-actor view may touch main-actor state;
  /// Swift offers no sanctioned way to call such a closure synchronously, so here they are plain
  /// `@Sendable` closures, which accept strictly less: code that compiles against this `Binding`
  /// compiles against SwiftUI's.
  @propertyWrapper
  @dynamicMemberLookup
  public struct Binding<Value> {
    /// The transaction a write through this binding hands to its setter.
    public var transaction: Transaction
    @usableFromInline let getValue: () -> Value
    @usableFromInline let setValue: (Value, Transaction) -> Void

    @inlinable
    init(
      transaction: Transaction, getValue: @escaping () -> Value,
      setValue: @escaping (Value, Transaction) -> Void
    ) {
      self.transaction = transaction
      self.getValue = getValue
      self.setValue = setValue
    }

    /// A binding that reads with `get` and writes with `set`.
    /// - Parameters:
    ///   - get: Returns the current value.
    ///   - set: Stores a new value.
    @inlinable
    @preconcurrency
    public init(get: @escaping @Sendable () -> Value, set: @escaping @Sendable (Value) -> Void) {
      self.init(transaction: Transaction(), getValue: get, setValue: { value, _ in set(value) })
    }

    /// A binding that reads with `get` and writes with `set`, which also receives the
    /// transaction of the write.
    /// - Parameters:
    ///   - get: Returns the current value.
    ///   - set: Stores a new value under the given transaction.
    @inlinable
    @preconcurrency
    public init(
      get: @escaping @Sendable () -> Value, set: @escaping @Sendable (Value, Transaction) -> Void
    ) {
      self.init(transaction: Transaction(), getValue: get, setValue: set)
    }

    /// The value the binding refers to; setting it writes through, with ``transaction``,
    /// without mutating the binding.
    @inlinable
    public var wrappedValue: Value {
      get { getValue() }
      nonmutating set { setValue(newValue, transaction) }
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

    /// A binding to a property of the value, writing with this binding's transaction.
    /// - Parameter keyPath: A writable key path into `Value`.
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<
      Subject
    > {
      Binding<Subject>(
        transaction: transaction, getValue: { self.wrappedValue[keyPath: keyPath] },
        setValue: { newValue, transaction in
          var value = self.wrappedValue
          value[keyPath: keyPath] = newValue
          self.transaction(transaction).wrappedValue = value
        })
    }

    /// A binding to a value that never changes; writes are ignored.
    /// - Parameter value: The value.
    public static func constant(_ value: Value) -> Binding<Value> {
      Binding(transaction: Transaction(), getValue: { value }, setValue: { _, _ in })
    }

    /// This binding with `transaction` for its writes.
    /// - Parameter transaction: The transaction writes will carry.
    /// - Returns: A binding to the same value.
    @inlinable
    public func transaction(_ transaction: Transaction) -> Binding<Value> {
      var binding = self
      binding.transaction = transaction
      return binding
    }

    /// SwiftUI's failable projection of an optional: `nil` when `base` is `nil` now.
    ///
    /// Like SwiftUI's, the result traps if read after `base` becomes `nil`; use
    /// `init(unwrapping:label:normalises:fileID:line:function:)` to get a report instead.
    /// - Parameter base: A binding to an optional.
    public init?(_ base: Binding<Value?>) {
      guard base.wrappedValue != nil else { return nil }
      self.init(
        transaction: base.transaction, getValue: { base.wrappedValue! },
        setValue: { base.transaction($1).wrappedValue = $0 })
    }
  }

  // `@unchecked`, as in SwiftUI: passing the binding is safe when `Value` is `Sendable`; the
  // closures its public initialisers take are `@Sendable`, and its transaction is a value.
  extension Binding: @unchecked Sendable where Value: Sendable {}
#endif
