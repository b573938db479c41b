import BindingDiagnostics
import Foundation
import Testing

@testable import BindingDiagnosticsReport

/// A random record with the fields added beside run records: `writer` on a misuse record, and a
/// run record's `run_records`, `run_events` and `run_dropped` (each may be absent, as in a line
/// made by hand). `plain` keeps every text free of characters JSON escapes, as the sinks' own
/// lines mostly are: the lines the fast path is for.
private func randomRecord(_ random: inout SeededGenerator, plain: Bool = false) -> MisuseEvent {
  var event =
    plain ? sampleEvent() : randomEvent(&random, seq: Int.random(in: 1...5000, using: &random))
  event.seq = Int.random(in: 1...5000, using: &random)
  if Bool.random(using: &random) {
    let writers = ["App/Model.swift:35", "Feature/ünï.swift:1"] + (plain ? [] : ["a\"b\\c:9"])
    event.writer = writers.randomElement(using: &random)!
  } else {
    event.kind = Bool.random(using: &random) ? .runHeartbeat : .runEnd
    event.level = .debug
    if Int.random(in: 0..<8, using: &random) > 0 { event.runRecords = event.seq - 1 }
    if Int.random(in: 0..<8, using: &random) > 0 {
      event.runEvents = Int.random(in: 0...(1 << 53) - 1, using: &random)
    }
    if Int.random(in: 0..<8, using: &random) > 0 {
      event.runDropped = Int.random(in: 0..<100_000, using: &random)
    }
  }
  return event
}

/// Run records and `writer` through every reader: the fast path takes the lines as the sink
/// writes them (it does not hand them off), and agrees with the exact parser on them and on
/// mutated ones.
@Suite struct RunRecordReadingTests {
  @Test func theFastPathTakesWriterAndRunCounts() throws {
    var random = SeededGenerator(seed: 33)
    for _ in 0..<2000 {
      let event = randomRecord(&random, plain: true)
      var bytes = JSONLinesEncoder().encode(event)
      bytes.removeLast()
      var parser = ContractFastParser()
      var records = ContractRecordParser()
      bytes.withUnsafeBufferPointer { line in
        let parsed = parser.parse(line)
        #expect(parsed?.writer == event.writer)
        #expect(parsed?.runRecords == event.runRecords)
        #expect(parsed?.runEvents == event.runEvents)
        #expect(parsed?.runDropped == event.runDropped)
        #expect(parsed.map { .event($0) } == classifyBytes(bytes).exact)
        let record = records.record(line)
        #expect(record?.runRecords == (event.runRecords ?? -1))
        #expect(record?.runDropped == (event.runDropped ?? -1))
        #expect(record?.seq == event.seq)
      }
    }
  }

  @Test func fastAndExactPathsAgreeOnMutatedRunRecords() {
    expectFastAndExactAgreeOnMutations(seed: 34) { randomRecord(&$0) }
  }

  /// logfmt (the standard-error sink) and journal entries (`journalctl -o json`) carry them
  /// too, under the contract's keys and journal fields.
  @Test func logfmtAndJournalEntriesCarryTheRunCounts() throws {
    var random = SeededGenerator(seed: 35)
    for _ in 0..<500 {
      let event = randomRecord(&random)
      var logfmt = LogfmtEncoder().encode(event)
      logfmt.removeLast()
      guard case .event(let read) = classifyBytes(logfmt).fast else {
        Issue.record("not an event")
        continue
      }
      #expect(read.writer == event.writer)
      #expect(read.runRecords == event.runRecords)
      #expect(read.runEvents == event.runEvents)
      #expect(read.runDropped == event.runDropped)
    }
    var event = sampleEvent()
    event.kind = .runEnd
    event.level = .debug
    event.runRecords = 6
    event.runEvents = 9
    event.runDropped = 2
    var fields: [String: String] = ["_PID": "4242", "_HOSTNAME": "build-01"]
    for (name, value) in JournalFieldsEncoder().fields(event) { fields[name] = value }
    #expect(fields["BINDING_RUN_RECORDS"] == "6")
    #expect(fields["BINDING_RUN_EVENTS"] == "9")
    #expect(fields["BINDING_RUN_DROPPED"] == "2")
    let json = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
    guard case .event(let read) = classify(String(decoding: json, as: UTF8.self)) else {
      Issue.record("not an event: \(String(decoding: json, as: UTF8.self))")
      return
    }
    #expect(read.runRecords == 6)
    #expect(read.runEvents == 9)
    #expect(read.runDropped == 2)
    #expect(read.kind.code == "run-end")
  }
}
