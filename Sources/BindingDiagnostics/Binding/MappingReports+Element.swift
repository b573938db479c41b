extension MappingReports {
  /// Reports a read (with the last value) or a write (with the value dropped) of an element
  /// binding whose element left its collection.
  @inlinable @inline(never)
  static func afterRemoval<Element>(
    _ kind: MisuseKind, value: Element, label: String?, fileID: StaticString, line: UInt,
    function: StaticString
  ) {
    let message =
      kind == .elementReadAfterRemoval
      ? "A binding to a collection element was read after the element was removed; the last value was returned."
      : "A binding to a collection element was written after the element was removed; the write was dropped."
    DiagnosticsSystem.current.record(
      kind, message: message, valueType: Element.self, valuePresent: false, value: { value },
      label: label, fileID: fileID, line: line, function: function)
  }
}
