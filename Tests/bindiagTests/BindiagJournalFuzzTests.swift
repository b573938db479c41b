import Foundation
import TestSupport
import Testing

/// Journal entries anyone can write, with hostile bytes in every contract field, never crash
/// `bindiag`: each entry is an event or a malformed record, and the run exits 0. They go to a
/// journald of the test's own, never into the machine's journal.
@Suite(.enabled(if: PrivateJournal.unavailability == nil, "\(PrivateJournal.unavailability ?? "")"))
struct BindiagJournalFuzzTests {
  static let fields = [
    "BINDING_TS", "BINDING_LEVEL", "BINDING_KIND", "MESSAGE_ID", "MESSAGE", "CODE_FILE",
    "CODE_LINE", "CODE_FUNC", "BINDING_VALUE_TYPE", "BINDING_VALUE_PRESENT", "BINDING_VALUE",
    "BINDING_LABEL", "SYSLOG_IDENTIFIER", "BINDING_SEQ", "BINDING_SUPPRESSED",
  ]

  /// Values a hostile writer would try: edges of every number and time the reader parses,
  /// invalid UTF-8, NUL, line breaks, bidirectional controls, and sizes around the compression
  /// threshold.
  static let hostile: [[UInt8]] = [
    [], Array("0".utf8), Array("-1".utf8), Array("9223372036854775807".utf8),
    Array("-9223372036854775808".utf8), Array("99999999999999999999999".utf8),
    Array("9007199254740993".utf8), Array("4294967296".utf8),
    Array("0000-01-01T00:00:00.000000Z".utf8), Array("9999-12-31T23:59:59.999999Z".utf8),
    Array("1969-12-31T23:59:59.999999Z".utf8), Array("2026-02-30T25:61:61.000000Z".utf8),
    [0xFF, 0xFE, 0x00, 0x0A, 0x0D], Array("a\nb\u{1B}[2J\u{202E}c".utf8),
    Array("mapped-bool-set-true".utf8), Array("error".utf8), Array("1".utf8),
    Array(repeating: 0x41, count: 513), Array(repeating: 0x80, count: 70_000),
  ]

  @Test func hostileFieldsAreCountedNeverCrash() throws {
    let run = String(UInt64.random(in: 1...UInt64.max), radix: 16)
      .padding(toLength: 16, withPad: "0", startingAt: 0)
    var generator = SystemRandomNumberGenerator()
    let count = 300
    let entries: [JournalNativeSender.Entry] = (0..<count).map { _ in
      var entry: JournalNativeSender.Entry = [
        ("BINDING_SCHEMA", Array("1".utf8)), ("BINDING_RUN", Array(run.utf8)),
      ]
      for field in Self.fields where Int.random(in: 0..<8, using: &generator) != 0 {
        var value = Self.hostile.randomElement(using: &generator)!
        if Bool.random(using: &generator) {
          value = (0..<Int.random(in: 0..<40, using: &generator)).map { _ in
            UInt8.random(in: 0...255, using: &generator)
          }
        }
        entry.append((field, value))
      }
      return entry
    }
    let (journal, _) = try JournalNativeSender.sendPrivately(entries)
    let result = try bindiag(arguments: [
      "summary", "--journal-dir", journal.directory, "--run", run, "--format", "json",
    ])
    try #require(result.status == 0, "exit \(result.status): \(result.stderr)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect((object["records"] as? Int ?? 0) + (object["malformed"] as? Int ?? 0) == count)
    for format in ["table", "markdown", "csv", "sarif", "github"] {
      let result = try bindiag(arguments: [
        "summary", "--journal-dir", journal.directory, "--run", run, "--format", format,
      ])
      #expect(result.status == 0, "\(format): \(result.stderr)")
    }
  }
}
