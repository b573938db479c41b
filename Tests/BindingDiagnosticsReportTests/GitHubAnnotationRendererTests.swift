import BindingDiagnostics
import BindingDiagnosticsReport
import Testing

@Suite struct GitHubAnnotationRendererTests {
  @Test(arguments: [
    ("plain text", "plain text", "plain text"),
    ("100% done", "100%25 done", "100%25 done"),
    ("two\nlines\r\nhere", "two%0Alines%0D%0Ahere", "two%0Alines%0D%0Ahere"),
    ("a: b, c", "a: b, c", "a%3A b%2C c"),
    ("%0A is not a newline", "%250A is not a newline", "%250A is not a newline"),
    ("::error::forged", "::error::forged", "%3A%3Aerror%3A%3Aforged"),
    ("bell\u{7}esc\u{1b}[31m", "bell\\u0007esc\\u001b[31m", "bell\\u0007esc\\u001b[31m"),
  ])
  func escapingFollowsTheWorkflowCommandRules(text: String, data: String, property: String) {
    #expect(GitHubAnnotationRenderer.escapeData(text) == data)
    #expect(GitHubAnnotationRenderer.escapeProperty(text) == property)
  }

  @Test func oneCommandPerSiteByLevel() {
    var aggregator = Aggregator()
    var event = sampleEvent()
    event.suppressed = 2
    aggregator.add(event)
    event.seq += 1
    event.suppressed = 0
    event.kind = .unwrappedWriteAfterNil
    event.level = .warning
    event.file = "App/Form, step: 2.swift"
    event.line = 9
    event.label = "line\nbreak 50%"
    aggregator.add(event)
    event.seq += 1
    event.kind = .unwrappedReadAfterNil
    event.level = .info
    event.file = "App/Detail.swift"
    event.line = 7
    event.label = nil
    aggregator.add(event)
    let text = GitHubAnnotationRenderer(paths: [
      "App/ContentView.swift": "Sources/App/ContentView.swift"
    ])
    .render(aggregator.summary())
    #expect(
      text == """
        ::error file=Sources/App/ContentView.swift,line=42,title=mapped-bool-set-true (bindiag)::A Binding<Bool> mapped from an optional was set to true: 3 events in 1 record, first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC.
        ::notice file=App/Detail.swift,line=7,title=unwrapped-read-after-nil (bindiag)::A binding unwrapped from an optional was read after it became nil: 1 event in 1 record, first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC.
        ::warning file=App/Form%2C step%3A 2.swift,line=9,title=unwrapped-write-after-nil (bindiag)::A binding unwrapped from an optional was written after it became nil: 1 event in 1 record, first seen 2026-11-30 04:12:33 UTC, last seen 2026-11-30 04:12:33 UTC, label "line%0Abreak 50%25".

        """)
  }
}
