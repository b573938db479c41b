extension MisuseEvent {
  /// The event with its long fields cut (ending in `…`) so that its record, in any wire form,
  /// stays within ``JSONLinesFileSink/maxRecordBytes``: `msg` and `value` to 4 KiB; `label`,
  /// `file`, `function` and `value_type` to 512 bytes; `process` and `host` to 256. Escaping can
  /// grow a byte sixfold (`\u00XX`), and these budgets keep even that worst case under 64 KiB.
  func cutToRecordLimit() -> MisuseEvent {
    var cut = self
    cut.message = Truncation.cut(message, maxBytes: 4096)
    cut.value = value.map { Truncation.cut($0, maxBytes: 4096) }
    cut.label = label.map { Truncation.cut($0, maxBytes: 512) }
    cut.file = Truncation.cut(file, maxBytes: 512)
    cut.function = Truncation.cut(function, maxBytes: 512)
    cut.valueType = Truncation.cut(valueType, maxBytes: 512)
    cut.process = Truncation.cut(process, maxBytes: 256)
    cut.host = Truncation.cut(host, maxBytes: 256)
    return cut
  }
}
