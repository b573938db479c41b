import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// The table as people see it: identifiers are never rewritten to fit, and off a terminal no
/// cell of hostile input makes a line of a megabyte.
@Suite struct BindiagTableOutputTests {
  /// A label of a megabyte, as one came from the journal.
  func hugeLabelFixture() throws -> String {
    var event = fixtureEvent(seq: 1)
    event.label = String(repeating: "x", count: 1_000_000)
    return try writeFixture(jsonLines([event]))
  }

  @Test func offATerminalEveryCellIsCappedByDefault() throws {
    let result = try bindiag("summary", try hugeLabelFixture())
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let label = String(repeating: "x", count: 99) + "…"
    #expect(
      result.stdout.contains(
        "error       1        1  mapped-bool-set-true  App/ContentView.swift:42  \(label)      1  04:12:33"
      ))
    #expect(result.stdout.utf8.count < 2_000)
  }

  @Test func maxColumnsSetsTheCapAndZeroLiftsIt() throws {
    let path = try hugeLabelFixture()
    let narrow = try bindiag("summary", "--max-columns", "12", path)
    #expect(narrow.status == 0)
    #expect(
      narrow.stdout.contains(
        """
        LEVEL  EVENTS  RECORDS  KIND                  SITE          LABEL         PROCS  FIRST SEEN  LAST SEEN  TIMELINE
        error       1        1  mapped-bool-set-true  …ew.swift:42  xxxxxxxxxxx…      1  04:12:33    04:12:33   █
        """))
    let whole = try bindiag("summary", "--max-columns=0", path)
    #expect(whole.stdout.contains(String(repeating: "x", count: 1_000_000) + "      1  04:12:33"))
    let bad = try bindiag("summary", "--max-columns", "many", path)
    #expect(bad.status == 64)
    #expect(bad.stderr.hasPrefix("Error: The value 'many' is invalid for '--max-columns'"))
  }

  @Test func eightyColumnsKeepKindsFileNamesAndLabels() throws {
    var events = summaryFixtureEvents
    for index in events.indices {
      events[index].file = "InboxKit/Sources/InboxKit/Models/" + events[index].file
      events[index].label = "save-alert"
    }
    let session = try TerminalSession(
      ["summary", "--color=never", try writeFixture(jsonLines(events))], columns: 80)
    #expect(session.finish() == 0)
    #expect(
      session.text.contains(
        """
        LEVEL  EVENTS  KIND                      SITE                         LABEL
        error      11  mapped-bool-set-true      …/App/ContentView.swift:42   save-alert
        info        1  unwrapped-read-after-nil  …/Models/App/Detail.swift:7  save-alert
        """), "\(session.text)")
  }
}
