// What the aggregator keeps per run.
extension Aggregator {
  /// One run's state: its `seq`s, names, window and what its run records said.
  struct RunState {
    var seqs = SeqTracker()
    /// The smallest process name among the run's records (one, unless the input is odd), so
    /// the name shown does not depend on the input's order.
    var process: UInt32
    /// The smallest host name among the run's records, likewise.
    var host: UInt32
    /// Whether a record of the run has the filter's host and process: only these runs' lost
    /// records are counted.
    var selected = false
    /// Whether the run's first journal entry came from a user other than root and the reader
    /// (``markOtherUser(run:)``): its losses are counted apart, not in ``Summary/lost``.
    var otherUser = false
    /// The lowest and highest `seq` of the run's records inside the window (`--since`,
    /// `--until`; every record without one): `Int.max` and 0 until one is seen.
    var windowLow = Int.max
    var windowHigh = 0
    /// The highest `seq` of its misuse records inside the window: what follows it up to the
    /// run's end is its tail.
    var misuseHigh = 0
    /// The highest `run_records` of the run records inside the window: its tail.
    var declared = 0
    /// The highest `run_dropped` of its run records inside the window.
    var dropped = 0
    /// Whether a `run-end` was read inside the window.
    var ended = false
    /// Its newest record's time (µs) inside the window.
    var last = Int64.min
    /// The time of its `seq` 1, when read.
    var start: Int64?
    /// Heartbeats read (inside the window or not), and the oldest and newest one's time: their
    /// cadence is the run's heartbeat interval (see ``Aggregator/interval(of:)``).
    var heartbeats = 0
    var firstHeartbeat = Int64.max
    var lastHeartbeat = Int64.min

    /// Whether the run has a record inside the window.
    var inWindow: Bool { windowHigh > 0 }

    /// Takes a new record of the run, in one access to the run's state: its `seq`, its process
    /// and host, whether it selects the run, and ``note(_:inside:runRecord:end:)``; `false`
    /// (and nothing changed) when its `seq` was seen before.
    /// - Parameter selects: Whether the record has the filter's host and process.
    @inline(__always)
    mutating func take(
      _ record: UnsafePointer<InternedRecord>, strings: StringTable, selects: Bool, inside: Bool,
      runRecord: Bool, end: Bool
    ) -> Bool {
      guard seqs.insert(record.pointee.seq) else { return false }
      let recordProcess = record.pointee.process
      if recordProcess != process, strings.precedes(recordProcess, process) {
        process = recordProcess
      }
      let recordHost = record.pointee.host
      if recordHost != host, strings.precedes(recordHost, host) { host = recordHost }
      if selects { selected = true }
      note(record, inside: inside, runRecord: runRecord, end: end)
      return true
    }

    /// Notes a new record of the run (in place: the run's `seq`s are not copied).
    /// - Parameters:
    ///   - inside: Whether it is inside the window.
    ///   - runRecord: Whether it is a run record.
    ///   - end: Whether it is a `run-end`.
    @inline(__always)
    mutating func note(
      _ record: UnsafePointer<InternedRecord>, inside: Bool, runRecord: Bool, end: Bool
    ) {
      let time = record.pointee.timestamp
      let seq = record.pointee.seq
      if seq == 1 { start = time }
      // The heartbeats' cadence is the run's, wherever they lie: learnt from the window's alone,
      // a narrow `--since` made a run stale that the whole input did not.
      if runRecord, !end {
        heartbeats += 1
        firstHeartbeat = min(firstHeartbeat, time)
        lastHeartbeat = max(lastHeartbeat, time)
      }
      // A run is judged on what lies inside the window alone: a record after `--until` neither
      // keeps it running nor ends it, and a `run-end` there neither tells its drops nor its tail.
      guard inside else { return }
      if time > last { last = time }
      if seq < windowLow { windowLow = seq }
      if seq > windowHigh { windowHigh = seq }
      if !runRecord, seq > misuseHigh { misuseHigh = seq }
      guard runRecord else { return }
      let runRecords = record.pointee.runRecords
      let runDropped = record.pointee.runDropped
      if runRecords > declared { declared = runRecords }
      if runDropped > dropped { dropped = runDropped }
      if end { ended = true }
    }
  }
}
