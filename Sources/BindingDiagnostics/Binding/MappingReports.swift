/// The misuse reports of the mappings, kept out of line so the correct paths stay small.
///
/// Inlinable, so each is specialized for the app's value type (no type metadata looked up per
/// report), yet never inlined into a mapping's closure.
@usableFromInline
enum MappingReports {
  @inlinable @inline(never)
  static func setTrue<Wrapped>(
    current: Wrapped?, label: String?, fileID: StaticString, line: UInt, function: StaticString
  ) {
    DiagnosticsSystem.current.record(
      .mappedBoolSetTrue,
      message: "A Binding<Bool> mapped from an optional was set to true; the write had no effect.",
      valueType: Wrapped?.self, valuePresent: current != nil, value: { current },
      label: label, fileID: fileID, line: line, function: function)
  }

  @inlinable @inline(never)
  static func afterNil<Wrapped>(
    _ kind: MisuseKind, last: Wrapped, label: String?, fileID: StaticString, line: UInt,
    function: StaticString
  ) {
    let message =
      kind == .unwrappedReadAfterNil
      ? "A binding unwrapped from an optional was read after it became nil; the last value was returned."
      : "A binding unwrapped from an optional was written after it became nil; the write was dropped."
    DiagnosticsSystem.current.record(
      kind, message: message, valueType: Wrapped?.self, valuePresent: false, value: { last },
      label: label, fileID: fileID, line: line, function: function)
  }
}
