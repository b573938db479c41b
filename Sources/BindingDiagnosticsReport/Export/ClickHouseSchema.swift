package import BindingDiagnostics

/// The ClickHouse table `bindiag export --format clickhouse` writes rows for, as
/// `bindiag export --schema clickhouse` prints it: one column per contract field, named by its
/// JSON key, in the contract's order (``ContractField/all`` drives it).
///
/// A `MergeTree`:
/// - text that takes few values (level, kind, message id, file, function, value type, process,
///   host) is `LowCardinality(String)`; `ts` is `DateTime64(6, 'UTC')` (the contract's
///   microseconds); the optional fields are `Nullable`, `NULL` when an event has none;
/// - partitioned by month, so old months are dropped whole (`ALTER TABLE … DROP PARTITION`);
/// - ordered by the call site (`kind`, `file`, `line`) then time, the key `bindiag summary`
///   groups by, so a site's events and a kind's are read together; a bloom filter on `run`
///   finds one run's records for the lost-record queries.
package enum ClickHouseSchema {
  /// The table's name by default.
  package static let defaultTable = "bindiag_events"

  /// The `CREATE TABLE IF NOT EXISTS` statement for `table`, ending in `;\n`.
  /// - Parameter table: The table's name (a ClickHouse identifier, written as is).
  package static func createTable(_ table: String = defaultTable) -> String {
    let width = ContractField.all.map(\.key.count).max() ?? 0
    let columns = ContractField.all.map { field in
      "  `\(field.key)`" + String(repeating: " ", count: width - field.key.count + 1)
        + columnType(field)
    }
    return """
      -- bindiag export --format clickhouse writes JSONEachRow rows for this table:
      --   bindiag export --format clickhouse app.jsonl \\
      --     | clickhouse-client --query 'INSERT INTO \(table) FORMAT JSONEachRow'
      -- Run records (kind run-heartbeat, run-end) are rows too: the queries of
      -- config/clickhouse/summary.sql leave them out of events and use them for lost records.
      CREATE TABLE IF NOT EXISTS \(table)
      (
      \(columns.joined(separator: ",\n")),
        INDEX run_index `run` TYPE bloom_filter GRANULARITY 4
      )
      ENGINE = MergeTree
      PARTITION BY toYYYYMM(`ts`)
      ORDER BY (`kind`, `file`, `line`, `ts`);

      """
  }

  /// The ClickHouse type of `field`'s column.
  /// - Parameter field: A contract field.
  package static func columnType(_ field: ContractField) -> String {
    let base: String
    switch field.id {
    case .schema: base = "UInt8"
    case .timestamp: base = "DateTime64(6, 'UTC') CODEC(Delta, ZSTD(1))"
    case .level, .kind, .messageID, .file, .function, .valueType, .process, .host:
      base = "LowCardinality(String)"
    case .message, .value, .label, .test, .writer, .run: base = "String"
    case .line, .pid, .seq, .suppressed, .runRecords, .runEvents, .runDropped: base = "Int64"
    case .valuePresent: base = "Bool"
    }
    return field.required ? base : "Nullable(\(base))"
  }
}
