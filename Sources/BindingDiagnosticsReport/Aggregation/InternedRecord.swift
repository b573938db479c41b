import BindingDiagnostics

/// The fields of one record the aggregation needs, with every text field as the id of its
/// bytes in a ``StringTable``: no references, so records are copied and dropped without
/// reference counting. The reader makes them with a chunk's table; the aggregator moves them
/// to its own table's ids once per distinct string per chunk.
struct InternedRecord: Sendable {
  /// No label, or a field the reader was not asked for.
  static let none = UInt32.max

  var timestamp: Int64
  var line: Int
  var seq: Int
  var suppressed: Int
  var kind: UInt32
  var file: UInt32
  var function: UInt32
  var valueType: UInt32
  var label: UInt32
  /// The test that caught the misuse (`test`), `none` when absent or not grouped by.
  var test = InternedRecord.none
  /// Where the misuse was made (`writer`), `none` when absent.
  var writer = InternedRecord.none
  var process: UInt32
  var host: UInt32
  var run: UInt32
  var level: MisuseLevel
  /// A run record's `run_records` (the highest `seq` its run had handed out), else -1.
  var runRecords = -1
  /// A run record's `run_dropped` (what its sink had dropped), else -1.
  var runDropped = -1

  /// Events the record stands for.
  var events: Int { 1 &+ suppressed }
}
