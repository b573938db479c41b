/// What a pipeline keeps for its run records (`run-heartbeat`, `run-end`): when its first misuse
/// record was made and at which set-up site, the events folded into its records, and whether
/// its `run-end` was made.
///
/// Nothing here costs the misuse path: a record touches it only when it is the run's first
/// (`seq` 1) or carries folded events (`suppressed` above 0, at most a few per site and second).
/// Run records are made by the library's flushing thread (heartbeats) and at the end of the
/// process, and only for the process's pipeline (``ProcessFlush``): a pipeline of a test or of
/// scoped work writes none.
final class RunRecords: Sendable {
  private struct Start {
    /// ``MonotonicClock/nanoseconds()`` of the first misuse record, 0 before.
    var nanoseconds: UInt64 = 0
    /// The pipeline's set-up site: the bootstrap's, else the first misuse record's.
    var site: CallSite?
  }

  /// Seconds between heartbeats; 0 writes none.
  let heartbeatInterval: Double
  private let start = Lock(Start())
  /// Events folded into misuse records (their `suppressed` summed).
  private let folded = Counter()
  /// Run records that took a `seq`.
  private let taken = Counter()
  /// Heartbeats written.
  private let heartbeats = Counter()
  /// Set once the `run-end` was made.
  private let ended = Latch()

  /// Run records for a pipeline heartbeating every `heartbeatInterval` seconds (0: never).
  init(heartbeatInterval: Double) {
    self.heartbeatInterval = heartbeatInterval.isFinite ? max(0, heartbeatInterval) : 0
  }

  /// Names the pipeline's set-up site (a bootstrap's call site), before its first record.
  func setUp(at site: CallSite) {
    start.withLock { $0.site = site }
  }

  /// Notes the run's first misuse record (`seq` 1), made at `site`.
  func started(at site: CallSite) {
    let now = MonotonicClock.nanoseconds()
    start.withLock { start in
      if start.site == nil { start.site = site }
      start.nanoseconds = now
    }
  }

  /// Notes a misuse record standing for `suppressed` folded events besides its own.
  func folded(_ suppressed: Int) {
    folded.increment(by: suppressed)
  }

  /// How long the flushing thread may sleep before the next heartbeat is due, in milliseconds
  /// (for `poll(2)`): -1 without heartbeats; one interval before the first misuse record (to
  /// look again); at least 1.
  var millisecondsUntilHeartbeat: Int32 {
    guard heartbeatInterval > 0, !ended.isSet else { return -1 }
    let interval = UInt64(heartbeatInterval * 1e9)
    let first = start.withLock { $0.nanoseconds }
    guard first != 0 else { return Self.milliseconds(interval) }
    let due = first &+ interval &* UInt64(heartbeats.value + 1)
    let now = MonotonicClock.nanoseconds()
    return due > now ? Self.milliseconds(due - now) : 0
  }

  /// Whether a heartbeat is due now (its interval passed since the first misuse record, or
  /// since the last heartbeat's due time); counts it as written when it is.
  func takeDueHeartbeat() -> Bool {
    guard heartbeatInterval > 0, !ended.isSet else { return false }
    let first = start.withLock { $0.nanoseconds }
    guard first != 0 else { return false }
    let interval = UInt64(heartbeatInterval * 1e9)
    let now = MonotonicClock.nanoseconds()
    let written = heartbeats.value
    guard now >= first &+ interval &* UInt64(written + 1) else { return false }
    // Missed intervals (a stopped process, a loaded machine) are skipped, not made up.
    let elapsed = (now &- first) / interval
    heartbeats.increment(by: Int(elapsed) - written)
    return true
  }

  /// Marks the run ended, once.
  /// - Returns: Whether this call ended it (the caller makes the `run-end`).
  func end() -> Bool {
    ended.set()
  }

  /// Whether the run made a misuse record (a run that never did writes no run record).
  var hasStarted: Bool { start.withLock { $0.nanoseconds != 0 } }

  /// A run record of `kind`, taking the run's next `seq` from `sequence`; `run_dropped` is left
  /// for the sink writing it.
  /// - Parameters:
  ///   - kind: ``MisuseKind/runHeartbeat`` or ``MisuseKind/runEnd``.
  ///   - sequence: The pipeline's `seq` counter.
  ///   - identity: The pipeline's process identity.
  /// - Returns: The record.
  func record(
    _ kind: MisuseKind, sequence: borrowing Counter, identity: ProcessIdentity
  ) -> MisuseEvent {
    let seq = sequence.increment()
    let runBefore = taken.increment() - 1
    let site = start.withLock { $0.site }
    let message =
      kind == .runEnd
      ? "The process is ending; the run's last record." : "The process is still running."
    var event = MisuseEvent(
      timestamp: .now(), level: .debug, kind: kind, message: message,
      file: site?.fileID ?? "-", line: site?.line ?? 0, function: site?.function ?? "-",
      valueType: "-", valuePresent: false, process: identity.process, pid: identity.pid,
      host: identity.host, run: identity.run, seq: seq, suppressed: 0)
    event.runRecords = seq - 1
    event.runEvents = max(0, seq - 1 - runBefore) + folded.value
    return event
  }

  private static func milliseconds(_ nanoseconds: UInt64) -> Int32 {
    Int32(clamping: max(1, (nanoseconds + 999_999) / 1_000_000))
  }
}
