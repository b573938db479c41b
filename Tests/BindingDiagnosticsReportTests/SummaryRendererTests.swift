import BindingDiagnostics
import BindingDiagnosticsReport
import Testing

/// Every `--format` is a ``SummaryRenderer`` made from a ``RenderContext``: made through the
/// protocol it writes what the renderer made by hand writes, and in pieces what it writes whole.
@Suite struct SummaryRendererTests {
  static func summary() -> Summary {
    var aggregator = Aggregator()
    for (index, kind) in MisuseKind.builtIn.enumerated() {
      var event = sampleEvent()
      event.kind = kind
      event.level = kind.defaultLevel
      event.line = index + 1
      event.seq = index + 1
      aggregator.add(event)
    }
    return aggregator.summary()
  }

  static let context = RenderContext(
    top: 3, toolVersion: "1.0",
    verdict: CheckVerdict(summary(), thresholds: .init(), summaryLevel: nil))

  @Test(arguments: SummaryFormat.allCases)
  func theProtocolMakesTheFormatsRenderer(_ format: SummaryFormat) {
    let summary = Self.summary()
    let made = format.renderer.init(for: summary, context: Self.context)
    let whole = made.render(summary)
    var pieces = ""
    made.render(summary) { pieces += $0 }
    #expect(pieces == whole, "\(format): its pieces are not its whole output")
    #expect(whole.utf8.last == UInt8(ascii: "\n"), "\(format)")
    let byHand: String =
      switch format {
      case .table: TableRenderer(top: 3).render(summary)
      case .json: JSONRenderer(top: 3).render(summary)
      case .markdown: MarkdownRenderer(top: 3).render(summary)
      case .csv: CSVRenderer(top: 3).render(summary)
      case .sarif: SARIFRenderer(toolVersion: "1.0", top: 3).render(summary)
      case .github: GitHubAnnotationRenderer(top: 3).render(summary)
      case .html: HTMLRenderer(top: 3).render(summary)
      case .gcc: GCCRenderer(top: 3).render(summary)
      case .junit: JUnitRenderer(top: 3, verdict: Self.context.verdict!).render(summary)
      case .prometheus: PrometheusRenderer().render(summary)
      }
    #expect(whole == byHand, "\(format)")
  }

  /// What `--format` help and `--source-root` say of each format comes from its renderer.
  @Test func theFormatsDescribeThemselves() {
    #expect(SummaryFormat.sarif.helpName == "sarif (SARIF 2.1.0 for code scanning)")
    #expect(SummaryFormat.csv.helpName == "csv")
    #expect(
      SummaryFormat.allCases.filter { $0.renderer.pointsAtSites } == [
        .sarif, .github, .gcc, .junit,
      ])
    #expect(SummaryFormat.allCases.filter { $0.renderer.needsVerdict } == [.junit])
    #expect(SummaryFormat.prometheus.renderer.groupFields == [.host])
  }

  /// Table and Markdown show 20 groups unless told otherwise; the other formats all.
  @Test func theDefaultTopIsTheFormatsOwn() {
    var aggregator = Aggregator()
    for line in 1...25 {
      var event = sampleEvent()
      event.line = line
      event.seq = line
      aggregator.add(event)
    }
    let summary = aggregator.summary()
    let context = RenderContext()
    #expect(
      SummaryFormat.table.renderer.init(for: summary, context: context).render(summary)
        == TableRenderer(top: 20).render(summary))
    #expect(
      SummaryFormat.markdown.renderer.init(for: summary, context: context).render(summary)
        == MarkdownRenderer(top: 20).render(summary))
    #expect(
      SummaryFormat.csv.renderer.init(for: summary, context: context).render(summary)
        == CSVRenderer(top: nil).render(summary))
  }
}
