import BindingDiagnostics
import BindingDiagnosticsReport
import Foundation
import TestSupport
import Testing

/// Whether Python has the OpenTelemetry project's protobuf definitions (`opentelemetry-proto`)
/// and `protobuf`'s JSON reader, which read `--format otlp` back as a collector would.
let otlpProtoAvailable: Bool = {
  guard let python = executableInPath("python3") else { return false }
  let probe = "import opentelemetry.proto.logs.v1.logs_pb2, google.protobuf.json_format"
  return (try? runProduct(python, ["-c", probe]).status) == 0
}()

/// Reads OTLP/JSON lines with the official definitions: each line through
/// `json_format.Parse` into `LogsData` (unknown fields refused), then every field of every
/// record written out as canonical JSON for the test to compare.
let otlpReadBack = """
  import json, sys
  from google.protobuf import json_format
  from opentelemetry.proto.logs.v1.logs_pb2 import LogsData
  def value(v):
      which = v.WhichOneof("value")
      if which == "string_value": return ["string", v.string_value]
      if which == "int_value": return ["int", str(v.int_value)]
      if which == "bool_value": return ["bool", "true" if v.bool_value else "false"]
      return [str(which), ""]
  def attributes(items):
      return [[a.key] + value(a.value) for a in items]
  out = []
  for text in open(sys.argv[1], encoding="utf-8").read().split("\\n")[:-1]:
      data = json_format.Parse(text, LogsData())
      resources = []
      for rl in data.resource_logs:
          assert len(rl.scope_logs) == 1, "one scope per resource"
          sl = rl.scope_logs[0]
          records = []
          for r in sl.log_records:
              assert r.observed_time_unix_nano == 0 and r.flags == 0 and r.dropped_attributes_count == 0
              assert r.trace_id == b"" and r.span_id == b""
              assert r.body.WhichOneof("value") == "string_value"
              records.append({"time": str(r.time_unix_nano), "severity": r.severity_number,
                  "severityText": r.severity_text, "body": r.body.string_value,
                  "eventName": r.event_name, "attributes": attributes(r.attributes)})
          resources.append({"attributes": attributes(rl.resource.attributes),
              "scope": [sl.scope.name, sl.scope.version], "records": records})
      out.append(resources)
  print(json.dumps(out))
  """

/// `--format otlp`: OpenTelemetry logs in OTLP/JSON, read back with the OpenTelemetry
/// project's own protobuf definitions.
@Suite struct OTLPEncoderTests {
  struct Resource: Decodable, Equatable {
    var attributes: [[String]]
    var scope: [String]
    var records: [Record]
  }

  struct Record: Decodable, Equatable {
    var time: String
    var severity: Int
    var severityText: String
    var body: String
    var eventName: String
    var attributes: [[String]]
  }

  /// What a record must read back as: every contract field in its place.
  static func expected(_ event: MisuseEvent) -> Record {
    var attributes = [
      ["code.file.path", "string", event.file],
      ["code.line.number", "int", String(event.line)],
      ["code.function.name", "string", event.function],
      ["binding.kind", "string", event.kind.code],
      ["binding.message_id", "string", event.kind.messageID],
      ["binding.run", "string", event.run],
      ["binding.seq", "int", String(event.seq)],
      ["binding.suppressed", "int", String(event.suppressed)],
      ["binding.events", "int", String(event.events)],
      ["binding.value_type", "string", event.valueType],
      ["binding.value_present", "bool", event.valuePresent ? "true" : "false"],
    ]
    if let value = event.value { attributes.append(["binding.value", "string", value]) }
    if let label = event.label { attributes.append(["binding.label", "string", label]) }
    if let test = event.test { attributes.append(["binding.test", "string", test]) }
    if let writer = event.writer { attributes.append(["binding.writer", "string", writer]) }
    if event.kind.isRunRecord { attributes.append(["binding.run_record", "bool", "true"]) }
    if let value = event.runRecords { attributes.append(["binding.run_records", "int", String(value)]) }
    if let value = event.runEvents { attributes.append(["binding.run_events", "int", String(value)]) }
    if let value = event.runDropped { attributes.append(["binding.run_dropped", "int", String(value)]) }
    // Nanoseconds since 1970 in 64 unsigned bits: 1970 to 2554, 0 meaning unknown; other
    // times (and the epoch itself) are unknown (0), their `ts` an attribute.
    let micros = event.timestamp.microsecondsSinceEpoch
    let inRange = micros >= 1 && micros <= 18_446_744_073_709_551
    if !inRange { attributes.append(["binding.ts", "string", event.timestamp.rfc3339]) }
    return Record(
      time: inRange ? String(micros) + "000" : "0",
      severity: OTLPEncoder.severityNumber(of: event.level),
      severityText: event.level.rawValue, body: event.message,
      eventName: "binding." + event.kind.code, attributes: attributes)
  }

