#if canImport(SwiftUI)
  public import SwiftUI
#endif

// The mappings' closures are `@Sendable`, as `Binding(get:set:)` requires. They capture the base
// binding, which is `Sendable` only when its value is, so each mapping holds it as a
// `nonisolated(unsafe)` constant: the mapped binding is used where the base would be (SwiftUI
// checks at run time that a binding is used in its closures' isolation), and it only forwards to
// the base. A mapped binding starts with the base's transaction, and its writes go through
// `base.transaction(transaction)`, so a transaction (an animation) set on either reaches the base.

extension Binding where Value == Bool {
  /// A flag that reads `base != nil`; writing `false` sets `base` to `nil`, writing `true`
  /// changes nothing and reports ``MisuseKind/mappedBoolSetTrue``.
  ///
  /// The call site is captured here, so reports point at the view code that made the mapping.
  /// A write carries its transaction to `base`.
  /// - Parameters:
  ///   - base: A binding to an optional.
  ///   - label: A name for this mapping in reports.
  ///   - fileID: Captured call site.
  ///   - line: Captured call site.
  ///   - function: Captured call site.
  @inlinable
  public init<Wrapped>(
    mappedTo base: Binding<Wrapped?>, label: String? = nil, fileID: StaticString = #fileID,
    line: UInt = #line, function: StaticString = #function
  ) {
    nonisolated(unsafe) let base = base
    self.init(
      get: { base.wrappedValue != nil },
      set: { newValue, transaction in
        if !newValue {
          base.transaction(transaction).wrappedValue = nil
        } else {
          MappingReports.setTrue(
            current: base.wrappedValue, label: label, fileID: fileID, line: line,
            function: function)
        }
      })
    transaction = base.transaction
  }
}

extension Binding {
  /// `Binding<Bool>(mappedTo: self)`: a presentation flag for an optional.
  /// - Parameters:
  ///   - label: A name for this mapping in reports.
  ///   - fileID: Captured call site.
  ///   - line: Captured call site.
  ///   - function: Captured call site.
  /// - Returns: A flag reading `self != nil`; see ``Binding/init(mappedTo:label:fileID:line:function:)``.
  @inlinable
  public func mappedToBool<Wrapped>(
    label: String? = nil, fileID: StaticString = #fileID, line: UInt = #line,
    function: StaticString = #function
  ) -> Binding<Bool> where Value == Wrapped? {
    Binding<Bool>(mappedTo: self, label: label, fileID: fileID, line: line, function: function)
  }

  /// A flag reading `self != nil` where writing `true` stores `default` when `self` is `nil`
  /// (and keeps a present value), so no write is a misuse.
  /// - Parameter defaultValue: The value stored on `true`, evaluated only then, wherever the
  ///   flag is written.
  /// - Returns: The flag.
  @inlinable
  public func mappedToBool<Wrapped>(
    default defaultValue: @autoclosure @escaping @Sendable () -> Wrapped
  ) -> Binding<Bool> where Value == Wrapped? {
    nonisolated(unsafe) let base = self
    var flag = Binding<Bool>(
      get: { base.wrappedValue != nil },
      set: { newValue, transaction in
        if !newValue {
          base.transaction(transaction).wrappedValue = nil
        } else if base.wrappedValue == nil {
          base.transaction(transaction).wrappedValue = defaultValue()
        }
      })
    flag.transaction = transaction
    return flag
  }

  /// A binding to the wrapped value of an optional, or `nil` when the optional is `nil` now.
  ///
  /// Unlike SwiftUI's failable initializer, it never traps: it keeps the last non-`nil`
  /// value; a read after the optional became `nil` returns that value and reports
  /// ``MisuseKind/unwrappedReadAfterNil`` (level `info` by default: SwiftUI does this while it
  /// animates a dismissal); a write then is dropped and reports
  /// ``MisuseKind/unwrappedWriteAfterNil``.
  /// - Parameters:
  ///   - base: A binding to an optional.
  ///   - label: A name for this mapping in reports.
  ///   - fileID: Captured call site.
  ///   - line: Captured call site.
  ///   - function: Captured call site.
  @inlinable
  public init?(
    unwrapping base: Binding<Value?>, label: String? = nil, fileID: StaticString = #fileID,
    line: UInt = #line, function: StaticString = #function
  ) {
    guard let initial = base.wrappedValue else { return nil }
    nonisolated(unsafe) let base = base
    nonisolated(unsafe) let last = LastValue(initial)
    self.init(
      get: {
        if let value = base.wrappedValue {
          last.value = value
          return value
        }
        MappingReports.afterNil(
          .unwrappedReadAfterNil, last: last.value, label: label, fileID: fileID, line: line,
          function: function)
        return last.value
      },
      set: { newValue, transaction in
        guard base.wrappedValue != nil else {
          MappingReports.afterNil(
            .unwrappedWriteAfterNil, last: newValue, label: label, fileID: fileID, line: line,
            function: function)
          return
        }
        base.transaction(transaction).wrappedValue = newValue
        last.value = newValue
      })
    transaction = base.transaction
  }
}

/// The last non-`nil` value an unwrapped binding saw; shared by its getter and setter, which run
/// where the binding is used, like the base binding's own storage (so, like it, unlocked).
@usableFromInline
final class LastValue<Value> {
  @usableFromInline var value: Value
  @usableFromInline init(_ value: Value) { self.value = value }
}
