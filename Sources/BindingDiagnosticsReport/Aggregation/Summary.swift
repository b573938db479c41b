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
    /// Distinct functions of the call sites, sorted (at most 64): one for a site.
    package var functions: [String]
    /// Events per level.
    package var levels: [MisuseLevel: Int]
    /// Events per bin over the summary's whole time span (``Summary/histogramBins`` bins).
    package var histogram: [Int]
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
}
