import BindingDiagnostics

/// Turns the fields of one record, in whichever wire form it came, into a validated event.
///
/// Every reader funnels through ``validate(_:)``, so JSON Lines, logfmt and journal entries
/// obey the same rules; a failure is a one-phrase reason for the malformed-line report.
enum EventDecoder {
  /// Contract fields as read, before validation.
  struct RawFields {
    var schema: Int?
    var ts: String?
    /// The time, when the reader already parsed `ts` from bytes.
    var timestamp: Timestamp?
    /// Whether the reader already checked the formats of `kind`, `message_id` and `run`.
    var formatsChecked = false
    var level: String?
    var kind: String?
    var messageID: String?
    var message: String?
    var file: String?
    var line: Int?
    var function: String?
    var valueType: String?
    var valuePresent: Bool?
    var value: String?
    var label: String?
    var process: String?
    var pid: Int?
    var host: String?
    var run: String?
    var seq: Int?
    var suppressed: Int?
  }

  /// The largest `line` and `seq` accepted: 2^53 - 1, the integers every JSON reader (jq,
  /// JavaScript) holds exactly.
  static let maxInteger = (1 << 53) - 1
  /// The most events one record may fold (2^32 - 1), so sums over many records cannot overflow.
  static let maxSuppressed = (1 << 32) - 1

