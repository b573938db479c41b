import BindingDiagnostics
import Foundation
import Testing

@testable import BindingDiagnosticsReport

/// The summary path finds a plain line's text fields by set (``ContractFieldSets``: a call
/// site's, a run's, a record's label, test and writer), made once per chunk: one parser must
/// give, line after line, the strings the exact parser reads, whichever sets it has seen.
@Suite struct ContractFieldSetsTests {
  /// 20 000 plain lines drawn from small pools, so that sets repeat; values of the same length
  /// that differ in one byte (only the bytes tell them apart); absent and present labels, tests
  /// and writers; some kinds and runs without their format (the exact parser refuses those
  /// lines, and the set remembers they are not valid). Records are compared field by field, as
  /// strings of the parser's table, with the exact parser's event. With `uniqueLabels`, every
  /// line has a label of its own: past 1 024 sets that were never seen again, the parser stops
  /// looking labels up by set and interns them one by one (``ContractFieldSets/pay``).
  @Test(arguments: [false, true]) func setsGiveTheExactParsersStrings(uniqueLabels: Bool) {
    var random = SeededGenerator(seed: 36)
    func pick(_ values: [String]) -> String { values.randomElement(using: &random)! }
    func maybe(_ values: [String]) -> String? {
      Int.random(in: 0..<3, using: &random) == 0 ? nil : pick(values)
    }
    let kinds = MisuseKind.builtIn.prefix(3).map(\.code) + ["Not-Kebab"]
    let files = ["App/A1.swift", "App/A2.swift", "App/Feature/LongerName.swift", "App/B1.swift"]
    let functions = ["body", "bodx", "init()"]
    let types = ["Swift.Optional<App.Item1>", "Swift.Optional<App.Item2>", "Swift.Int"]
    let labels = ["alert", "alerx", "sheet"]
    let tests = ["Suite/test()", "Suite/tesx()"]
    let writers = ["App/W.swift:10", "App/W.swift:11"]
    let processes = ["Mail", "Maim", "Notes"]
    let hosts = ["h1", "h2"]
    let runs = ["0123456789abcdef", "0123456789abcdee", "0123456789ABCDEF"]
    var parser = ContractRecordParser()
    var taken = 0
    var refused = 0
    var disagreements: [String] = []
    for seq in 1...20_000 {
      var event = randomEvent(&random, seq: seq)
      event.message = "A message."
      event.value = nil
      event.file = pick(files)
      event.function = pick(functions)
      event.valueType = pick(types)
      event.label = uniqueLabels ? "label \(seq)" : maybe(labels)
      event.test = maybe(tests)
      event.writer = maybe(writers)
      event.process = pick(processes)
      event.host = pick(hosts)
      event.run = pick(runs)
      event.runRecords = nil
      event.runEvents = nil
      event.runDropped = nil
      let code = pick(kinds)
      var bytes = Array(line(event).utf8)
      if code != event.kind.code {
        let text = String(decoding: bytes, as: UTF8.self)
          .replacingOccurrences(of: "\"kind\":\"\(event.kind.code)\"", with: "\"kind\":\"\(code)\"")
        bytes = Array(text.utf8)
      }
      bytes.withUnsafeBufferPointer { line in
        let exact = LineClassifier.classifyExactly(line)
        guard let record = parser.record(line) else {
          refused += 1
          if case .event = exact { disagreements.append(String(decoding: line, as: UTF8.self)) }
          return
        }
        taken += 1
        guard case .event(let expected) = exact,
          Self.strings(of: record, in: parser.table) == Self.strings(of: expected)
        else {
          if disagreements.count < 3 { disagreements.append(String(decoding: line, as: UTF8.self)) }
          return
        }
      }
    }
    #expect(disagreements == [])
    #expect(taken > 10_000)
    #expect(refused > 2_000)
  }

  /// A record's text fields, `nil` for absent ones.
  static func strings(of record: InternedRecord, in table: StringTable) -> [String?] {
    func string(_ id: UInt32) -> String? { id == InternedRecord.none ? nil : table.string(id) }
    return [
      record.kind, record.file, record.function, record.valueType, record.label, record.test,
      record.writer, record.process, record.host, record.run,
    ].map(string)
  }

  static func strings(of event: MisuseEvent) -> [String?] {
    [
      event.kind.code, event.file, event.function, event.valueType, event.label, event.test,
      event.writer, event.process, event.host, event.run,
    ]
  }
}