  /// The lines `events` must make: `batch` records a line, each line's records by run in the
  /// order the runs first appear.
  static func expected(_ events: [MisuseEvent], batch: Int) -> [[Resource]] {
    stride(from: 0, to: events.count, by: batch).map { start in
      var resources: [Resource] = []
      var runs: [String] = []
      for event in events[start..<min(start + batch, events.count)] {
        if let index = runs.firstIndex(of: event.run) {
          resources[index].records.append(expected(event))
          continue
        }
        runs.append(event.run)
        resources.append(
          Resource(
            attributes: [
              ["service.name", "string", event.process],
              ["service.instance.id", "string", event.run],
              ["host.name", "string", event.host],
              ["process.pid", "int", String(event.pid)],
            ], scope: ["BindingDiagnostics", "9.8.7"], records: [expected(event)]))
      }
      return resources
    }
  }

  /// Random events (hostile text, times from year 0 to 9999, optional fields or not) of
  /// three runs, each run one process on one host.
  static func events(_ count: Int) -> [MisuseEvent] {
    var random = SeededGenerator(seed: 32)
    let runs = ["00000000000000a1", "00000000000000b2", "00000000000000c3"]
    var seqs = [0, 0, 0]
    return (0..<count).map { _ in
      let index = Int.random(in: 0..<3, using: &random)
      seqs[index] += 1
      var event = randomEvent(&random, seq: seqs[index], run: runs[index])
      (event.process, event.host, event.pid) = (["Demo", "Other App", "Mail"][index], "h\(index)", 100 + index)
      if Int.random(in: 0..<3, using: &random) == 0 { event.writer = "App/Writer.swift:\(seqs[index])" }
      if Int.random(in: 0..<8, using: &random) == 0 {
        // A run record: the run's tail, never a misuse event.
        event.kind = Bool.random(using: &random) ? .runHeartbeat : .runEnd
        event.level = .debug
        event.runRecords = seqs[index] - 1
        event.runEvents = seqs[index] * 2
        event.runDropped = Int.random(in: 0..<3, using: &random)
      }
      return event
    }
  }

  func readBack(_ bytes: [UInt8]) throws -> [[Resource]] {
    let path = try temporaryFile(String(decoding: bytes, as: UTF8.self), name: "logs.jsonl")
    let result = try runProduct(executableInPath("python3")!, ["-c", otlpReadBack, path])
    #expect(result.stderr == "")
    #expect(result.status == 0)
    return try JSONDecoder().decode([[Resource]].self, from: Data(result.stdout.utf8))
  }

  @Test(
    .enabled(
      if: otlpProtoAvailable,
      "Python opentelemetry-proto or protobuf not installed (pip install opentelemetry-proto protobuf)"
    ))
  func officialDefinitionsReadEveryField() throws {
    let events = OTLPEncoderTests.events(250)
    var encoder = OTLPEncoder(batch: 40, version: "9.8.7")
    var out: [UInt8] = []
    for event in events { encoder.add(event, to: &out) }
    encoder.finish(to: &out)
    // One line per batch: 6 lines of 40 and one of 10.
    #expect(out.split(separator: UInt8(ascii: "\n")).count == 7)
    #expect(out.last == UInt8(ascii: "\n"))
    let read = try readBack(out)
    #expect(read.count == 7)
    let expected = OTLPEncoderTests.expected(events, batch: 40)
    for (line, resources) in read.enumerated() where line < expected.count {
      #expect(resources == expected[line], "line \(line + 1)")
    }
  }

  @Test(
    .enabled(
      if: otlpProtoAvailable,
      "Python opentelemetry-proto or protobuf not installed (pip install opentelemetry-proto protobuf)"
    ))
  func aValueCannotBreakTheLine() throws {
    var event = OTLPEncoderTests.events(1)[0]
    event.message = "two\nlines \"quoted\" \\ \u{0} \u{1b}[31m \u{2028} 😀"
    event.label = "}\n{\"resourceLogs\":[]}"
    var encoder = OTLPEncoder(batch: 1, version: "9.8.7")
    var out: [UInt8] = []
    encoder.add(event, to: &out)
    #expect(out.filter { $0 == UInt8(ascii: "\n") }.count == 1)
    #expect(try readBack(out) == OTLPEncoderTests.expected([event], batch: 1))
  }

  @Test(arguments: [
    (MisuseLevel.trace, 1), (.debug, 5), (.info, 9), (.notice, 10), (.warning, 13), (.error, 17),
    (.critical, 21),
  ])
  func severityFollowsTheLogsDataModel(level: MisuseLevel, number: Int) {
    #expect(OTLPEncoder.severityNumber(of: level) == number)
  }

  @Test func nothingAddedWritesNothing() {
    var encoder = OTLPEncoder(version: "1")
    var out: [UInt8] = []
    encoder.finish(to: &out)
    #expect(out.isEmpty)
  }
}
