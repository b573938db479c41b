import BindingDiagnostics

/// Turns the fields of one record, in whichever wire form it came, into a validated event.
///
/// Every reader funnels through ``validate(_:)``, so JSON Lines, logfmt and journal entries
/// obey the same rules; a failure is a one-phrase reason for the malformed-line report.
enum EventDecoder {
  /// Contract fields as read, before validation: one value per row of `ContractField.all`.
  struct RawFields {
    var values = [ContractField.Value?](repeating: nil, count: ContractField.all.count)
    /// The time, when the reader already parsed `ts` from bytes.
    var timestamp: Timestamp?
    /// Whether the reader already checked the formats of `kind`, `message_id` and `run`.
    var formatsChecked = false

    subscript(_ id: ContractField.ID) -> ContractField.Value? {
      get { values[ContractField.index(of: id)] }
      set { values[ContractField.index(of: id)] = newValue }
    }

    func text(_ id: ContractField.ID) -> String? {
      if case .text(let text) = self[id] { return text }
      return nil
    }

    func integer(_ id: ContractField.ID) -> Int? {
      if case .integer(let number) = self[id] { return number }
      return nil
    }
  }

  /// The largest `line` and `seq` accepted: 2^53 - 1, the integers every JSON reader (jq,
  /// JavaScript) holds exactly.
  static let maxInteger = (1 << 53) - 1
  /// The most events one record may fold (2^32 - 1), so sums over many records cannot overflow.
  static let maxSuppressed = (1 << 32) - 1