  /// Checks presence, ranges and formats, and builds the event.
  static func validate(_ raw: RawFields) -> Result<MisuseEvent, MalformedReason> {
    guard let schema = raw.schema else { return .failure(#"missing key "v""#) }
    guard schema == 1 else { return .failure("unsupported schema version \(schema)") }
    guard let tsText = raw.ts else { return .failure(#"missing key "ts""#) }
    guard let timestamp = raw.timestamp ?? Timestamp(rfc3339: tsText) else {
      return .failure(#""ts" is not an RFC 3339 time"#)
    }
    guard let levelText = raw.level else { return .failure(#"missing key "level""#) }
    guard let level = level(named: levelText) else {
      return .failure(#"unknown level "\#(levelText)""#)
    }
    guard let code = raw.kind else { return .failure(#"missing key "kind""#) }
    guard raw.formatsChecked || MisuseKind.isKebabCase(code) else {
      return .failure(#""kind" is not kebab-case"#)
    }
    guard let messageID = raw.messageID else { return .failure(#"missing key "message_id""#) }
    guard raw.formatsChecked || Hex.isLowercase(messageID, count: 32) else {
      return .failure(#""message_id" must be 32 lowercase hex digits"#)
    }
    guard let message = raw.message else { return .failure(#"missing key "msg""#) }
    guard let file = raw.file else { return .failure(#"missing key "file""#) }
    guard let line = raw.line else { return .failure(#"missing key "line""#) }
    guard line >= 0 else { return .failure(#""line" must not be negative"#) }
    guard line <= EventDecoder.maxInteger else { return .failure(#""line" is too large"#) }
    guard let function = raw.function else { return .failure(#"missing key "function""#) }
    guard let valueType = raw.valueType else { return .failure(#"missing key "value_type""#) }
    guard let valuePresent = raw.valuePresent else {
      return .failure(#"missing key "value_present""#)
    }
    guard let process = raw.process else { return .failure(#"missing key "process""#) }
    guard let pid = raw.pid else { return .failure(#"missing key "pid""#) }
    guard let host = raw.host else { return .failure(#"missing key "host""#) }
    guard let run = raw.run else { return .failure(#"missing key "run""#) }
    guard raw.formatsChecked || Hex.isLowercase(run, count: 16) else {
      return .failure(#""run" must be 16 lowercase hex digits"#)
    }
    guard let seq = raw.seq else { return .failure(#"missing key "seq""#) }
    guard seq >= 1 else { return .failure(#""seq" must be at least 1"#) }
    guard seq <= EventDecoder.maxInteger else { return .failure(#""seq" is too large"#) }
    guard let suppressed = raw.suppressed else { return .failure(#"missing key "suppressed""#) }
    guard suppressed >= 0 else { return .failure(#""suppressed" must not be negative"#) }
    guard suppressed <= EventDecoder.maxSuppressed else {
      return .failure(#""suppressed" is too large"#)
    }
    let kind = MisuseKind(code: code, messageID: messageID, defaultLevel: defaultLevel(of: code))
    return .success(
      MisuseEvent(
        schema: schema, timestamp: timestamp, level: level,
        kind: kind,
        message: message, file: file, line: line, function: function, valueType: valueType,
        valuePresent: valuePresent, value: raw.value, label: raw.label, process: process, pid: pid,
        host: host, run: run, seq: seq, suppressed: suppressed))
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

  /// The built-in kinds' levels; app-defined kinds read back as `.warning` by default.
  static func defaultLevel(of code: String) -> MisuseLevel {
    switch code {
    case MisuseKind.mappedBoolSetTrue.code: MisuseKind.mappedBoolSetTrue.defaultLevel
    case MisuseKind.unwrappedReadAfterNil.code: MisuseKind.unwrappedReadAfterNil.defaultLevel
    case MisuseKind.unwrappedWriteAfterNil.code: MisuseKind.unwrappedWriteAfterNil.defaultLevel
    default: .warning
    }
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

  /// The contract's text fields and where they go.
  // nonisolated(unsafe): an immutable dictionary of key paths to stored properties, never
  // mutated after initialisation; key paths themselves carry no mutable state.
  nonisolated(unsafe) static let textKeys: [String: WritableKeyPath<RawFields, String?>] = [
    "ts": \.ts, "level": \.level, "kind": \.kind, "message_id": \.messageID, "msg": \.message,
    "file": \.file, "function": \.function, "value_type": \.valueType, "value": \.value,
    "label": \.label, "process": \.process, "host": \.host, "run": \.run,
  ]

  /// The contract's integer fields and where they go (immutable, as ``textKeys``).
  nonisolated(unsafe) static let integerKeys: [String: WritableKeyPath<RawFields, Int?>] = [
    "v": \.schema, "line": \.line, "pid": \.pid, "seq": \.seq, "suppressed": \.suppressed,
  ]

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
    if let path = EventDecoder.textKeys[key] {
      guard let text = text() else { return #""\#(key)" must be a string"# }
      raw[keyPath: path] = text
    } else if let path = EventDecoder.integerKeys[key] {
      guard let number = integer() else { return #""\#(key)" must be an integer"# }
      raw[keyPath: path] = number
    } else if key == "value_present" {
      guard let flag = boolean() else {
        return textual
          ? #""value_present" must be true or false"# : #""value_present" must be a boolean"#
      }
      raw.valuePresent = flag
    }
    return nil
  }

  /// The journal fields an event is read from, in the order ``decodeJournal(_:realtime:)``
  /// takes their values.
  static let journalFields = [
    "BINDING_SCHEMA", "BINDING_TS", "BINDING_LEVEL", "BINDING_KIND", "MESSAGE_ID", "MESSAGE",
    "CODE_FILE", "CODE_LINE", "CODE_FUNC", "BINDING_VALUE_TYPE", "BINDING_VALUE_PRESENT",
    "BINDING_VALUE", "BINDING_LABEL", "SYSLOG_IDENTIFIER", "_PID", "_HOSTNAME", "BINDING_RUN",
    "BINDING_SEQ", "BINDING_SUPPRESSED", "_UID", "_BOOT_ID",
  ]
  /// Where journald's trusted `_UID` and `_BOOT_ID` are in ``journalFields``.
  static let uidIndex = 19
  static let bootIndex = 20

  /// Why a journal entry whose contract field `name` is not valid UTF-8 is malformed.
  static func invalidUTF8(in name: String) -> MalformedReason {
    "invalid UTF-8 in \(name)"
  }

  /// Journal field values in ``journalFields`` order, with journald's own `_PID`, `_HOSTNAME`
  /// and, when `BINDING_TS` is missing, the entry's realtime (µs). `formatsChecked` says the
  /// caller already checked `kind`, `message_id` and `run`.
  static func decodeJournal(
    text: (Int) -> String?, integer: (Int) -> Int??, timestamp: Timestamp?, realtime: Int64?,
    formatsChecked: Bool = false
  ) -> Result<MisuseEvent, MalformedReason> {
    var raw = RawFields()
    raw.formatsChecked = formatsChecked
    /// The number at `index`: `nil` when absent, a failure when not an integer.
    func number(_ index: Int) -> Result<Int?, MalformedReason> {
      switch integer(index) {
      case .none: .success(nil)
      case .some(.none): .failure("\(journalFields[index]) must be an integer")
      case .some(.some(let value)): .success(value)
      }
    }
    do {
      raw.schema = try number(0).get()
      raw.line = try number(7).get()
      raw.pid = try number(14).get()
      raw.seq = try number(17).get()
      raw.suppressed = try number(18).get()
    } catch {
      return .failure(error)
    }
    if let timestamp {
      raw.ts = ""
      raw.timestamp = timestamp
    } else {
      raw.ts = text(1)
    }
    if raw.ts == nil, let realtime {
      raw.ts = Timestamp(microsecondsSinceEpoch: realtime).rfc3339
    }
    raw.level = text(2)
    raw.kind = text(3)
    raw.messageID = text(4)
    raw.message = text(5)
    raw.file = text(6)
    raw.function = text(8)
    raw.valueType = text(9)
    switch text(10) {
    case "1": raw.valuePresent = true
    case "0": raw.valuePresent = false
    case nil: break
    default: return .failure("BINDING_VALUE_PRESENT must be 1 or 0")
    }
    raw.value = text(11)
    raw.label = text(12)
    raw.process = text(13)
    raw.host = text(15)
    raw.run = text(16)
    return validate(raw)
  }

  /// Journal fields by name (as `journalctl -o json` gives them).
  static func decodeJournal(_ fields: [String: String]) -> Result<MisuseEvent, MalformedReason> {
    decodeJournal(
      text: { fields[journalFields[$0]] },
      integer: { index in fields[journalFields[index]].map { Int($0) } },
      timestamp: nil, realtime: fields["__REALTIME_TIMESTAMP"].flatMap { Int64($0) })
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
