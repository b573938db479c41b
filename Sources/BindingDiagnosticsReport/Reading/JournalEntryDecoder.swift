import BindingDiagnostics

/// Turns journal entries into line classes straight from the journal's bytes: numbers and the
/// time are parsed in place, and a text field's `String` is built only when its bytes differ
/// from recent entries (most fields repeat from entry to entry).
struct JournalEntryDecoder {
  private var caches = [StringCache](
    repeating: StringCache(), count: EventDecoder.journalFields.count)
  /// The current entry's text fields; kept between entries so no array is made per entry.
  private var texts = [String?](repeating: nil, count: EventDecoder.journalFields.count)

  /// Whether ``EventDecoder/journalFields`` holds a number at `index` (the contract's integers,
  /// and the trusted uid; the boot id is read apart, as bytes).
  private static let isInteger = ContractField.all.map { $0.type == .integer } + [true, true]
  /// Where `BINDING_TS` is: the time is parsed from bytes, not cached as text.
  private static let timestampIndex = ContractField.index(of: .timestamp)
  /// Where journald's trusted `_PID` is.
  private static let pidIndex = ContractField.index(of: .pid)

  /// Who journald says wrote an entry: its trusted `_UID`, `_PID` and `_BOOT_ID`, which a
  /// sender cannot choose (`nil` parts where the entry lacks them, as in a file made from
  /// export format without them).
  struct Identity: Hashable {
    var uid: Int?
    var pid: Int?
    var boot: [UInt8]?
  }

  /// The trusted identity of `entry`.
  static func identity(of entry: JournalReader.Entry) -> Identity {
    let values = entry.values
    return Identity(
      uid: values[EventDecoder.uidIndex].flatMap(integer),
      pid: values[pidIndex].flatMap(integer),
      boot: values[EventDecoder.bootIndex].map { Array($0.assumingMemoryBound(to: UInt8.self)) })
  }
  /// kind, message_id and run: their formats are checked once per distinct value.
  private static let formatFields = [ContractField.ID.kind, .messageID, .run].map(
    ContractField.index(of:))

  /// The entry as an event, or why it is not one. A field that is not valid UTF-8 makes it
  /// malformed, as the same bytes do in a JSON or logfmt line (the journal stores bytes).
  mutating func classify(_ entry: JournalReader.Entry) -> LineClass {
    let values = entry.values
    for index in texts.indices { texts[index] = nil }
    for (index, bytes) in values.enumerated()
    where !JournalEntryDecoder.isInteger[index] {
      // The time is parsed from bytes below; the cache would only ever miss on it.
      guard let bytes, index != JournalEntryDecoder.timestampIndex else { continue }
      let slice = bytes.assumingMemoryBound(to: UInt8.self)
      guard let text = caches[index].string(slice, ascii: false) else {
        return .malformed(EventDecoder.invalidUTF8(in: EventDecoder.journalFields[index]))
      }
      texts[index] = text
    }
    var timestamp: Timestamp?
    if let bytes = values[JournalEntryDecoder.timestampIndex] {
      let slice = bytes.assumingMemoryBound(to: UInt8.self)
      timestamp = Timestamp(contractBytes: slice)
      if timestamp == nil {
        guard let text = String(validating: slice, as: UTF8.self) else {
          return .malformed(
            EventDecoder.invalidUTF8(
              in: EventDecoder.journalFields[JournalEntryDecoder.timestampIndex]))
        }
        texts[JournalEntryDecoder.timestampIndex] = text
      }
    }
    let checked = JournalEntryDecoder.formatFields.allSatisfy {
      values[$0] != nil && caches[$0].checked
    }
    let decoded = EventDecoder.decodeJournal(
      text: { texts[$0] },
      integer: { index in values[index].map { JournalEntryDecoder.integer($0) } },
      timestamp: timestamp, realtime: Int64(entry.realtime), formatsChecked: checked)
    switch decoded {
    case .success(let event):
      for field in JournalEntryDecoder.formatFields { caches[field].checked = true }
      return .event(event)
    case .failure(let reason):
      return .malformed(reason)
    }
  }

  /// A decimal integer (optional `-`, 1 to 18 digits) from bytes, or `nil`.
  static func integer(_ bytes: UnsafeRawBufferPointer) -> Int? {
    var index = 0
    var negative = false
    if bytes.count > 0 && bytes[0] == UInt8(ascii: "-") {
      negative = true
      index = 1
    }
    let digits = bytes.count - index
    guard digits >= 1, digits <= 18 else { return nil }
    var value = 0
    while index < bytes.count {
      let digit = bytes[index] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      value = value * 10 + Int(digit)
      index += 1
    }
    return negative ? -value : value
  }
}
