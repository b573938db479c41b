import BindingDiagnostics
import Testing

@testable import BindingDiagnosticsReport

/// The roles ``ContractRecordParser`` notes per string while it interns (what
/// ``Aggregator/add(_:translating:)`` moves a chunk's strings by) are exactly those of the
/// strings' uses by its records, as a pass over the records finds them; and none are claimed
/// once a line was refused after some of its strings were interned.
@Suite struct AggregatorTranslationTests {
  /// Per id of `table`, the roles of the uses by `records`: what the aggregator marks.
  static func marks(_ records: [InternedRecord], count: Int) -> [UInt8] {
    let kept = Aggregator.Translation.kept
    var marks = [UInt8](repeating: 0, count: count)
    for record in records {
      for id in [
        record.kind, record.file, record.function, record.valueType, record.process,
        record.host, record.run, record.writer,
      ] where id != InternedRecord.none {
        marks[Int(id)] |= kept
      }
      if record.test != InternedRecord.none {
        marks[Int(record.test)] |= Aggregator.Translation.test
      }
    }
    return marks
  }

  /// 3 000 lines, plain and not (escapes take the byte-by-byte scan), some as the exact
  /// parser's events, with labels, tests and writers that share strings with one another and
  /// with files; the table forgotten every 500 lines, as a chunk's is.
  @Test func rolesAreThoseOfTheRecordsUses() throws {
    var random = SeededGenerator(seed: 3108)
    var parser = ContractRecordParser()
    var records: [InternedRecord] = []
    var checked = 0
    let shared = ["App/A.swift", "Suite/test()", "App/W.swift:3", "tap"]
    for index in 0..<3_000 {
      if index % 500 == 499 {
        let roles = try #require(parser.roles)
        let moving = Aggregator.Translation.kept | Aggregator.Translation.test
        #expect(roles.map { $0 & moving } == Self.marks(records, count: parser.table.count))
        checked += 1
        parser.reset()
        records.removeAll()
      }
      var event = randomEvent(&random, seq: index + 1)
      event.label = Bool.random(using: &random) ? shared.randomElement(using: &random)! : nil
      event.test = Bool.random(using: &random) ? shared.randomElement(using: &random)! : nil
      event.writer = Bool.random(using: &random) ? shared.randomElement(using: &random)! : nil
      if index % 7 == 0 { event.file = shared.randomElement(using: &random)! }
      if index % 11 == 0 { event.function = "tap\u{e9}" }
      if index % 5 == 0 {
        // As the reader adds the events of lines the exact parser read.
        if index % 10 == 0 { event.test = "Suite/exact\(index % 3)()" }
        records.append(parser.record(of: event))
        continue
      }
      Array(line(event).utf8).withUnsafeBufferPointer { line in
        if let record = parser.record(line) {
          records.append(record)
        } else if case .event(let exact) = LineClassifier.classifyExactly(line) {
          records.append(parser.record(of: exact))
        }
      }
    }
    #expect(checked == 6)
  }

  /// A line whose run is not 16 hex digits is refused after its call site's strings and its
  /// process and host were interned: no record uses them, so the parser claims no roles until
  /// it is reset.
  @Test func aLineRefusedAfterInterningClaimsNoRoles() {
    var parser = ContractRecordParser()
    var event = MisuseEvent(
      timestamp: Timestamp(microsecondsSinceEpoch: 1_796_000_000_000_000), level: .error,
      kind: .mappedBoolSetTrue, message: "A misuse.", file: "App/Model.swift", line: 18,
      function: "body", valueType: "Swift.Optional<Swift.String>", valuePresent: true,
      process: "Demo", pid: 1, host: "build-01", run: "0123456789abcdef", seq: 1, suppressed: 0)
    Array(line(event).utf8).withUnsafeBufferPointer { #expect(parser.record($0) != nil) }
    #expect(parser.roles != nil)
    event.file = "App/Refused.swift"
    event.run = "not-a-run-id"
    Array(line(event).utf8).withUnsafeBufferPointer { #expect(parser.record($0) == nil) }
    #expect(parser.table.count > 0)
    #expect(parser.roles == nil)
    parser.reset()
    #expect(parser.roles == [])
  }
}
