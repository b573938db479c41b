public import BindingDiagnostics

/// The result of aggregation: totals, lost and duplicated records, and the groups, sorted by
/// events descending, then key ascending.
public struct Summary: Sendable {
  /// One group of events.
  public struct Group: Sendable {
    /// The key's parts, one per grouping field.
    public var key: [GroupKeyPart]
    /// Events (`sum(1 + suppressed)`).
    public var events: Int
    /// Records.
    public var records: Int
    /// Earliest event time.
    public var first: Timestamp
    /// Latest event time.
    public var last: Timestamp
    /// Distinct process names, sorted.
    public var processes: [String]
    /// Distinct host names, sorted.
    public var hosts: [String]
    /// Distinct value types, sorted.
    public var valueTypes: [String]
    /// Distinct labels the callers gave their mappings, sorted (at most 64).
    public var labels: [String]
    /// Distinct functions of the call sites, sorted (at most 64): one for a site.
    public var functions: [String]
    /// Events per level.
    public var levels: [MisuseLevel: Int]
    /// Events per bin over the summary's whole time span (``Summary/histogramBins`` bins).
    public var histogram: [Int]
  }

  /// Lost records of one run.
  public struct LostRun: Sendable, Hashable {
    /// The run id.
    public var run: String
    /// The process that wrote it.
    public var process: String
    /// Records missing from `seq` 1 to its highest `seq`.
    public var lost: Int
    /// Of ``lost``, those before the lowest `seq` seen: the run's head, rotated away or in a
    /// file not read, rather than gaps between records seen.
    public var head: Int
  }

  /// Bins of every group's histogram.
  public static let histogramBins = 8

  /// The fields groups are keyed by.
  public var groupBy: [GroupField]
  /// Events counted (after filters).
  public var events: Int
  /// Records counted (after filters, duplicates once).
  public var records: Int
  /// Lines that looked like events but were not valid.
  public var malformed: Int
  /// Other lines.
  public var other: Int
  /// Lost records in all runs.
  public var lost: Int
  /// Of ``lost``, those before each run's lowest `seq` seen (``LostRun/head``).
  public var lostHead: Int {
    lostRuns.reduce(0) { $0.addingReportingOverflow($1.head).overflow ? Int.max : $0 + $1.head }
  }
  /// Duplicated records (same run and seq), counted once.
  public var duplicates: Int
  /// Earliest counted event.
  public var first: Timestamp?
  /// Latest counted event.
  public var last: Timestamp?
  /// The groups, sorted.
  public var groups: [Group]
  /// Runs with lost records, most lost first.
  public var lostRuns: [LostRun]
  /// Distinct runs seen.
  public var runs: Int
  /// Journal entries whose trusted identity (`_UID`, `_PID`, `_BOOT_ID`) is not that of the run
  /// they claim: counted here only, never as records or losses.
  public var forged = 0
}
