import BindingDiagnostics
import Testing

@testable import BindingDiagnosticsReport

/// A line whose call site's or run's span equals one the parser keeps (``ContractSpanMemo``) is
/// not walked there: its record must still be exactly what the exact parser reads.
@Suite struct ContractSpanMemoTests {
  /// 30 000 lines of a few call sites and runs, so spans repeat; one in three edited one to
  /// three times (an edit inside a span makes it differ, one outside keeps it); the table
  /// forgotten every 2 000 lines, as a chunk's is. Every record the parser gives has the exact
  /// parser's fields, and both memos found most spans.
  @Test func recordsOfKeptSpansAreTheExactParsersEvents() {
    var random = SeededGenerator(seed: 2712)
    let sites: [MisuseEvent] = (0..<12).map { index in
      var event = randomEvent(&random)
      event.message = "A message of site \(index)."
      event.file = "App/Feature\(index % 5)/View\(index).swift"
      event.function = ["body", "onTap()", "load(id:)"][index % 3]
      event.valueType = ["Swift.Optional<Swift.String>", "Swift.Optional<App.Item>"][index % 2]
      event.line = [7, 77, 777, 7_777, 1][index % 5]
      return event
    }
    let runs: [(String, Int, String, String)] = (0..<6).map { index in
      ("Process\(index % 3)", 1000 + index, "host-\(index % 2)", format16(random.next()))
    }
    var parser = ContractRecordParser()
    var hits = (sites: 0, runs: 0)
    var records = 0
    var disagreements: [String] = []
    for index in 0..<30_000 {
      if index % 2_000 == 0 {
        hits.sites += parser.siteSpans.lookups - parser.siteSpans.misses
        hits.runs += parser.runSpans.lookups - parser.runSpans.misses
        parser.reset()
      }
      var event = sites.randomElement(using: &random)!
      let run = runs.randomElement(using: &random)!
      (event.process, event.pid, event.host, event.run) = run
      event.timestamp = Timestamp(
        microsecondsSinceEpoch: 1_796_000_000_000_000 + Int64(index) * 1_000_003)
      event.seq = index + 1
      event.suppressed = index % 3
      event.value = index % 4 == 0 ? nil : "<private>"
      event.label = index % 5 == 0 ? "label \(index % 4)" : nil
      event.test = index % 7 == 0 ? "Suite/test\(index % 2)()" : nil
      var bytes = Array(line(event).utf8)
      if index % 3 == 0 {
        for _ in 0..<Int.random(in: 1...3, using: &random) { mutate(&bytes, &random) }
      }
      bytes.withUnsafeBufferPointer { line in
        guard let record = parser.record(line) else { return }
        records += 1
        guard case .event(let exact) = LineClassifier.classifyExactly(line),
          Self.same(record, exact, in: parser.table)
        else {
          if disagreements.count < 3 { disagreements.append(String(decoding: line, as: UTF8.self)) }
          return
        }
      }
    }
    #expect(disagreements == [])
    #expect(records > 18_000)
    // Most call sites and runs were found kept, not walked.
    #expect(hits.sites > 15_000)
    #expect(hits.runs > 15_000)
  }

  /// Whether `record`'s fields, its ids read in `table`, are `event`'s.
  static func same(_ record: InternedRecord, _ event: MisuseEvent, in table: StringTable) -> Bool {
    func text(_ id: UInt32) -> String? { id == InternedRecord.none ? nil : table.string(id) }
    return record.timestamp == event.timestamp.microsecondsSinceEpoch && record.line == event.line
      && record.seq == event.seq && record.suppressed == event.suppressed
      && text(record.kind) == event.kind.code && text(record.file) == event.file
      && text(record.function) == event.function && text(record.valueType) == event.valueType
      && text(record.label) == event.label && text(record.test) == event.test
      && text(record.writer) == event.writer && text(record.process) == event.process
      && text(record.host) == event.host && text(record.run) == event.run
      && record.level == event.level && record.runRecords == (event.runRecords ?? -1)
      && record.runDropped == (event.runDropped ?? -1)
  }

  /// 2 000 spans kept (the table grown five times), each then found with its own ids and line.
  @Test func everySpanKeptIsFoundWithItsEntry() {
    var memo = ContractSpanMemo(quotes: ContractSpanMemo.runQuotes)
    func span(_ index: Int) -> [UInt8] {
      Array(#","process":"P\#(index % 7)","pid":\#(index),"host":"h","run":"0123456789abcdef""#.utf8)
    }
    func ids(_ index: Int) -> ContractFieldSets.IDs {
      var ids = ContractFieldSets.IDs(repeating: UInt32(index))
      ids[7] = 1
      return ids
    }
    for index in 0..<2_000 {
      span(index).withUnsafeBufferPointer {
        memo.insert($0.baseAddress!, count: $0.count, ids: ids(index), line: index * 3)
      }
    }
    var wrong: [Int] = []
    for index in 0..<2_000 {
      let found = span(index).withUnsafeBufferPointer { memo.find($0.baseAddress!, count: $0.count) }
      if found < 0 || memo.entry(found).ids != ids(index) || memo.entry(found).line != index * 3 {
        wrong.append(index)
      }
    }
    #expect(wrong == [])
  }

  /// A kept span is found by its bytes alone: equal bytes anywhere give its entry, and a span
  /// differing in any one byte, or one byte shorter, gives none.
  @Test func aSpanIsFoundOnlyByEqualBytes() {
    var memo = ContractSpanMemo(quotes: ContractSpanMemo.runQuotes)
    let span = Array(#","process":"Demo","pid":42,"host":"h1","run":"0123456789abcdef""#.utf8)
    var ids = ContractFieldSets.IDs(repeating: 0)
    ids[0] = 3
    ids[7] = 1
    span.withUnsafeBufferPointer { memo.insert($0.baseAddress!, count: $0.count, ids: ids, line: 9) }
    let elsewhere = Array("xyz".utf8) + span
    let found = elsewhere.withUnsafeBufferPointer {
      memo.find($0.baseAddress! + 3, count: span.count)
    }
    #expect(found == 0)
    #expect(memo.entry(0).ids == ids && memo.entry(0).line == 9)
    var wrong: [Int] = []
    for index in span.indices {
      var changed = span
      changed[index] ^= 0x01
      if changed.withUnsafeBufferPointer({ memo.find($0.baseAddress!, count: $0.count) }) != -1 {
        wrong.append(index)
      }
    }
    #expect(wrong == [])
    #expect(span.withUnsafeBufferPointer { memo.find($0.baseAddress!, count: $0.count - 1) } == -1)
  }
}
