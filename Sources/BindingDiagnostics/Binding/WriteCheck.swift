#if canImport(SwiftUI)
  public import SwiftUI
#endif

/// What the write checks of one binding need: where it was made, whether on the main thread, and
/// which thread is writing through it now. One per binding the package makes (mapped, unwrapped,
/// element, `diagnosed(label:normalises:)`), shared by its copies.
///
/// A write through a checked binding:
/// - reports ``MisuseKind/setOffMainThread`` when the binding was made on the main thread and
///   the write comes from another one (unless the configuration turned the check off);
/// - reports ``MisuseKind/reentrantWrite`` when it begins while a write to the same binding is
///   still running on the same thread (once per outermost write, however deep the nesting), and
///   still happens;
/// - for an `Equatable` value, reads the binding once afterwards and reports
///   ``MisuseKind/writeNotApplied`` when it reads another value, unless a re-entrant write
///   replaced it (already reported) or the binding was made saying its source normalises.
///
/// The correct path is a thread identity (`pthread_self()`), two comparisons and two stores
/// around the write, and the read-back; every report is out of line in ``MappingReports``.
///
/// Unlocked, like ``ElementLocation`` and the unwrapped binding's last value: a binding is used
/// where its base is, one thread at a time. `writer` and `reentered` are read and written by
/// another thread only in the misuse reported as ``MisuseKind/setOffMainThread``, where the
/// base's own storage races too; a word-sized store there can make a re-entrant write go
/// unreported, never report one that was not (only a thread stores its own identity in `writer`,
/// and it clears it when its outermost write ends). `@unchecked Sendable` on that condition.
///
/// The objects that hold a binding's state (``Unwrapped``, ``MappedFlag``, ``EquatableWrites``)
/// are write checks themselves, so a binding allocates one object, as before the checks; the
/// reports take the call site's values, not the object, so a binding that does not escape can
/// live on the stack.
@usableFromInline
class WriteCheck: @unchecked Sendable {
  /// The identity of the thread that made the binding when it is the main thread, else 0 (not
  /// checked).
  @usableFromInline let owner: UInt
  /// The thread inside a write through the binding, or 0.
  @exclusivity(unchecked) @usableFromInline var writer: UInt = 0
  /// Whether the running outermost write was re-entered.
  @exclusivity(unchecked) @usableFromInline var reentered = false
  /// Whether the source may store another value than the one written.
  @usableFromInline let normalises: Bool
  @usableFromInline let label: String?
  @usableFromInline let fileID: StaticString
  @usableFromInline let line: UInt
  @usableFromInline let function: StaticString

  @inlinable
  init(
    label: String?, normalises: Bool = false, fileID: StaticString, line: UInt,
    function: StaticString
  ) {
    self.owner = ThreadIdentity.mainOrZero()
    self.normalises = normalises
    self.label = label
    self.fileID = fileID
    self.line = line
    self.function = function
  }

  /// Runs the write `apply` behind the thread and re-entrancy checks.
  /// - Parameters:
  ///   - newValue: The value written, for the reports.
  ///   - apply: Writes; returns whether the write reached the source (so a read-back means
  ///     something).
  /// - Returns: Whether the write reached the source and no re-entrant write replaced it.
  @inlinable
  final func write<Value>(_ newValue: Value, _ apply: () -> Bool) -> Bool {
    let thread = ThreadIdentity.current()
    if thread != owner, owner != 0 {
      MappingReports.offMainThread(
        newValue, label: label, fileID: fileID, line: line, function: function)
    }
    guard writer != thread else {
      if !reentered {
        reentered = true
        MappingReports.reentrant(
          newValue, label: label, fileID: fileID, line: line, function: function)
      }
      _ = apply()
      return false
    }
    writer = thread
    reentered = false
    let applied = apply()
    writer = 0
    return applied && !reentered
  }

  /// Runs the write `apply` behind the checks, then reads the binding once and reports a value
  /// other than `newValue`.
  /// - Parameters:
  ///   - newValue: The value written.
  ///   - read: Reads the binding's value now, without reporting (`nil`: the source is gone).
  ///   - apply: Writes; returns whether the write reached the source.
  @inlinable
  final func write<Value: Equatable>(
    _ newValue: Value, readBack read: () -> Value?, _ apply: () -> Bool
  ) {
    guard write(newValue, apply), !normalises else { return }
    let stored = read()
    if stored != newValue {
      MappingReports.notApplied(
        written: newValue, read: stored, label: label, fileID: fileID, line: line,
        function: function)
    }
  }

  /// `set` behind the write checks: how element bindings are made.
  /// - Parameters:
  ///   - set: The binding's own setter.
  ///   - label: A name for the binding in reports.
  ///   - fileID: Captured call site.
  ///   - line: Captured call site.
  ///   - function: Captured call site.
  /// - Returns: A setter to make the binding with.
  @inlinable
  @preconcurrency
  static func checking<Value>(
    _ set: @escaping @Sendable (Value, Transaction) -> Void, label: String?,
    fileID: StaticString, line: UInt, function: StaticString
  ) -> @Sendable (Value, Transaction) -> Void {
    let check = WriteCheck(label: label, fileID: fileID, line: line, function: function)
    return { newValue, transaction in
      _ = check.write(newValue) {
        set(newValue, transaction)
        return true
      }
    }
  }
}
