/// One field of the event contract, and the table of them all: the single source of truth for
/// the field names in each wire form, their order, their types, which are required and how far
/// the record limit may cut them.
///
/// The logfmt and journal encoders and the exact decoder are driven by ``all``. The hot paths
/// (the JSON Lines encoder, the summary's fast JSON scanner) are written out by hand for speed;
/// tests derive their key order and field set from this table, so a field added here and not
/// there fails a test. Adding an optional field is one row here, a stored property on
/// ``MisuseEvent``, one case in ``value(of:)`` and the fast paths.
package struct ContractField: Sendable, Hashable {
  /// Which field: the row's identity, used to read and write the event.
  package enum ID: Sendable, Hashable, CaseIterable {
    case schema, timestamp, level, kind, messageID, message, file, line, function, valueType
    case valuePresent, value, label, test, writer, process, pid, host, run, seq, suppressed
    case runRecords, runEvents, runDropped
  }

  /// How a field's value is written.
  package enum ValueType: Sendable, Hashable {
    /// A decimal integer (a JSON number).
    case integer
    /// Text (a JSON string; logfmt quotes it when needed).
    case text
    /// `true`/`false` (JSON and logfmt), `1`/`0` in the journal.
    case boolean
  }

  /// Which field.
  package let id: ID
  /// The JSON Lines key, which is also the logfmt key.
  package let key: String
  /// The journal field the journald sink writes, or `nil` where journald records its own
  /// trusted field instead (`pid`, `host`).
  package let journalField: String?
  /// The journal field a reader takes the value from: ``journalField``, or journald's own.
  package let journalReadField: String
  /// The value's wire type.
  package let type: ValueType
  /// Whether every record carries the field.
  package let required: Bool
  /// The most UTF-8 bytes the record limit leaves of a text field (ending in `…`), or `nil`
  /// for a field that is never cut.
  package let cutBudget: Int?

  private init(
    _ id: ID, _ key: String, journal: String?, reads: String? = nil, _ type: ValueType,
    required: Bool = true, cut: Int? = nil
  ) {
    self.id = id
    self.key = key
    self.journalField = journal
    self.journalReadField = reads ?? journal ?? key
    self.type = type
    self.required = required
    self.cutBudget = cut
  }

  /// The contract's fields in wire order (JSON Lines, logfmt and journal alike).
  package static let all: [ContractField] = [
    ContractField(.schema, "v", journal: "BINDING_SCHEMA", .integer),
    ContractField(.timestamp, "ts", journal: "BINDING_TS", .text),
    ContractField(.level, "level", journal: "BINDING_LEVEL", .text),
    ContractField(.kind, "kind", journal: "BINDING_KIND", .text),
    ContractField(.messageID, "message_id", journal: "MESSAGE_ID", .text),
    ContractField(.message, "msg", journal: "MESSAGE", .text, cut: 4096),
    ContractField(.file, "file", journal: "CODE_FILE", .text, cut: 512),
    ContractField(.line, "line", journal: "CODE_LINE", .integer),
    ContractField(.function, "function", journal: "CODE_FUNC", .text, cut: 512),
    ContractField(.valueType, "value_type", journal: "BINDING_VALUE_TYPE", .text, cut: 512),
    ContractField(.valuePresent, "value_present", journal: "BINDING_VALUE_PRESENT", .boolean),
    ContractField(.value, "value", journal: "BINDING_VALUE", .text, required: false, cut: 4096),
    ContractField(.label, "label", journal: "BINDING_LABEL", .text, required: false, cut: 512),
    ContractField(.test, "test", journal: "BINDING_TEST", .text, required: false, cut: 64),
    ContractField(.writer, "writer", journal: "BINDING_WRITER", .text, required: false, cut: 512),
    ContractField(.process, "process", journal: "SYSLOG_IDENTIFIER", .text, cut: 256),
    ContractField(.pid, "pid", journal: nil, reads: "_PID", .integer),
    ContractField(.host, "host", journal: nil, reads: "_HOSTNAME", .text, cut: 256),
    ContractField(.run, "run", journal: "BINDING_RUN", .text),
    ContractField(.seq, "seq", journal: "BINDING_SEQ", .integer),
    ContractField(.suppressed, "suppressed", journal: "BINDING_SUPPRESSED", .integer),
    ContractField(
      .runRecords, "run_records", journal: "BINDING_RUN_RECORDS", .integer, required: false),
    ContractField(
      .runEvents, "run_events", journal: "BINDING_RUN_EVENTS", .integer, required: false),
    ContractField(
      .runDropped, "run_dropped", journal: "BINDING_RUN_DROPPED", .integer, required: false),
  ]

  /// The row of `id`.
  package static func row(_ id: ID) -> ContractField {
    all[index(of: id)]
  }

  /// The position of `id` in ``all``.
  package static func index(of id: ID) -> Int {
    // `ID`'s cases are declared in wire order, so the case's position is the row's.
    ID.allCases.firstIndex(of: id)!
  }
}

extension ContractField {
  /// A field's value in an event, typed as its wire form writes it.
  package enum Value: Sendable, Hashable {
    case integer(Int)
    case text(String)
    case boolean(Bool)
  }

  /// This field's value in `event`, or `nil` when an optional field is absent.
  /// - Parameter event: The event.
  package func value(of event: MisuseEvent) -> Value? {
    switch id {
    case .schema: .integer(event.schema)
    case .timestamp: .text(event.timestamp.rfc3339)
    case .level: .text(event.level.rawValue)
    case .kind: .text(event.kind.code)
    case .messageID: .text(event.kind.messageID)
    case .message: .text(event.message)
    case .file: .text(event.file)
    case .line: .integer(event.line)
    case .function: .text(event.function)
    case .valueType: .text(event.valueType)
    case .valuePresent: .boolean(event.valuePresent)
    case .value: event.value.map(Value.text)
    case .label: event.label.map(Value.text)
    case .test: event.test.map(Value.text)
    case .writer: event.writer.map(Value.text)
    case .process: .text(event.process)
    case .pid: .integer(event.pid)
    case .host: .text(event.host)
    case .run: .text(event.run)
    case .seq: .integer(event.seq)
    case .suppressed: .integer(event.suppressed)
    case .runRecords: event.runRecords.map(Value.integer)
    case .runEvents: event.runEvents.map(Value.integer)
    case .runDropped: event.runDropped.map(Value.integer)
    }
  }

  /// Cuts this field of `event` to ``cutBudget`` bytes, if it is a text field with a budget.
  /// - Parameter event: The event to change.
  package func cut(_ event: inout MisuseEvent) {
    guard let budget = cutBudget else { return }
    func cut(_ text: String) -> String { Truncation.cut(text, maxBytes: budget) }
    switch id {
    case .message: event.message = cut(event.message)
    case .file: event.file = cut(event.file)
    case .function: event.function = cut(event.function)
    case .valueType: event.valueType = cut(event.valueType)
    case .value: event.value = event.value.map(cut)
    case .label: event.label = event.label.map(cut)
    case .test: event.test = event.test.map(cut)
    case .writer: event.writer = event.writer.map(cut)
    case .process: event.process = cut(event.process)
    case .host: event.host = cut(event.host)
    case .schema, .timestamp, .level, .kind, .messageID, .line, .valuePresent, .pid, .run, .seq,
      .suppressed, .runRecords, .runEvents, .runDropped:
      return
    }
  }
}
