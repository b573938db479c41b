import BindingDiagnostics
import Foundation
import Testing

@testable import BindingDiagnosticsReport

/// The readers' hand-written fast path follows the contract table: a line built from the table
/// alone (keys in its order, each optional field present or absent) is taken by the fast path,
/// and the exact decoder reads the same event.
@Suite struct ContractTableReadingTests {
  static let values: [ContractField.ID: String] = [
    .schema: "1", .timestamp: #""2026-11-30T04:12:33.123456Z""#, .level: #""error""#,
    .kind: #""mapped-bool-set-true""#, .messageID: #""2b9f53b872d7905613eeb68e53797657""#,
    .message: #""m""#, .file: #""App/A.swift""#, .line: "29", .function: #""body""#,
    .valueType: #""Swift.Optional<Swift.String>""#, .valuePresent: "true",
    .value: #""<private>""#, .label: #""save-alert""#, .test: #""Suite/test()""#,
    .writer: #""App/Model.swift:35""#, .process: #""Demo""#, .pid: "42", .host: #""h1""#, .run: #""0123456789abcdef""#,
    .seq: "3", .suppressed: "0", .runRecords: "7", .runEvents: "12", .runDropped: "1",
  ]

  /// The JSON line of the table's fields, optional ones only where `include` says.
  static func line(including include: (ContractField) -> Bool) -> [UInt8] {
    let members = ContractField.all.filter { $0.required || include($0) }.map {
      #""\#($0.key)":\#(values[$0.id]!)"#
    }
    return Array(("{" + members.joined(separator: ",") + "}").utf8)
  }

  @Test func everyTableRowHasASampleValue() {
    #expect(Set(Self.values.keys) == Set(ContractField.ID.allCases))
  }

  @Test func theFastPathTakesEveryLineTheTableDescribes() throws {
    let optional = ContractField.all.filter { !$0.required }
    for mask in 0..<(1 << optional.count) {
      let present = Set(optional.indices.filter { mask & (1 << $0) != 0 }.map { optional[$0].id })
      let bytes = Self.line(including: { present.contains($0.id) })
      let fast = bytes.withUnsafeBufferPointer { bytes in
        var day = ContractDay()
        return ContractFastParser.scan(bytes, day: &day)
      }
      #expect(fast != nil, "fast path refused \(String(decoding: bytes, as: UTF8.self))")
      let (classified, exact) = classifyBytes(bytes)
      guard case .event(let event) = exact else {
        Issue.record("exact decoder refused: \(exact)")
        continue
      }
      #expect(classified == exact)
      #expect((event.test != nil) == present.contains(.test))
      #expect((event.label != nil) == present.contains(.label))
      #expect((event.writer != nil) == present.contains(.writer))
      #expect((event.runRecords != nil) == present.contains(.runRecords))
    }
  }

  @Test func keysOutOfTableOrderAreLeftToTheExactDecoder() {
    // Swap `label` and `test`: still a valid event, but not in the table's order.
    var text = String(decoding: Self.line(including: { _ in true }), as: UTF8.self)
    text = text.replacingOccurrences(
      of: #""label":"save-alert","test":"Suite/test()""#,
      with: #""test":"Suite/test()","label":"save-alert""#)
    let bytes = Array(text.utf8)
    let fast = bytes.withUnsafeBufferPointer { bytes in
      var day = ContractDay()
      return ContractFastParser.scan(bytes, day: &day)
    }
    #expect(fast == nil)
    guard case .event(let event) = classifyBytes(bytes).exact else {
      Issue.record("exact decoder refused a reordered line")
      return
    }
    #expect(event.test == "Suite/test()")
  }

  @Test func journalFieldsReadBackAsTheEventWithoutTheSiteInMessage() throws {
    var event = sampleEvent()
    event.label = "save-alert"
    event.test = "InboxTests/saving()"
    var fields = Dictionary(
      uniqueKeysWithValues: JournalFieldsEncoder().fields(event).map { ($0.name, $0.value) })
    #expect(fields["MESSAGE"] == event.message + " (App/ContentView.swift:42, save-alert)")
    fields["_PID"] = String(event.pid)
    fields["_HOSTNAME"] = event.host
    #expect(try EventDecoder.decodeJournal(fields).get() == event)
    // A MESSAGE written by someone else keeps whatever it says.
    fields["MESSAGE"] = "written by hand"
    #expect(try EventDecoder.decodeJournal(fields).get().message == "written by hand")
  }
}
