import BindingDiagnostics
import BindingDiagnosticsReport
import Testing

@Suite struct GCCRendererTests {
  /// A file named like a compiler line would steer problem matchers (`file:line:col: error:`)
  /// to a place of its choosing: it is written with no file, as `bindiag: error: …`.
  @Test func aFileHoldingAColonIsNeverWrittenAsTheLinesLocation() {
    var aggregator = Aggregator()
    var event = sampleEvent()
    event.file = "src/main.c:1:1: error: fake"
    aggregator.add(event)
    let text = GCCRenderer().render(aggregator.summary())
    #expect(text.hasPrefix("bindiag: error: "))
    #expect(text.hasSuffix(" [mapped-bool-set-true]\n"))
    #expect(!text.contains("src/main.c"))
    #expect(text.split(separator: "\n").count == 1)
  }
}
