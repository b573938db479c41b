/// What `bindiag export` writes.
package enum ExportFormat: String, CaseIterable, Sendable {
  /// OpenTelemetry logs, OTLP/JSON `LogsData`, one object per line (``OTLPEncoder``).
  case otlp
  /// ClickHouse `JSONEachRow` rows for ``ClickHouseSchema``'s table (``ClickHouseRowEncoder``).
  case clickhouse
}
