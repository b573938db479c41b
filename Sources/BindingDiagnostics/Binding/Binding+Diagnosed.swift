#if canImport(SwiftUI)
  public import SwiftUI
#endif

// `diagnosed` returns a binding of the same type, so an app can watch the bindings that matter
// without changing a view's types. On Linux the diagnosed binding reads with its base's own
// getter (a read costs what the base's does); SwiftUI's `Binding` offers no such access, so
// there it reads through a closure that reads the base.

extension Binding {
  /// This binding with its writes checked: a write from another thread to a binding made on the
  /// main thread reports ``MisuseKind/setOffMainThread``, a write that begins while another
  /// write to it runs on the same thread ``MisuseKind/reentrantWrite`` (the inner write still
  /// happens).
  ///
  /// Where `Value` is `Equatable`, the other overload of this method is chosen, which also reads
  /// each write back; it takes the same arguments, so that it is the one chosen.
  /// - Parameters:
  ///   - label: A name for this binding in reports.
  ///   - normalises: Has no effect here: a value that is not `Equatable` is not read back.
  ///   - fileID: Captured call site.
  ///   - line: Captured call site.
  ///   - function: Captured call site.
  /// - Returns: A binding to the same value, with the same transaction.
  @inlinable
  public func diagnosed(
    label: String? = nil, normalises: Bool = false, fileID: StaticString = #fileID,
    line: UInt = #line, function: StaticString = #function
  ) -> Binding<Value> {
    nonisolated(unsafe) let base = self
    let check = WriteCheck(label: label, fileID: fileID, line: line, function: function)
    return Binding.checked(base) { newValue, transaction in
      check.write(newValue) { base.write(newValue, with: transaction) }
    }
  }

  /// A binding reading as `base` does and writing with `set`, with `base`'s transaction.
  @inlinable
  @preconcurrency
  static func checked(
    _ base: Binding<Value>, set: @escaping @Sendable (Value, Transaction) -> Void
  ) -> Binding<Value> {
    #if canImport(SwiftUI)
      nonisolated(unsafe) let base = base
      var binding = Binding(get: { base.wrappedValue }, set: set)
      binding.transaction = base.transaction
      return binding
    #else
      Binding(transaction: base.transaction, getValue: base.getValue, setValue: set)
    #endif
  }
}

extension Binding where Value: Equatable {
  /// This binding with its writes checked, each write read back once: a value other than the
  /// one written reports ``MisuseKind/writeNotApplied`` (a `.constant`, a setter that drops or
  /// redirects the write, a stale copy of the source); writes from another thread and
  /// re-entrant writes are reported too, as for any value.
  ///
  /// A source that legitimately stores another value than the one written (it clamps, trims or
  /// rounds) says so with `normalises: true`: its writes are not read back, the other checks
  /// stay.
  ///
  /// ```swift
  /// TextField("Title", text: $model.title.diagnosed(label: "title"))
  /// Stepper("Age", value: $model.age.diagnosed(label: "age", normalises: true))  // clamps to 0...120
  /// ```
  /// - Parameters:
  ///   - label: A name for this binding in reports.
  ///   - normalises: Whether the source may store another value than the one written; `false`
  ///     by default.
  ///   - fileID: Captured call site.
  ///   - line: Captured call site.
  ///   - function: Captured call site.
  /// - Returns: A binding to the same value, with the same transaction.
  @inlinable
  public func diagnosed(
    label: String? = nil, normalises: Bool = false, fileID: StaticString = #fileID,
    line: UInt = #line, function: StaticString = #function
  ) -> Binding<Value> {
    let writes = EquatableWrites(
      base: self, label: label, normalises: normalises, fileID: fileID, line: line,
      function: function)
    return Binding.checked(self, set: writes.set)
  }
}

/// The setter of an `Equatable` diagnosed binding: a method, referenced where `Value`'s
/// conformance is known, so the `@Sendable` closure `Binding` takes captures no generic
/// metatype. `@unchecked Sendable` as ``Unwrapped`` is.
@usableFromInline
final class EquatableWrites<Value: Equatable>: WriteCheck, @unchecked Sendable {
  @usableFromInline let base: Binding<Value>

  @inlinable
  init(
    base: Binding<Value>, label: String?, normalises: Bool, fileID: StaticString, line: UInt,
    function: StaticString
  ) {
    self.base = base
    super.init(
      label: label, normalises: normalises, fileID: fileID, line: line, function: function)
  }

  /// Writes `newValue` to the base behind the write checks, then reads it back once.
  @inlinable
  func set(_ newValue: Value, _ transaction: Transaction) {
    write(newValue, readBack: { base.current }) {
      base.write(newValue, with: transaction)
      return true
    }
  }
}
