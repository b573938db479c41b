extension MisuseEvent {
  /// The largest record a sink writes, in bytes, newline included: 64 KiB. Longer events are
  /// cut first (their long fields end in `…`).
  public static let maxRecordBytes = 65_536

  /// The event with its long fields cut (ending in `…`) so that its record, in any wire form,
  /// stays within ``maxRecordBytes``: each text field to its budget in the
  /// contract table (`msg` and `value` 4 KiB; `label`, `file`, `function` and `value_type`
  /// 512 bytes; `process` and `host` 256; `test` 64). Escaping can grow a byte sixfold
  /// (`\u00XX`), and these budgets keep even that worst case under 64 KiB.
  func cutToRecordLimit() -> MisuseEvent {
    var cut = self
    for field in ContractField.all { field.cut(&cut) }
    return cut
  }
}
