import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// Journal entries that repeat an earlier entry's fields but their time, `seq` and
/// `value_present` (the reader remembers the events of recent entries by their other fields):
/// each entry still comes out as itself, and a bad time, `seq` or flag in an entry otherwise
/// like a good one is malformed, with its own reason.
@Suite(
  .enabled(
    if: JournalExportFile.remote != nil,
    "systemd-journal-remote is not installed (apt-get install systemd-journal-remote)"))
struct BindiagJournalRepeatTests {
  /// A site's records, each with its own time, `seq` and flag, between records of another site
  /// and a folded one: the rows exported from the journal are those of the same events in a
  /// JSON Lines file.
  @Test func repeatedEntriesKeepTheirOwnTimeSeqAndFlag() throws {
    var events: [MisuseEvent] = []
    for seq in 1...6 {
      var event = fixtureEvent(
        seq: seq, at: "2026-11-30T04:1\(seq):33.12345\(seq)Z", suppressed: seq == 4 ? 3 : 0)
      event.valuePresent = seq % 2 == 0
      events.append(event)
    }
    var other = fixtureEvent(
      seq: 7, file: "App/Detail.swift", line: 7, at: "2026-11-30T05:00:00.000000Z")
    other.valuePresent = false
    events.insert(other, at: 3)
    events.append(fixtureEvent(seq: 8, at: "2026-11-30T05:10:00.000001Z"))
    let directory = try temporaryDirectory()
    try JournalExportFile.write(events, to: directory + "/remote-build-01.journal")

    let result = try bindiag("export", "--format", "clickhouse", "--journal-dir", directory)
    #expect(result.stdout == jsonLines(events))
    #expect(result.stderr == "")
    #expect(result.status == 0)
  }

  /// Entries like a good one (the first) but for one field each: every one is malformed for
  /// its own field, and the good ones around them count.
  @Test func aBadTimeSeqOrFlagInAnEntryLikeAGoodOneIsMalformed() throws {
    let good = fixtureEvent(seq: 1)
    func entry(_ seq: Int, replacing name: String, with value: String) -> JournalExportFile.Fields {
      JournalExportFile.fields(fixtureEvent(seq: seq), index: seq).map {
        $0.name == name ? ($0.name, value) : $0
      }
    }
    let entries: [JournalExportFile.Fields] = [
      JournalExportFile.fields(good, index: 0),
      entry(2, replacing: "BINDING_SEQ", with: "two"),
      entry(3, replacing: "BINDING_SEQ", with: "0"),
      entry(4, replacing: "BINDING_VALUE_PRESENT", with: "yes"),
      entry(5, replacing: "BINDING_TS", with: "2026-11-30 04:12:33"),
      entry(6, replacing: "BINDING_TS", with: "2026-11-30T04:12:33.123456+00:00"),
      JournalExportFile.fields(fixtureEvent(seq: 7), index: 7),
    ]
    let directory = try temporaryDirectory()
    try JournalExportFile.write(entries: entries, to: directory + "/remote-build-01.journal")

    let result = try bindiag("summary", "--format", "json", "--journal-dir", directory)
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    // seq 6's time is RFC 3339 with an offset: a good record, though not in the contract's own
    // 27-byte form.
    #expect(summary["records"] as? Int == 3)
    #expect(summary["malformed"] as? Int == 4)
    #expect(summary["lost"] as? Int == 4)
    for reason in [
      "BINDING_SEQ must be an integer", #""seq" must be at least 1"#,
      "BINDING_VALUE_PRESENT must be 1 or 0", #""ts" is not an RFC 3339 time"#,
    ] {
      #expect(result.stderr.contains(reason), "\(reason)")
    }
    #expect(result.status == 0)
  }
}
