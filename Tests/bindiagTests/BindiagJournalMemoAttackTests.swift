import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// A hostile writer against the journal reader's memo (an entry whose fields but the per-record
/// ones are those of a recent entry takes that entry's event) and its run owners' shortcut:
/// entries that repeat a good entry but for one hostile field each, read from the journal files
/// (memo hits), give what full decoding gives: the same entries made unlike each other (each its
/// own `CODE_LINE`: no hits), or the same files' `journalctl -o json` output (no memo), give the
/// same events, counts and malformed reasons. Real journal files, written by
/// `systemd-journal-remote` from export format, so the trusted fields (`_PID`, `_UID`,
/// `_BOOT_ID`, `_COMM`, `_EXE`) are the test's to choose.
@Suite(
  .enabled(
    if: JournalExportFile.remote != nil,
    "systemd-journal-remote is not installed (apt-get install systemd-journal-remote)"))
struct BindiagJournalMemoAttackTests {
  /// One entry's fields as bytes, in order (a name may repeat).
  typealias Entry = [(name: String, value: [UInt8])]

  static let owner = "0123456789abcdef"
  static let other = "fedcba9876543210"
  static let boot = "0123456789abcdef0123456789abcdef"

  /// A good entry of run `run`, `seq`, sent by `pid` of `uid` on `boot`, named `Demo`.
  static func good(
    seq: Int, run: String = owner, pid: Int = 4242, uid: Int = 1000,
    time: String = "2026-11-30T04:12:33.123456Z"
  ) -> Entry {
    let event = fixtureEvent(seq: seq, at: time, run: run)
    let trusted: [(String, String)] = [
      ("__REALTIME_TIMESTAMP", String(event.timestamp.microsecondsSinceEpoch)),
      ("__MONOTONIC_TIMESTAMP", String(seq)), ("_BOOT_ID", boot), ("_TRANSPORT", "journal"),
      ("_HOSTNAME", "build-01"), ("_PID", String(pid)), ("_UID", String(uid)),
      ("_GID", String(uid)), ("_COMM", "Demo"), ("_EXE", "/usr/bin/Demo"),
    ]
    let fields: [(name: String, value: String)] = JournalFieldsEncoder().fields(event)
    return (trusted + fields).map { (name: $0.0, value: Array($0.1.utf8)) }
  }

  /// `entry` with `name`'s value replaced (`nil`: removed).
  static func replacing(_ name: String, with value: [UInt8]?, in entry: Entry) -> Entry {
    value.map { value in entry.map { $0.name == name ? (name, value) : $0 } }
      ?? entry.filter { $0.name != name }
  }

  /// A good entry (`seq`) with `name`'s value replaced by `value` (removed when `nil`).
  static func hostile(_ seq: Int, _ name: String, _ value: String?) -> Entry {
    replacing(name, with: value.map { Array($0.utf8) }, in: good(seq: seq))
  }

  /// The entries in export format: `__` fields as text, every other in the binary form (any
  /// bytes; `systemd-journal-remote` leaves out an empty one, so an empty value is a missing
  /// field here).
  static func export(_ entries: [Entry]) -> Data {
    var out = Data()
    for entry in entries {
      for (name, value) in entry {
        if name.hasPrefix("__") {
          out.append(Data((name + "=").utf8) + Data(value) + Data("\n".utf8))
        } else {
          out.append(Data((name + "\n").utf8))
          withUnsafeBytes(of: UInt64(value.count).littleEndian) { out.append(contentsOf: $0) }
          out.append(Data(value) + Data("\n".utf8))
        }
      }
      out.append(Data("\n".utf8))
    }
    return out
  }

  /// A directory holding one journal file of `entries`.
  static func journal(_ entries: [Entry]) throws -> String {
    let directory = try temporaryDirectory()
    let remote = try #require(JournalExportFile.remote)
    let result = try runProduct(
      remote, ["--split-mode=none", "--output=\(directory)/remote.journal", "-"],
      stdin: export(entries))
    try #require(result.status == 0, "systemd-journal-remote: \(result.stderr)")
    return directory
  }

