import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// The contract table drives the logfmt and journal encoders; the hand-written JSON Lines
/// encoder must write exactly its keys in its order.
@Suite struct ContractFieldTests {
  /// An event with every optional field set, its text free of anything logfmt would quote.
  static func everyField() -> MisuseEvent {
    var event = sampleEvent(label: "save-alert")
    event.test = "InboxTests/saving()"
    event.writer = "InboxKit/InboxModel.swift:35"
    event.message = "set-to-true"
    // A run record's counts, so that every row of the table has a value.
    (event.runRecords, event.runEvents, event.runDropped) = (9, 12, 1)
    return event
  }

  @Test func rowsAreInTheOrderOfTheirIDs() {
    // `ContractField.index(of:)` relies on it.
    #expect(ContractField.all.map(\.id) == ContractField.ID.allCases)
    #expect(Set(ContractField.all.map(\.key)).count == ContractField.all.count)
  }

  @Test(arguments: [true, false])
  func jsonLinesWritesTheTablesKeysInOrder(optionals: Bool) throws {
    var event = Self.everyField()
    if !optionals {
      (event.value, event.label, event.test, event.writer) = (nil, nil, nil, nil)
      (event.runRecords, event.runEvents, event.runDropped) = (nil, nil, nil)
    }
    let line = String(decoding: JSONLinesEncoder().encode(event), as: UTF8.self)
    let keys = try NSRegularExpression(pattern: #"[{,]"([a-z_]+)":"#)
      .matches(in: line, range: NSRange(line.startIndex..., in: line))
      .map { String(line[Range($0.range(at: 1), in: line)!]) }
    let expected = ContractField.all.filter { $0.required || optionals }.map(\.key)
    #expect(keys == expected)
  }

  @Test func logfmtWritesTheTablesKeysInOrder() {
    let line = String(decoding: LogfmtEncoder().encode(Self.everyField()), as: UTF8.self)
    let keys = line.dropLast().split(separator: " ").map { String($0.prefix { $0 != "=" }) }
    #expect(keys == ContractField.all.map(\.key))
    #expect(
      line.contains(
        " label=save-alert test=InboxTests/saving() writer=InboxKit/InboxModel.swift:35 process=Demo "
      ))
    #expect(line.hasSuffix(" suppressed=0 run_records=9 run_events=12 run_dropped=1\n"))
  }

  @Test func aRecordWithEveryTextFieldHugeStaysUnderTheCap() throws {
    let path = try temporaryDirectory() + "/events.jsonl"
    let sink = try JSONLinesFileSink.open(path: path, options: .init(synchronous: true)).get()
    let huge = String(repeating: "\u{1}", count: 100_000)
    var event = sampleEvent(message: huge, value: huge, label: huge)
    (event.test, event.file, event.function, event.valueType) = (huge, huge, huge, huge)
    (event.process, event.host) = (huge, huge)
    sink.receive(event)
    sink.flush()
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(data.count <= JSONLinesFileSink.maxRecordBytes)
    #expect(data.last == UInt8(ascii: "\n"))
    let record = try #require(
      try JSONSerialization.jsonObject(with: data.dropLast()) as? [String: Any])
    #expect((record["test"] as? String)?.hasSuffix("…") == true)
    #expect((record["host"] as? String)?.hasSuffix("…") == true)
  }
}
