import BindingDiagnostics
import BindingDiagnosticsReport
import Foundation
import TestSupport
import Testing

/// Whether Python has `chdb` (PyPI): ClickHouse's engine in process, which loads the rows and
/// runs the queries as a ClickHouse server would.
let chdbAvailable: Bool = {
  guard let python = executableInPath("python3") else { return false }
  return (try? runProduct(python, ["-c", "import chdb.session"]).status) == 0
}()

/// Creates the table from the schema file `argv[1]`, loads the rows of `argv[2]` with
/// `INSERT … FORMAT JSONEachRow` and prints them back, one JSON object per row, in file order.
let chdbRoundTrip = """
  import sys
  from chdb import session
  s = session.Session()
  s.query(open(sys.argv[1], encoding="utf-8").read())
  s.query("INSERT INTO bindiag_events FORMAT JSONEachRow\\n" + open(sys.argv[2], encoding="utf-8").read())
  print(s.query("SELECT * EXCEPT ts, toString(ts) AS ts FROM bindiag_events ORDER BY run, seq FORMAT JSONEachRow"), end="")
  """

/// `--format clickhouse` and `--schema clickhouse`: the rows load into the table the schema
/// creates, in a real ClickHouse engine, and every value reads back.
@Suite struct ClickHouseExportTests {
  @Test func oneColumnPerContractKeyInContractOrder() {
    let schema = ClickHouseSchema.createTable()
    let columns = schema.split(separator: "\n").compactMap { line -> String? in
      guard line.hasPrefix("  `") else { return nil }
      return String(line.dropFirst(3).prefix { $0 != "`" })
    }
    #expect(columns == ContractField.all.map(\.key))
    #expect(ClickHouseSchema.columnType(ContractField.row(.timestamp)).hasPrefix("DateTime64(6, 'UTC')"))
    for key in ["level", "kind", "host", "process"] {
      let field = ContractField.all.first { $0.key == key }!
      #expect(ClickHouseSchema.columnType(field) == "LowCardinality(String)")
    }
    #expect(ClickHouseSchema.columnType(ContractField.row(.value)) == "Nullable(String)")
  }

  @Test func aRowIsTheContractRecord() {
    let event = OTLPEncoderTests.events(1)[0]
    var row: [UInt8] = []
    ClickHouseRowEncoder().encode(event, into: &row)
    #expect(row == JSONLinesEncoder().encode(event))
  }

  @Test(.enabled(if: chdbAvailable, "Python chdb not installed (pip install chdb)"))
  func rowsLoadIntoTheSchemaAndReadBack() throws {
    // Years 0001 to 9999: ClickHouse reads a year 0000 as none (see the Export article).
    let events = OTLPEncoderTests.events(120).map { event in
      var event = event
      if event.timestamp.rfc3339.hasPrefix("0000") {
        event.timestamp = Timestamp(rfc3339: "0001" + event.timestamp.rfc3339.dropFirst(4))!
      }
      return event
    }
    var rows: [UInt8] = []
    for event in events { ClickHouseRowEncoder().encode(event, into: &rows) }
    let directory = try temporaryDirectory()
    try ClickHouseSchema.createTable().write(
      toFile: directory + "/schema.sql", atomically: true, encoding: .utf8)
    try Data(rows).write(to: URL(fileURLWithPath: directory + "/rows.jsonl"))
    let result = try runProduct(
      executableInPath("python3")!,
      ["-c", chdbRoundTrip, directory + "/schema.sql", directory + "/rows.jsonl"])
    #expect(result.stderr == "")
    let read = result.stdout.split(separator: "\n").map {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    let sorted = events.sorted { ($0.run, $0.seq) < ($1.run, $1.seq) }
    #expect(read.count == sorted.count)
    for (row, event) in zip(read, sorted) {
      guard let row else {
        Issue.record("a row is not JSON")
        continue
      }
      let ts = event.timestamp.rfc3339.replacingOccurrences(of: "T", with: " ")
        .replacingOccurrences(of: "Z", with: "")
      #expect(row["ts"] as? String == ts)
      for field in ContractField.all where field.id != .timestamp {
        let value = field.value(of: event)
        let expected: String? =
          switch value {
          case .integer(let number): String(number)
          case .text(let text): text
          case .boolean(let flag): String(flag)
          case nil: nil
          }
        let actual: String? =
          switch row[field.key] {
          case let number as NSNumber where field.type == .boolean: String(number.boolValue)
          case let number as NSNumber: number.stringValue
          case let text as String: text
          default: nil
          }
        #expect(actual == expected, "\(field.key) of \(event.run) \(event.seq)")
      }
    }
  }
}