  /// Checks presence, ranges and formats field by field in contract order (the first problem
  /// is the reason), and builds the event.
  static func validate(_ raw: RawFields) -> Result<MisuseEvent, MalformedReason> {
    for (index, field) in ContractField.all.enumerated() {
      guard let value = raw.values[index] else {
        if field.required { return .failure(#"missing key "\#(field.key)""#) }
        continue
      }
      if let reason = check(field.id, value, raw) { return .failure(reason) }
    }
    // Every required field is present and of its type: the checks above made sure.
    let code = raw.text(.kind)!
    let kind = MisuseKind(
      code: code, messageID: raw.text(.messageID)!, defaultLevel: defaultLevel(of: code))
    var valuePresent = false
    if case .boolean(let flag) = raw[.valuePresent] { valuePresent = flag }
    return .success(
      MisuseEvent(
        schema: raw.integer(.schema)!,
        timestamp: raw.timestamp ?? Timestamp(rfc3339: raw.text(.timestamp)!)!,
        level: level(named: raw.text(.level)!)!, kind: kind, message: raw.text(.message)!,
        file: raw.text(.file)!, line: raw.integer(.line)!, function: raw.text(.function)!,
        valueType: raw.text(.valueType)!, valuePresent: valuePresent, value: raw.text(.value),
        label: raw.text(.label), test: raw.text(.test), writer: raw.text(.writer),
        process: raw.text(.process)!, pid: raw.integer(.pid)!, host: raw.text(.host)!,
        run: raw.text(.run)!, seq: raw.integer(.seq)!, suppressed: raw.integer(.suppressed)!,
        runRecords: raw.integer(.runRecords), runEvents: raw.integer(.runEvents),
        runDropped: raw.integer(.runDropped)))
  }

  /// Why a present field's value is not valid, or `nil` when it is.
  private static func check(
    _ id: ContractField.ID, _ value: ContractField.Value, _ raw: RawFields
  ) -> MalformedReason? {
    switch (id, value) {
    case (.schema, .integer(let schema)):
      return schema == 1 ? nil : "unsupported schema version \(schema)"
    case (.timestamp, .text(let text)):
      return raw.timestamp != nil || Timestamp(rfc3339: text) != nil
        ? nil : #""ts" is not an RFC 3339 time"#
    case (.level, .text(let text)):
      return level(named: text) != nil ? nil : #"unknown level "\#(text)""#
    case (.kind, .text(let code)):
      return raw.formatsChecked || MisuseKind.isKebabCase(code)
        ? nil : #""kind" is not kebab-case"#
    case (.messageID, .text(let messageID)):
      return raw.formatsChecked || Hex.isLowercase(messageID, count: 32)
        ? nil : #""message_id" must be 32 lowercase hex digits"#
    case (.line, .integer(let line)):
      if line < 0 { return #""line" must not be negative"# }
      return line <= maxInteger ? nil : #""line" is too large"#
    case (.run, .text(let run)):
      return raw.formatsChecked || Hex.isLowercase(run, count: 16)
        ? nil : #""run" must be 16 lowercase hex digits"#
    case (.seq, .integer(let seq)):
      if seq < 1 { return #""seq" must be at least 1"# }
      return seq <= maxInteger ? nil : #""seq" is too large"#
    case (.suppressed, .integer(let suppressed)):
      if suppressed < 0 { return #""suppressed" must not be negative"# }
      return suppressed <= maxSuppressed ? nil : #""suppressed" is too large"#
    case (.runRecords, .integer(let count)), (.runEvents, .integer(let count)),
      (.runDropped, .integer(let count)):
      let key = ContractField.row(id).key
      if count < 0 { return #""\#(key)" must not be negative"# }
      return count <= maxInteger ? nil : #""\#(key)" is too large"#
    default:
      return nil
    }
  }

  /// A level by its contract name; the common ones are recognised by length and first byte
  /// before any string comparison.
  static func level(named text: String) -> MisuseLevel? {
    let utf8 = text.utf8
    switch (utf8.count, utf8.first) {
    case (5, UInt8(ascii: "e")): return text == "error" ? .error : nil
    case (7, UInt8(ascii: "w")): return text == "warning" ? .warning : nil
    default: return MisuseLevel(rawValue: text)
    }
  }

  /// The levels of the kinds this package knows (built-in misuse kinds and run records), taken
  /// from the kinds themselves so that a kind added there cannot be read back at another level.
  private static let knownLevels: [String: MisuseLevel] = Dictionary(
    uniqueKeysWithValues: MisuseKind.known.map { ($0.code, $0.defaultLevel) })

  /// The known kinds' levels; app-defined kinds read back as `.warning` by default.
  static func defaultLevel(of code: String) -> MisuseLevel {
    knownLevels[code] ?? .warning
  }

  /// A contract JSON object, keys in any order, unknown keys ignored, types checked.
  static func decodeContract(_ members: [(String, JSONValue)]) -> Result<
    MisuseEvent, MalformedReason
  > {
    var raw = RawFields()
    for (key, value) in members {
      let field: FieldValue
      switch value {
      case .string(let text): field = .text(text)
      case .number: field = .number(value.integer)
      case .bool(let flag): field = .boolean(flag)
      default: field = .other
      }
      if let reason = assign(key, field, textual: false, to: &raw) { return .failure(reason) }
    }
    return validate(raw)
  }

  /// The contract's rows by JSON (and logfmt) key.
  static let fieldsByKey: [String: ContractField] = Dictionary(
    uniqueKeysWithValues: ContractField.all.map { ($0.key, $0) })

  /// A contract field's value as its wire form gave it.
  enum FieldValue {
    case text(String)
    /// A JSON number; `nil` when it is not an integer that fits.
    case number(Int?)
    case boolean(Bool)
    case other
  }

  /// Stores one contract field into `raw`. `textual` forms (logfmt) write numbers and booleans
  /// as text. Unknown keys are ignored. Returns why the value has the wrong type, if it does.
  static func assign(
    _ key: String, _ value: FieldValue, textual: Bool, to raw: inout RawFields
  ) -> MalformedReason? {
    func text() -> String? {
      if case .text(let text) = value { return text }
      return nil
    }
    func integer() -> Int? {
      switch value {
      case .number(let number): return number
      case .text(let text) where textual: return Int(text)
      default: return nil
      }
    }
    func boolean() -> Bool? {
      switch value {
      case .boolean(let flag): return flag
      case .text("true") where textual: return true
      case .text("false") where textual: return false
      default: return nil
      }
    }
    guard let field = fieldsByKey[key] else { return nil }
    switch field.type {
    case .text:
      guard let text = text() else { return #""\#(key)" must be a string"# }
      raw[field.id] = .text(text)
    case .integer:
      guard let number = integer() else { return #""\#(key)" must be an integer"# }
      raw[field.id] = .integer(number)
    case .boolean:
      guard let flag = boolean() else {
        return textual ? #""\#(key)" must be true or false"# : #""\#(key)" must be a boolean"#
      }
      raw[field.id] = .boolean(flag)
    }
    return nil
  }

  /// The journal fields an event is read from: the contract's, in its order (the journald
  /// sink's fields, and journald's own `_PID` and `_HOSTNAME` for `pid` and `host`), then
  /// journald's trusted `_UID` and `_BOOT_ID`, which tell forged entries apart, and `_EXE` and
  /// `_COMM`, which name the process (see ``JournalEntryDecoder/processName(claim:exe:comm:)``).
  static let journalFields =
    ContractField.all.map(\.journalReadField) + ["_UID", "_BOOT_ID", "_EXE", "_COMM"]
  /// Where journald's trusted `_UID`, `_BOOT_ID`, `_EXE` and `_COMM` are in ``journalFields``.
  static let uidIndex = ContractField.all.count
  static let bootIndex = ContractField.all.count + 1
  static let exeIndex = ContractField.all.count + 2
  static let commIndex = ContractField.all.count + 3
  /// The journal fields of the contract itself, where bytes that are not UTF-8 are malformed.
  static let contractJournalFields = Set(ContractField.all.map(\.journalReadField))

  /// Why a journal entry whose contract field `name` is not valid UTF-8 is malformed.
  static func invalidUTF8(in name: String) -> MalformedReason {
    "invalid UTF-8 in \(name)"
  }

  /// Journal field values in ``journalFields`` order, with, when `BINDING_TS` is missing, the
  /// entry's realtime (µs). `formatsChecked` says the caller already checked `kind`,
  /// `message_id` and `run`. `MESSAGE` loses the call site and label the sink added.
  static func decodeJournal(
    text: (Int) -> String?, integer: (Int) -> Int??, timestamp: Timestamp?, realtime: Int64?,
    formatsChecked: Bool = false
  ) -> Result<MisuseEvent, MalformedReason> {
    var raw = RawFields()
    raw.formatsChecked = formatsChecked
    raw.timestamp = timestamp
    for (index, field) in ContractField.all.enumerated() {
      switch field.type {
      case .integer:
        switch integer(index) {
        case .none: break
        case .some(.none): return .failure("\(field.journalReadField) must be an integer")
        case .some(.some(let value)): raw.values[index] = .integer(value)
        }
      case .boolean:
        switch text(index) {
        case "1": raw.values[index] = .boolean(true)
        case "0": raw.values[index] = .boolean(false)
        case nil: break
        default: return .failure("\(field.journalReadField) must be 1 or 0")
        }
      case .text:
        raw.values[index] = text(index).map(ContractField.Value.text)
      }
    }
    if timestamp != nil {
      raw[.timestamp] = .text("")
    } else if raw[.timestamp] == nil, let realtime {
      raw[.timestamp] = .text(Timestamp(microsecondsSinceEpoch: realtime).rfc3339)
    }
    if let message = raw.text(.message), let file = raw.text(.file), let line = raw.integer(.line) {
      let suffix = JournalFieldsEncoder.messageSuffix(
        file: file, line: line, label: raw.text(.label),
        suppressed: raw.integer(.suppressed) ?? 0)
      // Byte for byte: `hasSuffix` would compare canonically equivalent text as equal.
      if message.utf8.count >= suffix.utf8.count,
        message.utf8.suffix(suffix.utf8.count).elementsEqual(suffix.utf8)
      {
        raw[.message] = .text(
          String(decoding: message.utf8.dropLast(suffix.utf8.count), as: UTF8.self))
      }
    }
    return validate(raw)
  }

  /// Journal fields by name (as `journalctl -o json` gives them), the process named as
  /// ``JournalEntryDecoder/processName(claim:exe:comm:)`` says.
  static func decodeJournal(_ fields: [String: String]) -> Result<MisuseEvent, MalformedReason> {
    decodeJournal(
      text: { fields[journalFields[$0]] },
      integer: { index in
        fields[journalFields[index]].map { JournalEntryDecoder.integer(text: $0) }
      },
      timestamp: nil, realtime: fields["__REALTIME_TIMESTAMP"].flatMap { Int64($0) }
    ).map { event in
      var event = event
      event.process = JournalEntryDecoder.processName(
        claim: event.process, exe: fields["_EXE"], comm: fields["_COMM"])
      return event
    }
  }

  /// logfmt pairs of the standard-error sink. A key given twice is malformed, as in JSON.
  static func decodeLogfmt(_ pairs: [(String, String)]) -> Result<MisuseEvent, MalformedReason> {
    var raw = RawFields()
    var keys: Set<String> = []
    keys.reserveCapacity(pairs.count)
    for (key, text) in pairs {
      guard keys.insert(key).inserted else {
        return .failure(MalformedReason(stringLiteral: JSONParser.duplicateKey(key)))
      }
      if let reason = assign(key, .text(text), textual: true, to: &raw) { return .failure(reason) }
    }
    return validate(raw)
  }
}
