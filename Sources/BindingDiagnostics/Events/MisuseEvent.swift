/// One misuse report: every field of the event contract (the article "The event contract"; the
/// fields' names in each wire form are in one table, `ContractField.all`), as a value.
///
/// Sinks encode it (JSON Lines, logfmt, journal fields); readers decode it back.
public struct MisuseEvent: Sendable, Hashable {
  /// Contract version (`v`), `1`.
  @inlinable public var schema: Int {
    get { storedSchema }
    set { storedSchema = newValue }
  }
  // Stored under another name so that the memberwise initializer Swift makes has a signature of
  // its own, which the public initializer calls: an initializer that assigns the properties one
  // by one had the optimizer copy the whole event (every string retained and released once more).
  @usableFromInline var storedSchema: Int
  /// When the misuse happened (`ts`).
  public var timestamp: Timestamp
  /// Severity (`level`).
  public var level: MisuseLevel
  /// What went wrong (`kind` and `message_id`).
  public var kind: MisuseKind
  /// One human sentence (`msg`).
  public var message: String
  /// `#fileID` of the call site that created the mapping (`file`).
  public var file: String
  /// Line of that call site (`line`).
  public var line: Int
  /// Function of that call site (`function`).
  public var function: String
  /// `String(reflecting:)` of the optional's type (`value_type`).
  public var valueType: String
  /// Whether the optional held a value at that moment (`value_present`).
  public var valuePresent: Bool
  /// The value under the privacy setting (`value`), or `nil` when not reported.
  public var value: String?
  /// A name the caller gave the mapping (`label`).
  public var label: String?
  /// The test that was running and caught the misuse (`test`), or `nil` outside tests.
  public var test: String?
  /// Where the misusing read or write was made (`writer`): the first caller outside this package
  /// as a `#fileID`-style path and line (`InboxKit/InboxModel.swift:35`), or `nil` when the
  /// build does not carry the debug information to know it. ``file`` and ``line`` stay the site
  /// that made the binding.
  public var writer: String?
  /// Process name (`process`).
  public var process: String
  /// Process id (`pid`).
  public var pid: Int
  /// Host name (`host`).
  public var host: String
  /// 16 lowercase hex digits, random per process start (`run`).
  public var run: String
  /// 1, 2, 3, … per run (`seq`).
  public var seq: Int
  /// Events folded into this record by rate limiting (`suppressed`).
  public var suppressed: Int
  /// On a run record (``MisuseKind/runHeartbeat``, ``MisuseKind/runEnd``): the highest `seq`
  /// the run had handed out before this record (`run_records`); `nil` on a misuse record.
  public var runRecords: Int?
  /// On a run record: the misuse events of the run so far, `1 + suppressed` summed
  /// (`run_events`); `nil` on a misuse record.
  public var runEvents: Int?
  /// On a run record: the records the sink writing it dropped so far (`run_dropped`); `nil` on
  /// a misuse record.
  public var runDropped: Int?

  /// How many misuses this record stands for: `1 + suppressed`.
  public var events: Int { 1 + suppressed }

  /// Whether this is a run record (`run-heartbeat`, `run-end`) rather than a misuse record.
  /// Readers never count run records as misuse events.
  public var isRunRecord: Bool { kind.isRunRecord }
}

extension MisuseEvent {
  /// Creates an event from every contract field.
  /// - Parameters: One per contract field; see the properties.
  public init(
    schema: Int = 1, timestamp: Timestamp, level: MisuseLevel, kind: MisuseKind, message: String,
    file: String, line: Int, function: String, valueType: String, valuePresent: Bool,
    value: String? = nil, label: String? = nil, test: String? = nil, writer: String? = nil,
    process: String, pid: Int, host: String, run: String, seq: Int, suppressed: Int = 0,
    runRecords: Int? = nil, runEvents: Int? = nil, runDropped: Int? = nil
  ) {
    self.init(
      storedSchema: schema, timestamp: timestamp, level: level, kind: kind, message: message,
      file: file, line: line, function: function, valueType: valueType,
      valuePresent: valuePresent, value: value, label: label, test: test, writer: writer,
      process: process, pid: pid, host: host, run: run, seq: seq, suppressed: suppressed,
      runRecords: runRecords, runEvents: runEvents, runDropped: runDropped)
  }
}
