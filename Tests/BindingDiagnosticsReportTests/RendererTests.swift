import BindingDiagnostics
import BindingDiagnosticsReport
import Foundation
import Testing

@Suite struct RendererTests {
  func summary() -> Summary {
    var aggregator = Aggregator()
    var event = sampleEvent()
    event.seq = 1
    aggregator.add(event)
    event.seq = 3
    event.suppressed = 2
    event.timestamp = Timestamp(rfc3339: "2026-11-30T05:12:33.000000Z")!
    aggregator.add(event)
    event.seq = 4
    event.suppressed = 0
    event.kind = .unwrappedReadAfterNil
    event.level = .warning
    event.file = "App/Detail, \"quoted\".swift"
    event.line = 7
    event.process = "=cmd|calc"
    aggregator.add(event)
    return aggregator.summary()
  }

  @Test func jsonIsTheContractForm() {
    #expect(
      JSONRenderer().render(summary())
        == #"{"schema":1,"events":5,"records":3,"malformed":0,"other":0,"lost":1,"duplicates":0,"runs":{"ended":0,"running":1,"stale":0},"run_dropped":0,"first":"2026-11-30T04:12:33.123456Z","last":"2026-11-30T05:12:33.000000Z","group_by":["kind","file","line"],"groups":[{"key":{"kind":"mapped-bool-set-true","file":"App/ContentView.swift","line":42},"events":4,"records":2,"first":"2026-11-30T04:12:33.123456Z","last":"2026-11-30T05:12:33.000000Z","processes":["Demo"],"hosts":["build-01"],"value_types":["Swift.Optional<Swift.String>"],"labels":[],"levels":{"error":4},"histogram":[1,0,0,0,0,0,0,3]},{"key":{"kind":"unwrapped-read-after-nil","file":"App/Detail, \"quoted\".swift","line":7},"events":1,"records":1,"first":"2026-11-30T05:12:33.000000Z","last":"2026-11-30T05:12:33.000000Z","processes":["=cmd|calc"],"hosts":["build-01"],"value_types":["Swift.Optional<Swift.String>"],"labels":[],"levels":{"warning":1},"histogram":[0,0,0,0,0,0,0,1]}],"lost_runs":[{"run":"0123456789abcdef","process":"=cmd|calc","host":"build-01","lost":1,"head":0,"tail":0,"dropped":0}],"stale_runs":[],"run_fields":["host"],"run_groups":[{"key":{"host":"build-01"},"lost":1,"dropped":0,"runs":{"ended":0,"running":1,"stale":0},"last":"2026-11-30T05:12:33.000000Z"}]}"#
        + "\n")
  }

  @Test func tableIsAligned() {
    let text = TableRenderer().render(summary())
    #expect(
      text == """
        5 events in 3 records from 1 run, 2026-11-30 04:12:33 to 05:12:33 UTC

        LEVEL    EVENTS  RECORDS  KIND                      SITE                          PROCS  FIRST SEEN  LAST SEEN  TIMELINE
        error         4        2  mapped-bool-set-true      App/ContentView.swift:42          1  04:12:33    05:12:33   ▃      █
        warning       1        1  unwrapped-read-after-nil  App/Detail, "quoted".swift:7      1  05:12:33    05:12:33          █

        Lost records: 1 in 1 run (=cmd|calc run 0123456789abcdef on build-01: 1)
        Runs: 0 ended, 1 running, 0 stale

        """)
  }

  @Test func csvQuotesAndDefusesFormulas() {
    let rows = CSVRenderer().render(summary()).components(separatedBy: "\r\n")
    #expect(
      rows[0]
        == "events,records,kind,file,line,first,last,processes,hosts,value_types,labels,critical,error,warning,notice,info,debug,trace"
    )
    #expect(rows[2].hasPrefix(#"1,1,unwrapped-read-after-nil,"App/Detail, ""quoted"".swift",7,"#))
    #expect(rows[2].contains(",'=cmd|calc,"))
  }

  @Test func markdownEscapesCells() {
    let text = MarkdownRenderer().render(summary())
    #expect(
      text.hasPrefix(
        "## Binding misuse summary\n\n**5** events in 3 records from 1 run · lost records: 1"))
    #expect(
      text.contains("| 1 | 1 | `unwrapped-read-after-nil` | `App/Detail, \"quoted\".swift:7` |"))
    #expect(text.contains("=cmd\\|calc"))
  }
}
