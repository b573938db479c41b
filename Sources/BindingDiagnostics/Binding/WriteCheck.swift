#if canImport(SwiftUI)
  public import SwiftUI
#endif

/// What the write checks of one binding need: where it was made, whether on the main thread, and
/// the writes running through it now. One per binding the package makes (mapped, unwrapped,
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
///   replaced it (already reported), the binding was made saying its source normalises, or
///   another thread wrote through the binding meanwhile (its value is the one read). A value
///   not equal to itself (NaN) that reads back as another such value is not reported: `==`
///   cannot tell whether it stuck.
///
/// The correct path is a thread identity (`pthread_self()`), a comparison, the
/// ``WriteTracker``'s registration around the write, and the read-back; every report is out of
/// line in ``MappingReports``.
///
/// A binding made off the main thread may be written from several threads at once (a model on
/// Linux whose state is a ``LockedValue``): the tracker keeps the writes of different threads
/// apart without a data race. `reentered` belongs to the thread holding the tracker: only it
/// reads and writes it, and the tracker orders one holder's accesses before the next one's.
/// `@unchecked Sendable` on that condition.
///
/// The objects that hold a binding's state (``Unwrapped``, ``MappedFlag``, ``EquatableWrites``)
/// are write checks themselves, so a binding allocates one object, as before the checks; the
/// reports take the call site's values, not the object, so a binding that does not escape can
/// live on the stack.
@usableFromInline
class WriteCheck: @unchecked Sendable {
  /// The identity of the thread that made the binding when it is the main thread,
  /// ``ThreadIdentity/mainQueue`` when it was made by the main queue's work off the main thread
  /// (Linux), else 0 (not checked). A write from another thread is reported unless that thread
  /// counts as main (``ThreadIdentity/isMain(_:)``).
  @usableFromInline let owner: UInt
  /// The writes running through the binding.
  @usableFromInline let writes: WriteTracker
  /// Whether the running outermost write of the thread holding ``writes`` was re-entered.
  @exclusivity(unchecked) @usableFromInline final var reentered = false
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
    self.writes = WriteTracker()
    self.normalises = normalises
    self.label = label
    self.fileID = fileID
    self.line = line
    self.function = function
  }

  /// The checks as a write of `newValue` begins: the thread, then re-entrancy.
  /// - Parameter newValue: The value written, for the reports.
  /// - Returns: The write's ticket, to end it with; `nil` for a re-entrant write (reported once
  ///   per outermost write), which is not registered.
  @inlinable
  final func begin<Value>(_ newValue: Value) -> WriteTracker.Ticket? {
    let thread = ThreadIdentity.current()
    if thread != owner, owner != 0, !ThreadIdentity.isMain(thread) {
      MappingReports.offMainThread(
        newValue, label: label, fileID: fileID, line: line, function: function)
    }
    guard let ticket = writes.begin(thread) else {
      if !reentered {
        reentered = true
        MappingReports.reentrant(
          newValue, label: label, fileID: fileID, line: line, function: function)
      }
      return nil
    }
    if ticket.holds { reentered = false }
    return ticket
  }

  /// Runs the write `apply` behind the thread and re-entrancy checks.
  /// - Parameters:
  ///   - newValue: The value written, for the reports.
  ///   - apply: Writes.
  @inlinable
  final func write<Value>(_ newValue: Value, _ apply: () -> Void) {
    guard let ticket = begin(newValue) else { return apply() }
    apply()
    writes.end(ticket)
  }

  /// Runs the write `apply` behind the checks, then reads the source back through `verify`,
  /// while the write still counts as running.
  ///
  /// `verify` runs only when the write reached the source, was not re-entered and no other write
  /// was running beside it; `report` only when `verify` found a difference and no other write
  /// began before its read ended.
  /// - Parameters:
  ///   - newValue: The value written, for the reports.
  ///   - apply: Writes; returns whether the write reached the source (so a read-back means
  ///     something).
  ///   - verify: Reads the source; returns what it found when that is not what was written,
  ///     else `nil`.
  ///   - report: Reports what `verify` found.
  @inlinable
  final func write<Value, Found>(
    _ newValue: Value, _ apply: () -> Bool, verify: () -> Found?, report: (Found) -> Void
  ) {
    guard let ticket = begin(newValue) else {
      _ = apply()
      return
    }
    if apply(), ticket.alone, !reentered, let found = verify(), writes.isQuiet(since: ticket) {
      report(found)
    }
    writes.end(ticket)
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
    write(
      newValue, apply,
      verify: { () -> Value?? in
        guard !normalises else { return nil }
        let stored = read()
        return WriteCheck.differs(stored, from: newValue) ? .some(stored) : nil
      },
      report: { stored in
        MappingReports.notApplied(
          written: newValue, read: stored, label: label, fileID: fileID, line: line,
          function: function)
      })
  }

  /// Whether `stored`, read back after a write of `written`, shows that the write did not stick:
  /// it is `nil` (the source is gone), or another value. A value not equal to itself (NaN, or a
  /// value holding one) tells nothing by `==`: it differs only from a value that is equal to
  /// itself.
  @inlinable
  static func differs<Value: Equatable>(_ stored: Value?, from written: Value) -> Bool {
    guard let stored else { return true }
    return stored != written && (stored == stored || written == written)
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
      check.write(newValue) { set(newValue, transaction) }
    }
  }
}
