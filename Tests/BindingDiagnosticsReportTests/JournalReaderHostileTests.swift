import BindingDiagnostics
import Foundation
import TestSupport
import Testing

@testable import BindingDiagnosticsReport

/// Entries written by another local user through the native protocol, with fields around and far
/// above journald's compression threshold (512 bytes), must read back byte-equal to what
/// `journalctl -o json --all` shows: the reader keeps nothing libsystemd may reuse. They go to a
/// journald of the test's own, never into the machine's journal.
@Suite(.enabled(if: PrivateJournal.unavailability == nil, "\(PrivateJournal.unavailability ?? "")"))
struct JournalReaderHostileTests {
  /// Deterministic text of `count` bytes: ASCII, two- and three-byte UTF-8, distinct per seed.
  static func text(_ count: Int, seed: UInt64) -> [UInt8] {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count + 3)
    while bytes.count < count {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      switch state % 16 {
      case 0 where count - bytes.count >= 2: bytes += Array("é".utf8)
      case 1 where count - bytes.count >= 3: bytes += Array("→".utf8)
      default: bytes.append(UInt8(0x21 + state % 90))
      }
    }
    return bytes
  }

  static func entry(run: String, seq: Int, size: Int) -> JournalNativeSender.Entry {
    func field(_ name: String, _ value: String) -> (name: String, value: [UInt8]) {
      (name, Array(value.utf8))
    }
    let base = UInt64(seq) << 8
    return [
      field("MESSAGE_ID", "2b9f53b872d7905613eeb68e53797657"),
      ("MESSAGE", text(600, seed: base + 1)),
      field("PRIORITY", "3"),
      field("CODE_FILE", "Hostile/View.swift"),
      field("CODE_LINE", "7"),
      // Two compressed fields in a row: the second one's decompression reuses the buffer the
      // first one was returned in.
      ("CODE_FUNC", text(size, seed: base + 2)),
      ("BINDING_VALUE_TYPE", text(600, seed: base + 3)),
      field("SYSLOG_IDENTIFIER", "hostile"),
      field("BINDING_SCHEMA", "1"),
      field("BINDING_TS", "2026-11-30T04:12:33.123456Z"),
      field("BINDING_LEVEL", "error"),
      field("BINDING_KIND", "mapped-bool-set-true"),
      field("BINDING_VALUE_PRESENT", "1"),
      ("BINDING_VALUE", text(size, seed: base + 4)),
      ("BINDING_LABEL", text(size, seed: base + 5)),
      field("BINDING_RUN", run),
      field("BINDING_SEQ", String(seq)),
      field("BINDING_SUPPRESSED", "0"),
    ]
  }

  /// A `journalctl -o json` value as bytes: a string, or an array of byte values.
  static func bytes(_ value: Any?) -> [UInt8]? {
    if let string = value as? String { return Array(string.utf8) }
    if let numbers = value as? [Int] { return numbers.map { UInt8($0) } }
    return nil
  }

  @Test func largeFieldsFromAnotherUserReadBackByteEqual() throws {
    let run = String(UInt64.random(in: 1...UInt64.max), radix: 16)
      .padding(toLength: 16, withPad: "0", startingAt: 0)
    let sizes = [600, 100_000, 1 << 20, 4 << 20]
    let sent = sizes.enumerated().map { Self.entry(run: run, seq: $0.offset + 1, size: $0.element) }
    let (journal, uid) = try JournalNativeSender.sendPrivately(sent)
    if getuid() == 0 { #expect(uid == 65534) }
    let expected = try journal.entries(matching: ["BINDING_RUN=\(run)"])
    try #require(expected.count == sent.count)
    for entry in expected { #expect(entry["_UID"] as? String == String(uid)) }

    // Read every field back through libsystemd, copying out of the handler.
    final class Collected: @unchecked Sendable {
      var entries: [[[UInt8]?]] = []
      var events: [MisuseEvent] = []
    }
    let collected = Collected()
    let fields = EventDecoder.journalFields
    let result = JournalReader.read(
      JournalReader.Query(
        source: .directory(journal.directory), matches: ["BINDING_RUN=\(run)"], fields: fields)
    ) { entry in
      collected.entries.append(entry.values.map { $0.map { Array($0) } })
      if case .event(let event) = InputReader.classify(entry) { collected.events.append(event) }
      return true
    }
    try result.get()
    try #require(collected.entries.count == sent.count)
    let seqIndex = try #require(fields.firstIndex(of: "BINDING_SEQ"))
    for values in collected.entries {
      let seq = try #require(values[seqIndex].map { String(decoding: $0, as: UTF8.self) })
      let reference = try #require(expected.first { $0["BINDING_SEQ"] as? String == seq })
      for (index, name) in fields.enumerated() {
        #expect(values[index] == Self.bytes(reference[name]), "field \(name) of seq \(seq)")
      }
    }
    // Decoded events carry each field's own bytes, not another field's.
    #expect(collected.events.count == sent.count)
    for event in collected.events {
      let original = sent[event.seq - 1]
      func sentText(_ name: String) -> String? {
        original.first { $0.name == name }.map { String(decoding: $0.value, as: UTF8.self) }
      }
      #expect(event.function == sentText("CODE_FUNC"))
      #expect(event.valueType == sentText("BINDING_VALUE_TYPE"))
      #expect(event.value == sentText("BINDING_VALUE"))
      #expect(event.label == sentText("BINDING_LABEL"))
      #expect(event.message == sentText("MESSAGE"))
    }
  }
}
