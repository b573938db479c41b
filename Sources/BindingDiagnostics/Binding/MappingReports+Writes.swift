extension MappingReports {
  /// Reports a write from another thread through a binding made on the main thread, unless the
  /// configuration turned the check off.
  @inlinable @inline(never)
  static func offMainThread<Value>(
    _ value: Value, label: String?, fileID: StaticString, line: UInt, function: StaticString
  ) {
    let diagnostics = DiagnosticsSystem.current
    guard diagnostics.configuration.checksMainThread else { return }
    diagnostics.record(
      .setOffMainThread,
      message: "A binding made on the main thread was written from another thread.",
      valueType: Value.self, valuePresent: true, value: { value }, label: label,
      fileID: fileID, line: line, function: function)
  }

  /// Reports a write that began while another write to the same binding ran on this thread.
  @inlinable @inline(never)
  static func reentrant<Value>(
    _ value: Value, label: String?, fileID: StaticString, line: UInt, function: StaticString
  ) {
    DiagnosticsSystem.current.record(
      .reentrantWrite,
      message:
        "A binding was written while a write to it was still running on the same thread; the inner write happened.",
      valueType: Value.self, valuePresent: true, value: { value }, label: label,
      fileID: fileID, line: line, function: function)
  }

  /// Reports a write whose read-back gave another value (`nil` when the source became `nil`).
  @inlinable @inline(never)
  static func notApplied<Value>(
    written: Value, read: Value?, label: String?, fileID: StaticString, line: UInt,
    function: StaticString
  ) {
    let readType = read.map { String(describing: type(of: $0)) } ?? "nil"
    DiagnosticsSystem.current.record(
      .writeNotApplied,
      message:
        "A write through a binding did not stick: reading it right after gave another value (wrote \(type(of: written)), read back \(readType)).",
      valueType: Value.self, valuePresent: read != nil,
      value: { WrittenAndRead(written: written, read: read) }, label: label,
      fileID: fileID, line: line, function: function)
  }

  /// Reports a `false` written to a `Binding<Bool>` mapped from an optional that left the
  /// optional non-`nil`.
  @inlinable @inline(never)
  static func falseNotApplied<Wrapped>(
    current: Wrapped?, label: String?, fileID: StaticString, line: UInt, function: StaticString
  ) {
    DiagnosticsSystem.current.record(
      .writeNotApplied,
      message:
        "A Binding<Bool> mapped from an optional was set to false, but the optional is still not nil.",
      valueType: Wrapped?.self, valuePresent: current != nil, value: { current },
      label: label, fileID: fileID, line: line, function: function)
  }
}

/// The `value` of a ``MisuseKind/writeNotApplied`` record: both values, rendered together under
/// the privacy setting.
@usableFromInline
struct WrittenAndRead<Value>: CustomStringConvertible {
  @usableFromInline let written: Value
  @usableFromInline let read: Value?

  @inlinable
  init(written: Value, read: Value?) {
    self.written = written
    self.read = read
  }

  @usableFromInline
  var description: String {
    "wrote \(String(describing: written)), read back \(read.map { String(describing: $0) } ?? "nil")"
  }
}
