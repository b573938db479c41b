import BindingDiagnosticsReport

extension ExportFormat {
  /// How `export --format` help names the format.
  var helpName: String {
    switch self {
    case .otlp:
      "otlp (OpenTelemetry logs: one OTLP/JSON LogsData object per line, for a collector's otlpjsonfile receiver or an OTLP/HTTP /v1/logs endpoint)"
    case .clickhouse: "clickhouse (JSONEachRow rows for the table --schema clickhouse prints)"
    }
  }

  /// ``helpName`` of every format, by name.
  static var helpNames: [String: String] {
    Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0.helpName) })
  }
}