  /// The malformed reasons on standard error, without the source and line they name (the two
  /// inputs name them differently), sorted.
  static func reasons(_ stderr: String) -> [String] {
    stderr.split(separator: "\n").map { line in
      line.range(of: ": malformed: ").map { String(line[$0.upperBound...]) } ?? String(line)
    }.sorted()
  }

  /// `entries` with each one's `CODE_LINE` its own (1000 on): no entry repeats another's
  /// fields, so none is a memo hit.
  static func unrepeated(_ entries: [Entry]) -> [Entry] {
    entries.enumerated().map { index, entry in
      entry.map { $0.name == "CODE_LINE" ? ($0.name, Array(String(1000 + index).utf8)) : $0 }
    }
  }

  /// The exported events of `directory` without the fields ``unrepeated(_:)`` changes, the
  /// summary's counts and the malformed reasons.
  static func outcome(_ directory: String) throws -> (
    events: [String], counts: [String], reasons: [String]
  ) {
    let export = try bindiag(arguments: [
      "export", "--format", "clickhouse", "--journal-dir", directory,
    ])
    #expect(export.status == 0, "\(export.stderr)")
    let events = try export.stdout.split(separator: "\n").map { row in
      var object = try #require(
        JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: Any])
      object["line"] = nil
      object["msg"] = nil
      let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
      return String(decoding: data, as: UTF8.self)
    }
    let summary = try bindiag(arguments: [
      "summary", "--format", "json", "--journal-dir", directory,
    ])
    #expect(summary.status == 0, "\(summary.stderr)")
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any])
    let counts = ["events", "records", "malformed", "other", "lost", "duplicates", "forged"].map {
      "\($0): \(object[$0] as? Int ?? -1)"
    }
    return (events, counts, reasons(summary.stderr))
  }

  /// `arguments` over the journal files of `directory`, and over their `journalctl -o json`
  /// output on standard input: standard output and the reasons on standard error agree.
  static func bothReaders(
    _ arguments: [String], _ directory: String
  ) throws -> (direct: ProcessOutput, piped: ProcessOutput) {
    let direct = try bindiag(arguments: arguments + ["--journal-dir", directory])
    let exported = try runProduct(
      "/usr/bin/env",
      [
        "journalctl", "--no-pager", "--all", "-o", "json", "--directory", directory,
        "BINDING_SCHEMA=1",
      ])
    try #require(exported.status == 0, "journalctl: \(exported.stderr)")
    let piped = try bindiag(arguments: arguments, stdin: Data(exported.stdout.utf8))
    #expect(direct.status == 0, "\(direct.stderr)")
    #expect(piped.status == direct.status)
    #expect(direct.stdout == piped.stdout)
    #expect(reasons(direct.stderr) == reasons(piped.stderr))
    return (direct, piped)
  }

  /// A good entry, then entries like it but for one per-record field each, holding what a
  /// hostile writer would try (`seq`, flag and time edges, a `run` of the wrong form, a
  /// `_PID`, `_HOSTNAME`, `_UID` or `_BOOT_ID` missing, broken or another's), each a memo hit
  /// read from the files: every one is an event, malformed or forged exactly as when decoded in
  /// full.
  @Test func perRecordFieldsOfAMemoHitAreCheckedAsInFullDecoding() throws {
    var entries = [Self.good(seq: 1)]
    var seq = 1
    func add(_ name: String, _ values: [String?]) {
      for value in values {
        seq += 1
        entries.append(Self.hostile(seq, name, value))
      }
    }
    add(
      "BINDING_SEQ",
      [
        "0", "-1", "", "9007199254740992", "9007199254740991", "99999999999999999999", "+5", " 5",
        "1e3", "0x10", nil,
      ])
    add("BINDING_VALUE_PRESENT", ["", "2", "10", "true", "0", nil])
    add(
      "BINDING_TS",
      [
        "", "2026-11-30T04:12:33.12345xZ", "2026-11-30T04:12:3x.123456Z",
        "2026-11-30T04:12:61.123456Z", "2026-11-30T04:12:60.123456Z",
        "2026-11-30T24:12:33.123456Z", "2026-02-30T04:12:33.123456Z",
        "2026-11-30T04:12:33.123456+00:00", "2026-11-30T04:12:33.123456z",
        "2026-11-30 04:12:33.123456Z", "2026-11-30T04:13:33.123456Z", nil,
      ])
    add(
      "BINDING_RUN",
      ["0123456789ABCDEF", "0123456789abcde", "0123456789abcdef0", "", "0123456789abcdeg", nil])
    add("_PID", ["abc", "", "-1", "4243", "04242", "1234567890123456789", nil])
    add("_HOSTNAME", ["", "build-02", "b\u{202E}uild", nil])
    add("_UID", ["0", "", "x", nil])
    add("_BOOT_ID", ["fedcba9876543210fedcba9876543210", "", nil])
    // Bytes that are not UTF-8 in the host and the run.
    for name in ["_HOSTNAME", "BINDING_RUN", "BINDING_TS"] {
      seq += 1
      entries.append(Self.replacing(name, with: [0x30, 0xFF, 0xC0, 0x80], in: Self.good(seq: seq)))
    }
    // `seq` given twice, a bad value and a good one in either order: the reader takes the first
    // the journal holds (the "0" stored before), both are malformed.
    for pair in [("0", String(seq + 1)), (String(seq + 2), "0")] {
      seq += 1
      entries.append(
        Self.hostile(seq, "BINDING_SEQ", pair.0) + [("BINDING_SEQ", Array(pair.1.utf8))])
    }
    // The good one again, last: still a hit, still an event.
    entries.append(Self.good(seq: seq + 1))
    let hits = try Self.outcome(Self.journal(entries))
    let misses = try Self.outcome(Self.journal(Self.unrepeated(entries)))
    let total = try hits.counts.filter {
      ["records", "malformed", "forged"].contains($0.split(separator: ":")[0])
    }.map { try #require(Int($0.split(separator: " ")[1])) }.reduce(0, +)
    #expect(total == entries.count, "every entry written and counted once")
    #expect(hits.events == misses.events)
    #expect(hits.counts == misses.counts)
    #expect(hits.reasons == misses.reasons)
    // The good ones, a seq of 2^53 - 1 (the seqs below it lost), a flag of 0, the times RFC 3339
    // takes, `04242`, other hosts; another `_PID`, `_UID` or `_BOOT_ID` (or none) is forged.
    #expect(
      hits.counts == [
        "events: 14", "records: 14", "malformed: 37", "other: 0",
        "lost: 9007199254740977", "duplicates: 0", "forged: 9",
      ], "\(hits.counts)")
  }

  /// Entries like a good one but for one field that is part of the memo's key (message, file
  /// and line split at another place, an absent versus an empty value or label, another
  /// `_COMM` or `_EXE`, another kind): none takes the good one's event; each is exported with
  /// its own fields, as decoded in full.
  @Test func aMemoHitNeverLendsAnotherEntrysFields() throws {
    var entries = [Self.good(seq: 1)]
    let changes: [(String, String?)] = [
      ("MESSAGE", "A misuse. ContentView.swift:42"), ("CODE_FILE", "App/ContentView.swif"),
      ("CODE_LINE", "43"), ("CODE_LINE", "042"), ("BINDING_VALUE", ""), ("BINDING_VALUE", nil),
      ("BINDING_LABEL", ""), ("BINDING_TEST", ""), ("BINDING_WRITER", ""), ("_COMM", "evil"),
      ("_COMM", nil), ("_EXE", "/tmp/python3"), ("_EXE", nil), ("SYSLOG_IDENTIFIER", "Demo2"),
      ("BINDING_KIND", "unwrapped-read-after-nil"), ("BINDING_SUPPRESSED", "3"),
      ("BINDING_LEVEL", "error"), ("CODE_FUNC", "main"),
    ]
    for (offset, change) in changes.enumerated() {
      entries.append(Self.hostile(offset + 2, change.0, change.1))
      entries.append(Self.good(seq: 100 + offset))
    }
    // The message of one field split across the next: the key's lengths tell them apart.
    let split = Self.replacing(
      "CODE_FILE", with: Array("ContentView.swift".utf8),
      in: Self.hostile(90, "MESSAGE", "A misuse.App/"))
    entries += [split, Self.good(seq: 91)]
    let directory = try Self.journal(entries)

    let (direct, _) = try Self.bothReaders(["export", "--format", "clickhouse"], directory)
    let rows = direct.stdout.split(separator: "\n")
    #expect(rows.count == entries.count, "\(direct.stderr)")
    #expect(Set(rows).count == entries.count, "two entries exported alike")
    _ = try Self.bothReaders(["summary", "--format", "json"], directory)
  }

  /// Two runs of two processes whose entries are alike but for `run`, `_PID` and `seq`,
  /// interleaved with each process claiming the other's run: the claims are forged whether the
  /// run owners' shortcut (the last run and identity that agreed) or its lookup decides.
  @Test func interleavedRunsAndClaimsAreForgedWhateverTheOrder() throws {
    var entries: [Entry] = []
    var seq = 0
    func add(_ run: String, _ pid: Int, uid: Int = 1000) {
      seq += 1
      entries.append(Self.good(seq: seq, run: run, pid: pid, uid: uid))
    }
    add(Self.owner, 100)
    add(Self.other, 200)
    add(Self.owner, 100)
    add(Self.owner, 200)  // forged
    add(Self.owner, 200)  // forged again, right after
    add(Self.other, 200)
    add(Self.other, 100)  // forged
    add(Self.other, 200, uid: 0)  // forged: another uid
    add(Self.owner, 100)
    add(Self.owner, 100)
    let directory = try Self.journal(entries)

    let (direct, _) = try Self.bothReaders(["summary", "--format", "json"], directory)
    #expect(
      direct.stdout.contains(#""records":6,"malformed":0"#)
        && direct.stdout.contains(#""forged":4"#), "\(direct.stdout)")
  }

  /// Fields a hostile writer adds around the wanted ones: names that are prefixes or
  /// extensions of them, names of 64 bytes, a thousand other
  /// fields, and values far above the memo's 16 KiB: the entries are counted as when decoded
  /// in full, and the reader's memory stays that of the entries.
  @Test func oddFieldsAroundTheWantedOnesAreHarmless() throws {
    var entries = [Self.good(seq: 1)]
    let names = [
      "BINDING_SE", "BINDING_SEQQ", "BINDING_RUN_", "_PI", "_PIDX", "BINDING_TS_",
      String(repeating: "B", count: 64), "BINDING_SEQ" + String(repeating: "_", count: 53),
    ]
    var seq = 1
    for name in names {
      seq += 1
      entries.append(Self.good(seq: seq) + [(name, Array("0".utf8))])
    }
    seq += 1
    entries.append(
      Self.good(seq: seq)
        + (0..<1000).map { ("FIELD_\($0)", Array(repeating: UInt8(ascii: "x"), count: $0 % 7)) })
    for size in [16_000, 16_385, 500_000] {
      seq += 1
      entries.append(
        Self.hostile(seq, "MESSAGE", String(repeating: "m", count: size)))
      seq += 1
      entries.append(
        Self.hostile(seq, "MESSAGE", String(repeating: "m", count: size)))
    }
    let directory = try Self.journal(entries)

    let (direct, _) = try Self.bothReaders(["summary", "--format", "json"], directory)
    #expect(
      direct.stdout.contains(#""records":\#(entries.count),"malformed":0"#), "\(direct.stdout)")
  }
}
