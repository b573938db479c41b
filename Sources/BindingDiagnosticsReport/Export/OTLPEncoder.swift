package import BindingDiagnostics

/// Encodes events as OpenTelemetry logs in OTLP/JSON: one `LogsData` object per line, each
/// holding at most ``batch`` log records, so that a collector's `otlpjsonfile` receiver reads
/// the file line by line and each line can be posted to an OTLP/HTTP `/v1/logs` endpoint as it
/// is.
///
/// Within a line, the records of one process run (run, process, host, pid) share one
/// `resourceLogs` entry, in the order the runs first appear; its resource says `service.name`
/// (the process), `service.instance.id` (the run), `host.name` and `process.pid`, and its one
/// scope is `BindingDiagnostics` with the package's version. Each record has:
/// - `timeUnixNano` (a decimal string, as OTLP/JSON writes 64-bit integers), `severityNumber`
///   and `severityText` (the contract's level name; see ``severityNumber(of:)``);
/// - `body`, the event's `msg`, and `eventName`, `binding.` and the kind;
/// - attributes: `code.file.path`, `code.line.number`, `code.function.name` (the call site, by
///   the semantic conventions), then `binding.kind`, `binding.message_id`, `binding.run`,
///   `binding.seq`, `binding.suppressed`, `binding.events` (`1 + suppressed`),
///   `binding.value_type`, `binding.value_present`, and when the event has them
///   `binding.value` (as written, under its privacy setting), `binding.label`, `binding.test`
///   and `binding.writer`; a time `timeUnixNano` cannot hold (before 1970, after 2554, and the
///   epoch itself, whose 0 means unknown) is written as 0 (unknown) with the contract's `ts` in
///   `binding.ts`; a run record adds `binding.run_record` (`true`) and the run fields
///   it carries (`binding.run_records`, `binding.run_events`, `binding.run_dropped`): readers
///   never count run records as misuse events.
///
/// Strings are escaped per RFC 8259 (control characters as `\u00XX`), so a line is always one
/// line.
package struct OTLPEncoder: Sendable {
  /// Records per line by default: about 1 MB of JSON, far below a collector's default limits.
  package static let defaultBatch = 1000
  /// The name of the instrumentation scope.
  package static let scopeName = "BindingDiagnostics"

  /// Records per `LogsData` line, at most.
  package let batch: Int
  /// The scope's version: the package's.
  package let version: String
  /// The records of the line being filled.
  private var pending: [MisuseEvent] = []

  /// An encoder.
  /// - Parameters:
  ///   - batch: Records per line, at most (at least 1).
  ///   - version: The scope's version.
  package init(batch: Int = OTLPEncoder.defaultBatch, version: String) {
    self.batch = max(1, batch)
    self.version = version
    pending.reserveCapacity(self.batch)
  }

  /// Adds `event`; when the line is full, appends it, `\n` included, to `out`.
  /// - Parameters:
  ///   - event: The event.
  ///   - out: Where whole lines go.
  package mutating func add(_ event: MisuseEvent, to out: inout [UInt8]) {
    pending.append(event)
    if pending.count >= batch { finish(to: &out) }
  }

  /// Appends the line of the records added since the last one, if any, to `out`.
  /// - Parameter out: Where the line goes.
  package mutating func finish(to out: inout [UInt8]) {
    guard !pending.isEmpty else { return }
    encode(pending, into: &out)
    pending.removeAll(keepingCapacity: true)
  }

  /// Appends one `LogsData` line holding `events` to `out`.
  /// - Parameters:
  ///   - events: The records of the line.
  ///   - out: Where the line goes.
  package func encode(_ events: [MisuseEvent], into out: inout [UInt8]) {
    var records = OTLPRecords()
    for event in events { records.append(event) }
    out.append(contentsOf: records.encoded(batch: events.count, version: version))
  }

  /// The most bytes ``record(_:_:)`` writes for `event`: every string byte may become
  /// `\u00XX`; keys, numbers and punctuation fit in 1400.
  static func bound(_ event: MisuseEvent) -> Int {
    var bytes =
      event.kind.code.utf8.count * 2 + event.kind.messageID.utf8.count
      + event.message.utf8.count + event.file.utf8.count + event.function.utf8.count
      + event.valueType.utf8.count + event.run.utf8.count + event.level.rawValue.utf8.count
    bytes += (event.value?.utf8.count ?? 0) + (event.label?.utf8.count ?? 0)
    bytes += (event.test?.utf8.count ?? 0) + (event.writer?.utf8.count ?? 0)
    return 1600 + bytes * 6
  }

  /// The OpenTelemetry severity number of `level`, as the logs data model maps syslog's
  /// severities: trace 1 (TRACE), debug 5 (DEBUG), info 9 (INFO), notice 10 (INFO2),
  /// warning 13 (WARN), error 17 (ERROR), critical 21 (FATAL).
  /// - Parameter level: The contract's level.
  package static func severityNumber(of level: MisuseLevel) -> Int {
    switch level {
    case .trace: 1
    case .debug: 5
    case .info: 9
    case .notice: 10
    case .warning: 13
    case .error: 17
    case .critical: 21
    }
  }

  /// Writes one `logRecord`.
  static func record(_ event: MisuseEvent, _ out: inout ByteWriter) {
    out.literal(#"{"timeUnixNano":""#)
    let inRange = representable(event.timestamp)
    if inRange {
      out.decimal(Int(event.timestamp.microsecondsSinceEpoch))
      out.literal("000")
    } else {
      out.byte(UInt8(ascii: "0"))
    }
    out.literal(#"","severityNumber":"#)
    out.decimal(severityNumber(of: event.level))
    out.literal(#","severityText":"#)
    out.jsonString(event.level.rawValue)
    out.literal(#","body":{"stringValue":"#)
    out.jsonString(event.message)
    out.literal(#"},"attributes":["#)
    attribute("code.file.path", string: event.file, first: true, &out)
    attribute("code.line.number", integer: event.line, &out)
    attribute("code.function.name", string: event.function, &out)
    attribute("binding.kind", string: event.kind.code, &out)
    attribute("binding.message_id", string: event.kind.messageID, &out)
    attribute("binding.run", string: event.run, &out)
    attribute("binding.seq", integer: event.seq, &out)
    attribute("binding.suppressed", integer: event.suppressed, &out)
    attribute("binding.events", integer: event.events, &out)
    attribute("binding.value_type", string: event.valueType, &out)
    attribute("binding.value_present", bool: event.valuePresent, &out)
    if let value = event.value { attribute("binding.value", string: value, &out) }
    if let label = event.label { attribute("binding.label", string: label, &out) }
    if let test = event.test { attribute("binding.test", string: test, &out) }
    if let writer = event.writer { attribute("binding.writer", string: writer, &out) }
    if event.kind.isRunRecord { attribute("binding.run_record", bool: true, &out) }
    if let records = event.runRecords { attribute("binding.run_records", integer: records, &out) }
    if let events = event.runEvents { attribute("binding.run_events", integer: events, &out) }
    if let dropped = event.runDropped { attribute("binding.run_dropped", integer: dropped, &out) }
    if !inRange { attribute("binding.ts", string: event.timestamp.rfc3339, &out) }
    if MisuseKind.isKebabCase(event.kind.code) {
      // Nothing to escape: the common case, without building a string.
      out.literal(#"],"eventName":"binding."#)
      out.string(event.kind.code)
      out.byte(UInt8(ascii: "\""))
    } else {
      out.literal(#"],"eventName":"#)
      out.jsonString("binding." + event.kind.code)
    }
    out.byte(UInt8(ascii: "}"))
  }

  /// The latest time `timeUnixNano` holds: 2^64 - 1 nanoseconds after 1970 (in 2554), in
  /// whole microseconds.
  package static let latestMicroseconds = Int64(UInt64.max / 1000)

  /// Whether `timeUnixNano` can hold `timestamp`: an unsigned count of nanoseconds since 1970,
  /// so from 1970 to 2554, but for 0, which the logs data model reads as unknown (the epoch's
  /// first microsecond). The contract's years 0000 to 9999 reach beyond: such a record, and one
  /// at `1970-01-01T00:00:00.000000Z`, has `timeUnixNano` 0 and its `ts` in `binding.ts`.
  package static func representable(_ timestamp: Timestamp) -> Bool {
    (1...latestMicroseconds).contains(timestamp.microsecondsSinceEpoch)
  }

  /// Writes `{"key":KEY,"value":{"stringValue":TEXT}}`, after a comma unless `first`.
  static func attribute(
    _ key: StaticString, string: String, first: Bool = false, _ out: inout ByteWriter
  ) {
    self.key(key, first: first, &out)
    out.literal(#"{"stringValue":"#)
    out.jsonString(string)
    out.literal("}}")
  }

  /// Writes `{"key":KEY,"value":{"intValue":"N"}}` (a string, as OTLP/JSON writes int64).
  static func attribute(
    _ key: StaticString, integer: Int, first: Bool = false, _ out: inout ByteWriter
  ) {
    self.key(key, first: first, &out)
    out.literal(#"{"intValue":""#)
    out.decimal(integer)
    out.literal("\"}}")
  }

  /// Writes `{"key":KEY,"value":{"boolValue":B}}`.
  static func attribute(
    _ key: StaticString, bool: Bool, first: Bool = false, _ out: inout ByteWriter
  ) {
    self.key(key, first: first, &out)
    out.literal(bool ? #"{"boolValue":true}}"# : #"{"boolValue":false}}"#)
  }

  static func key(_ key: StaticString, first: Bool, _ out: inout ByteWriter) {
    if !first { out.byte(UInt8(ascii: ",")) }
    out.literal(#"{"key":""#)
    out.literal(key)
    out.literal(#"","value":"#)
  }
}
