#if canImport(SwiftUI)
  public import SwiftUI
#endif

// The mappings' closures are `@Sendable`, as `Binding(get:set:)` requires. They capture the base
// binding, which is `Sendable` only when its value is, so each mapping holds it as a
// `nonisolated(unsafe)` constant: the mapped binding is used where the base would be (SwiftUI
// checks at run time that a binding is used in its closures' isolation), and it only forwards to
// the base. A mapped binding starts with the base's transaction, and its writes go through
// `base.write(_:with:)` (the base with the write's transaction), so a transaction (an animation)
// set on either reaches the base.

extension Binding where Value == Bool {
  /// A flag that reads `base != nil`; writing `false` sets `base` to `nil`, writing `true`
  /// changes nothing and reports ``MisuseKind/mappedBoolSetTrue``.
  ///
  /// The call site is captured here, so reports point at the view code that made the mapping.
  /// A write carries its transaction to `base`. Writes are checked as
  /// `diagnosed(label:normalises:)` checks them: a `false` that
  /// leaves `base` non-`nil` reports ``MisuseKind/writeNotApplied``, a write from another thread
  /// to a flag made on the main thread ``MisuseKind/setOffMainThread``, a write inside a write
  /// ``MisuseKind/reentrantWrite``.
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
    let flag = MappedFlag(base, label: label, fileID: fileID, line: line, function: function)
    self.init(get: flag.get, set: flag.set)
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
  /// (and keeps a present value), so no write is a misuse of the mapping; writes are checked as
  /// ``Binding/init(mappedTo:label:fileID:line:function:)``'s are.
  /// - Parameters:
  ///   - defaultValue: The value stored on `true`, evaluated only then, wherever the flag is
  ///     written.
  ///   - label: A name for this mapping in reports.
  ///   - fileID: Captured call site.
  ///   - line: Captured call site.
  ///   - function: Captured call site.
  /// - Returns: The flag.
  @inlinable
  public func mappedToBool<Wrapped>(
    default defaultValue: @autoclosure @escaping @Sendable () -> Wrapped, label: String? = nil,
    fileID: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
  ) -> Binding<Bool> where Value == Wrapped? {
    nonisolated(unsafe) let base = self
    let check = WriteCheck(label: label, fileID: fileID, line: line, function: function)
    var flag = Binding<Bool>(
      get: { base.wrappedValue != nil },
      set: { newValue, transaction in
        check.write(newValue, readBack: { base.wrappedValue != nil }) {
          if !newValue {
            base.write(nil, with: transaction)
          } else if base.wrappedValue == nil {
            base.write(defaultValue(), with: transaction)
          }
          return true
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
  /// ``MisuseKind/unwrappedWriteAfterNil``. A write from another thread to a binding made on the
  /// main thread reports ``MisuseKind/setOffMainThread``, a write inside a write
  /// ``MisuseKind/reentrantWrite``; where `Value` is `Equatable`, a write that does not read back
  /// ``MisuseKind/writeNotApplied``.
  /// - Parameters:
  ///   - base: A binding to an optional.
  ///   - label: A name for this mapping in reports.
  ///   - normalises: Has no effect here: a value that is not `Equatable` is not read back.
  ///   - fileID: Captured call site.
  ///   - line: Captured call site.
  ///   - function: Captured call site.
  @inlinable
  public init?(
    unwrapping base: Binding<Value?>, label: String? = nil, normalises: Bool = false,
    fileID: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
  ) {
    guard let initial = base.wrappedValue else { return nil }
    let unwrapped = Unwrapped(
      initial, base: base, label: label, normalises: normalises, fileID: fileID, line: line,
      function: function)
    self.init(get: unwrapped.get, set: unwrapped.write)
    transaction = base.transaction
  }
}

extension Binding where Value: Equatable {
  /// A binding to the wrapped value of an optional, or `nil` when the optional is `nil` now; as
  /// the general `init(unwrapping:label:normalises:fileID:line:function:)`, and a write that
  /// does not read back (a source that dropped or changed it) reports
  /// ``MisuseKind/writeNotApplied``.
  ///
  /// A source that legitimately stores another value than the one written (it clamps, trims or
  /// rounds) says so with `normalises: true`, as for `diagnosed(label:normalises:)`: its writes
  /// are not read back, the other checks stay.
  /// - Parameters:
  ///   - base: A binding to an optional.
  ///   - label: A name for this mapping in reports.
  ///   - normalises: Whether the source may store another value than the one written; `false`
  ///     by default.
  ///   - fileID: Captured call site.
  ///   - line: Captured call site.
  ///   - function: Captured call site.
  @inlinable
  public init?(
    unwrapping base: Binding<Value?>, label: String? = nil, normalises: Bool = false,
    fileID: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
  ) {
    guard let initial = base.wrappedValue else { return nil }
    let unwrapped = Unwrapped(
      initial, base: base, label: label, normalises: normalises, fileID: fileID, line: line,
      function: function)
    self.init(get: unwrapped.get, set: unwrapped.writeReadingBack)
    transaction = base.transaction
  }
}

/// An unwrapped binding's state: the base, the last non-`nil` value it saw, and its write
/// check, which holds the call site. Its getter and setter are this object's methods, passed as
/// method references: made where `Value`'s conformances are known, they reach the specialised
/// methods, and the `@Sendable` closures `Binding` takes capture no generic metatype.
///
/// Unlocked, like the base binding's own storage: the binding is used where its base is, one
/// thread at a time. `@unchecked Sendable` on that condition, as `Binding` itself is.
@usableFromInline
final class Unwrapped<Value>: WriteCheck, @unchecked Sendable {
  @exclusivity(unchecked) @usableFromInline var last: Value
  @usableFromInline let base: Binding<Value?>

  @inlinable
  init(
    _ value: Value, base: Binding<Value?>, label: String?, normalises: Bool,
    fileID: StaticString, line: UInt, function: StaticString
  ) {
    self.last = value
    self.base = base
    super.init(
      label: label, normalises: normalises, fileID: fileID, line: line, function: function)
  }

  /// The value now, or the last one (reported) after the optional became `nil`.
  @inlinable
  func get() -> Value {
    if let value = base.wrappedValue {
      last = value
      return value
    }
    MappingReports.afterNil(
      .unwrappedReadAfterNil, last: last, label: label, fileID: fileID, line: line,
      function: function)
    return last
  }

  /// Writes behind the write checks.
  @inlinable
  func write(_ newValue: Value, _ transaction: Transaction) {
    write(newValue) { _ = store(newValue, transaction) }
  }

  /// Writes the value, or drops the write (reported) after the optional became `nil`.
  /// - Returns: Whether the write reached `base`.
  @inlinable
  func store(_ newValue: Value, _ transaction: Transaction) -> Bool {
    guard base.wrappedValue != nil else {
      MappingReports.afterNil(
        .unwrappedWriteAfterNil, last: newValue, label: label, fileID: fileID, line: line,
        function: function)
      return false
    }
    base.write(newValue, with: transaction)
    last = newValue
    return true
  }
}

extension Unwrapped where Value: Equatable {
  /// Writes behind the write checks, and reads the base back once.
  @inlinable
  func writeReadingBack(_ newValue: Value, _ transaction: Transaction) {
    write(newValue, readBack: { base.wrappedValue }) { store(newValue, transaction) }
  }
}

/// A flag mapped from an optional (``Binding/init(mappedTo:label:fileID:line:function:)``): the
/// base and the write check, one object, whose getter and setter the binding is made with.
/// `@unchecked Sendable` as ``Unwrapped`` is.
@usableFromInline
final class MappedFlag<Wrapped>: WriteCheck, @unchecked Sendable {
  @usableFromInline let base: Binding<Wrapped?>

  @inlinable
  init(
    _ base: Binding<Wrapped?>, label: String?, fileID: StaticString, line: UInt,
    function: StaticString
  ) {
    self.base = base
    super.init(label: label, fileID: fileID, line: line, function: function)
  }

  /// Whether the optional holds a value.
  @inlinable
  func get() -> Bool { base.wrappedValue != nil }

  /// `false` clears the optional (read back: still present is ``MisuseKind/writeNotApplied``);
  /// `true` changes nothing and reports ``MisuseKind/mappedBoolSetTrue``.
  @inlinable
  func set(_ newValue: Bool, _ transaction: Transaction) {
    write(
      newValue,
      {
        if newValue {
          MappingReports.setTrue(
            current: base.wrappedValue, label: label, fileID: fileID, line: line,
            function: function)
          return false
        }
        base.write(nil, with: transaction)
        return true
      },
      verify: { base.wrappedValue },
      report: { current in
        MappingReports.falseNotApplied(
          current: current, label: label, fileID: fileID, line: line, function: function)
      })
  }
}
