import BindingDiagnosticsReport

extension SummaryFormat {
  /// The formats `follow` writes.
  static let follow: [SummaryFormat] = [.table, .json]

  /// The formats that point at call sites (their renderer's ``SummaryRenderer/pointsAtSites``):
  /// `--source-root` resolves their paths, and they need `--group-by site`.
  static var pointingAtSites: [SummaryFormat] { allCases.filter { $0.renderer.pointsAtSites } }

  /// How `--format` help names each format: `table (default)`, `sarif (SARIF 2.1.0 for code
  /// scanning)`.
  static var helpNames: [String: String] {
    var names: [String: String] = [:]
    for format in allCases {
      names[format.rawValue] =
        format == ReportOptions.defaultFormat ? "\(format.rawValue) (default)" : format.helpName
    }
    return names
  }
}
