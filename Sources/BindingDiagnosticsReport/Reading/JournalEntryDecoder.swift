import BindingDiagnostics

/// Turns journal entries into line classes, building each field's `String` only when its
/// bytes differ from recent entries (most fields repeat from entry to entry).
struct JournalEntryDecoder {
  private var caches = [StringCache](
    repeating: StringCache(), count: EventDecoder.journalFields.count)

  /// The entry as an event, or why it is not one. Values that are not valid UTF-8 are read
  /// with replacement characters: the journal stores bytes.
  mutating func classify(_ entry: JournalReader.Entry) -> LineClass {
    var values: [String?] = []
    values.reserveCapacity(entry.values.count)
    for (index, bytes) in entry.values.enumerated() {
      guard let bytes else {
        values.append(nil)
        continue
      }
      let slice = bytes.assumingMemoryBound(to: UInt8.self)
      let text = caches[index].string(slice, ascii: false) ?? String(decoding: slice, as: UTF8.self)
      values.append(text)
    }
    // kind, message_id and run: their formats were checked when these bytes were first seen.
    let formatFields = [3, 4, 16]
    let checked = formatFields.allSatisfy { entry.values[$0] != nil && caches[$0].checked }
    switch EventDecoder.decodeJournal(
      values, realtime: Int64(entry.realtime), formatsChecked: checked)
    {
    case .success(let event):
      for field in formatFields { caches[field].checked = true }
      return .event(event)
    case .failure(let reason):
      return .malformed(reason)
    }
  }
}
