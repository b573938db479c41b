/// The formats `summary` and `check` write (`--format`), in the order help lists them. Each is
/// made by its ``SummaryRenderer``; help, the man page and completions list ``allCases``.
package enum SummaryFormat: String, CaseIterable, Sendable {
  /// Aligned columns fitted to the terminal.
  case table
  /// One JSON object.
  case json
  /// A Markdown table.
  case markdown
  /// Comma-separated values.
  case csv
  /// SARIF 2.1.0.
  case sarif
  /// GitHub workflow-command annotations.
  case github
  /// One self-contained HTML page.
  case html
  /// `FILE:LINE:` lines as compilers write them.
  case gcc
  /// JUnit XML.
  case junit
  /// The Prometheus text exposition format.
  case prometheus

  /// The renderer of the format.
  package var renderer: any SummaryRenderer.Type {
    switch self {
    case .table: TableRenderer.self
    case .json: JSONRenderer.self
    case .markdown: MarkdownRenderer.self
    case .csv: CSVRenderer.self
    case .sarif: SARIFRenderer.self
    case .github: GitHubAnnotationRenderer.self
    case .html: HTMLRenderer.self
    case .gcc: GCCRenderer.self
    case .junit: JUnitRenderer.self
    case .prometheus: PrometheusRenderer.self
    }
  }

  /// How help names it: `csv`, or `sarif (SARIF 2.1.0 for code scanning)`.
  package var helpName: String {
    rawValue + (renderer.formatNote.map { " (\($0))" } ?? "")
  }
}
