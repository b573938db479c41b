import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// Labels reach every output: JSON groups list them, CSV and Markdown have a column for them,
/// and `--group-by label` groups by them.
@Suite struct BindiagLabelTests {
  /// Two labels at one site, one unlabelled site.
  let events: [MisuseEvent] = {
    var save = fixtureEvent(seq: 1)
    save.label = "save-alert"
    var discard = fixtureEvent(seq: 2, suppressed: 2)
    discard.label = "discard, alert"
    let bare = fixtureEvent(seq: 3, file: "App/Detail.swift", line: 7)
    return [save, discard, bare]
  }()

  @Test func jsonGroupsListTheirLabels() throws {
    let result = try bindiag("summary", "--format", "json", try writeFixture(jsonLines(events)))
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(
      result.stdout.contains(
        #""value_types":["Swift.Optional<Swift.String>"],"labels":["discard, alert","save-alert"],"levels":{"error":4}"#
      ))
    #expect(
      result.stdout.contains(
        #""value_types":["Swift.Optional<Swift.String>"],"labels":[],"levels":{"error":1}"#))
  }

  @Test func csvAndMarkdownHaveALabelColumn() throws {
    let path = try writeFixture(jsonLines(events))
    let csv = try bindiag("summary", "--format", "csv", path)
    #expect(csv.status == 0)
    let rows = csv.stdout.components(separatedBy: "\r\n")
    #expect(
      rows[0]
        == "events,records,kind,file,line,first,last,processes,hosts,value_types,labels,critical,error,warning,notice,info,debug,trace"
    )
    #expect(
      rows[1]
        == #"4,2,mapped-bool-set-true,App/ContentView.swift,42,2026-11-30T04:12:33.123456Z,2026-11-30T04:12:33.123456Z,Demo,build-01,Swift.Optional<Swift.String>,"discard, alert;save-alert",0,4,0,0,0,0,0"#
    )
    #expect(rows[2].contains(",Swift.Optional<Swift.String>,,0,1,"))
    let markdown = try bindiag("summary", "--format", "markdown", path)
    #expect(markdown.status == 0)
    #expect(
      markdown.stdout.contains(
        "| Events | Records | Kind | Site | First seen | Last seen | Processes | Labels |\n"))
    #expect(
      markdown.stdout.contains(
        "| 4 | 2 | `mapped-bool-set-true` | `App/ContentView.swift:42` | 2026-11-30T04:12:33Z | 2026-11-30T04:12:33Z | `Demo` | `discard, alert, save-alert` |\n"
      ))
    #expect(
      markdown.stdout.contains(
        "| 1 | 1 | `mapped-bool-set-true` | `App/Detail.swift:7` | 2026-11-30T04:12:33Z | 2026-11-30T04:12:33Z | `Demo` |  |\n"
      ))
  }

  @Test func groupByLabelGroupsByIt() throws {
    let path = try writeFixture(jsonLines(events))
    let json = try bindiag("summary", "--group-by", "label", "--format", "json", path)
    #expect(json.status == 0)
    #expect(json.stderr == "")
    #expect(
      json.stdout.contains(
        #""group_by":["label"],"groups":[{"key":{"label":"discard, alert"},"events":3,"#))
    #expect(json.stdout.contains(#"{"key":{"label":""},"events":1,"#))
    #expect(json.stdout.contains(#"{"key":{"label":"save-alert"},"events":1,"#))
    let table = try bindiag("summary", "--group-by", "kind,label", path)
    #expect(table.status == 0)
    #expect(
      table.stdout.contains(
        """
        LEVEL  EVENTS  RECORDS  KIND                  LABEL           PROCS  FIRST SEEN  LAST SEEN  TIMELINE
        error       3        1  mapped-bool-set-true  discard, alert      1  04:12:33    04:12:33   █
        error       1        1  mapped-bool-set-true                      1  04:12:33    04:12:33   █
        error       1        1  mapped-bool-set-true  save-alert          1  04:12:33    04:12:33   █
        """))
    let wrong = try bindiag("summary", "--group-by", "lable", path)
    #expect(wrong.status == 64)
    #expect(
      wrong.stderr.hasPrefix(
        #"Error: The value 'lable' is invalid for '--group-by': unknown group field "lable" (expected site, kind, type, process, host, function, label, test, writer, file or line)"#
      ))
  }
}
