package import BindingDiagnostics

/// The result of aggregation: totals, lost and duplicated records, and the groups, sorted by
/// events descending, then key ascending.
package struct Summary: Sendable {
  /// One group of events.
  package struct Group: Sendable {
    /// The key's parts, one per grouping field.
    package var key: [GroupKeyPart]
    /// Events (`sum(1 + suppressed)`).
    package var events: Int
    /// Records.
    package var records: Int
    /// Earliest event time.
    package var first: Timestamp
    /// Latest event time.
    package var last: Timestamp
    /// Distinct process names, sorted.
    package var processes: [String]
    /// Distinct host names, sorted.
    package var hosts: [String]
    /// Distinct value types, sorted.
    package var valueTypes: [String]
    /// Distinct labels the callers gave their mappings, sorted (at most 64).
    package var labels: [String]
    /// Distinct writers (`#fileID:line` of the first caller outside the package), sorted (at
    /// most 64); empty when the records carry none.
    package var writers: [String] = []
    /// The most ``writers`` a group keeps.
    package static var maxWriters: Int { GroupTable.IDSet.limit }
    /// Distinct functions of the call sites, sorted (at most 64): one for a site.
    package var functions: [String]
    /// Events per level.
    package var levels: [MisuseLevel: Int]
    /// Events per bin over the summary's whole time span (``Summary/histogramBins`` bins).
    package var histogram: [Int]
    /// Lost records of the runs whose host and process the key names, when every grouping
    /// field is one a whole run shares (`host`, `process`); `nil` otherwise.
    package var lost: Int?
  }

  /// Lost records of one run.
  package struct LostRun: Sendable, Hashable {
    /// The run id.
    package var run: String
    /// The process that wrote it.
    package var process: String
    /// Records missing from `seq` 1 to its highest `seq`.
    package var lost: Int
    /// Of ``lost``, those before the lowest `seq` seen: the run's head, rotated away or in a
    /// file not read, rather than gaps between records seen.
    package var head: Int
    /// The host it ran on.
    package var host: String = ""
    /// Of ``lost``, those after its last misuse record read, known only from its run records'
    /// `seq` and `run_records`: the run's tail (an exit queue cut short, an uploader killed).
    package var tail = 0
    /// The highest `run_dropped` its run records declared: records the sink itself dropped.
    package var dropped = 0
  }

  /// Where a run stands: ended (a `run-end` was read), running, or stale (no `run-end`, and
  /// silent for more than twice its heartbeat interval).
  package enum RunState: String, Sendable, CaseIterable {
    /// A `run-end` was read.
    case ended
    /// No `run-end`, but a record within twice the heartbeat interval.
    case running
    /// No `run-end`, and nothing for more than twice the heartbeat interval: a dead host, a
    /// dead uploader, a full collector, or a writer without run records.
    case stale
  }

  /// Runs by state.
  package struct RunStates: Sendable, Hashable {
    /// Runs with a `run-end`.
    package var ended = 0
    /// Runs heard from lately.
    package var running = 0
    /// Runs silent too long without a `run-end`.
    package var stale = 0

    /// Counts of each state.
    package init(ended: Int = 0, running: Int = 0, stale: Int = 0) {
      (self.ended, self.running, self.stale) = (ended, running, stale)
    }

    /// The count of `state`.
    package subscript(_ state: RunState) -> Int {
      get {
        switch state {
        case .ended: ended
        case .running: running
        case .stale: stale
        }
      }
      set {
        switch state {
        case .ended: ended = newValue
        case .running: running = newValue
        case .stale: stale = newValue
        }
      }
    }
  }

  /// A stale run: named with its host, and when it was last heard from.
  package struct StaleRun: Sendable, Hashable {
    /// The run id.
    package var run: String
    /// The process that wrote it.
    package var process: String
    /// The host it ran on.
    package var host: String
    /// Its newest record.
    package var last: Timestamp

    /// A stale run.
    package init(run: String, process: String, host: String, last: Timestamp) {
      (self.run, self.process, self.host, self.last) = (run, process, host, last)
    }
  }

  /// The runs of one value of the grouping's run-level fields and host (``Summary/runFields``):
  /// their lost records, their sinks' drops and their states.
  package struct RunGroup: Sendable, Hashable {
    /// One value per field of ``Summary/runFields``.
    package var key: [String]
    /// Lost records of these runs.
    package var lost = 0
    /// Records these runs' sinks said they dropped (`run_dropped`).
    package var dropped = 0
    /// These runs by state.
    package var states = RunStates()
    /// The newest record of these runs.
    package var last: Timestamp?
  }

  /// Bins of every group's histogram.
  package static let histogramBins = 8

  /// The fields groups are keyed by.
  package var groupBy: [GroupField]
  /// Events counted (after filters).
  package var events: Int
  /// Records counted (after filters, duplicates once).
  package var records: Int
  /// Lines that looked like events but were not valid.
  package var malformed: Int
  /// Other lines.
  package var other: Int
  /// Lost records in all runs.
  package var lost: Int
  /// Of ``lost``, those before each run's lowest `seq` seen (``LostRun/head``).
  package var lostHead: Int {
    lostRuns.reduce(0) { $0.addingReportingOverflow($1.head).overflow ? Int.max : $0 + $1.head }
  }
  /// Duplicated records (same run and seq), counted once.
  package var duplicates: Int
  /// Earliest counted event.
  package var first: Timestamp?
  /// Latest counted event.
  package var last: Timestamp?
  /// The groups, sorted.
  package var groups: Groups
  /// Runs with lost records, most lost first.
  package var lostRuns: [LostRun]
  /// Distinct runs seen.
  package var runs: Int
  /// Journal entries whose trusted identity (`_UID`, `_PID`, `_BOOT_ID`) is not that of the run
  /// they claim: counted here only, never as records or losses.
  package var forged = 0
  /// Lost records of runs begun by users other than root and the reader (a local journal's
  /// trusted `_UID`, unless every user's runs are gated): shown apart, never in ``lost`` nor in
  /// ``lostRuns``, so no other local user can fail the reader's gate with one entry.
  package var otherUsersLost = 0
  /// The runs counted (``runs``) by state.
  package var runStates = RunStates()
  /// The stale runs, most recently heard from first.
  package var staleRuns: [StaleRun] = []
  /// Records the runs' sinks said they dropped (each run's highest `run_dropped`, summed):
  /// shown beside ``lost``, which counts what never arrived whatever the reason.
  package var runDropped = 0
  /// The fields ``runGroups`` are keyed by: the grouping's fields a whole run shares
  /// (`process`, `host`), then `host` when the grouping lacks it.
  package var runFields: [GroupField] = [.host]
  /// The runs counted, by the values of ``runFields``, sorted by key.
  package var runGroups: [RunGroup] = []
  /// The newest record of the input (any record, before filters), or the time given as now.
  package var newest: Timestamp?
}
