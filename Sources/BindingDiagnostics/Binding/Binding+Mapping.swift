#if canImport(SwiftUI)
  public import SwiftUI
#endif

extension Binding where Value == Bool {
  /// A flag that reads `base != nil`; writing `false` sets `base` to `nil`, writing `true`
  /// changes nothing and reports ``MisuseKind/mappedBoolSetTrue``.
  ///
  /// The call site is captured here, so reports point at the view code that made the mapping.
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
    self.init(
      get: { base.wrappedValue != nil },
      set: { newValue in
        if !newValue {
          base.wrappedValue = nil
        } else {
          MappingReports.setTrue(
            current: base.wrappedValue, label: label, fileID: fileID, line: line,
            function: function)
        }
      })
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
  /// - Parameter defaultValue: The value stored on `true`, evaluated only then.
  /// - Returns: The flag.
  @inlinable
  public func mappedToBool<Wrapped>(
    default defaultValue: @autoclosure @escaping () -> Wrapped
  ) -> Binding<Bool> where Value == Wrapped? {
    Binding<Bool>(
      get: { self.wrappedValue != nil },
      set: { newValue in
        if !newValue {
          self.wrappedValue = nil
        } else if self.wrappedValue == nil {
          self.wrappedValue = defaultValue()
        }
      })
  }

  /// A binding to the wrapped value of an optional, or `nil` when the optional is `nil` now.
  ///
  /// Unlike SwiftUI's failable initializer, it never traps: it keeps the last non-`nil`
  /// value; a read after the optional became `nil` returns that value and reports
  /// ``MisuseKind/unwrappedReadAfterNil``; a write then is dropped and reports
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
    let last = LastValue(initial)
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
      set: { newValue in
        guard base.wrappedValue != nil else {
          MappingReports.afterNil(
            .unwrappedWriteAfterNil, last: newValue, label: label, fileID: fileID, line: line,
            function: function)
          return
        }
        base.wrappedValue = newValue
        last.value = newValue
      })
  }
}

/// The last non-`nil` value an unwrapped binding saw; shared by its getter and setter, which,
/// like the binding, are not `Sendable` and stay where the binding is used.
@usableFromInline
final class LastValue<Value> {
  @usableFromInline var value: Value
  @usableFromInline init(_ value: Value) { self.value = value }
}
