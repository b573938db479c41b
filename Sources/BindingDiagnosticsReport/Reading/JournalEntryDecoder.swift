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
      let text = bytes.withUnsafeBufferPointer { slice in
        caches[index].string(slice, ascii: false) ?? String(decoding: slice, as: UTF8.self)
      }
      values.append(text)
    }
    switch EventDecoder.decodeJournal(values, realtime: Int64(entry.realtime)) {
    case .success(let event): return .event(event)
    case .failure(let reason): return .malformed(reason)
    }
  }
}
