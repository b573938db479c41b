import BindingDiagnostics
import BindingDiagnosticsReport
import Foundation
import TestSupport
import Testing

/// `journalctl -o json` lines checked against the run they claim: a regular file read in many
/// chunks on several threads counts the same forged entries as a pipe read line by line (the
/// run's owner is its first entry in file order, across chunk ends).
@Suite struct JournalJSONForgeryTests {
  static let run = "e5e5e5e5e5e5e5e5"

  /// One `journalctl -o json` line of the run's record `seq`, sent by `uid` and `pid`.
  static func line(seq: Int, uid: Int, pid: Int) -> String {
    let event = MisuseEvent(
      timestamp: Timestamp(microsecondsSinceEpoch: 1_796_000_000_000_000 + Int64(seq)),
      level: .error, kind: .mappedBoolSetTrue, message: "A misuse.", file: "App/View.swift",
      line: seq % 7, function: "body", valueType: "Swift.Optional<Swift.String>",
      valuePresent: true, value: "<private>", process: "Demo", pid: pid, host: "h1", run: run,
      seq: seq, suppressed: 0)
    let fields =
      JournalFieldsEncoder().fields(event).map { ($0.name, $0.value) } + [
        ("_PID", String(pid)), ("_UID", String(uid)), ("_HOSTNAME", "h1"),
        ("_BOOT_ID", "0123456789abcdef0123456789abcdef"),
      ]
    return "{"
      + fields.map { name, value in
        "\"\(name)\":\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\""
      }.joined(separator: ",") + "}\n"
  }

  /// 3 000 records of the run from uid 0 pid 100; after every tenth, one from uid 65534 pid 200
  /// claiming the run with a far `seq` (300 forged): about 2 MiB, many 64 KiB chunks.
  static let input: String = {
    var text = ""
    for seq in 1...3_000 {
      text += line(seq: seq, uid: 0, pid: 100)
      if seq % 10 == 0 { text += line(seq: 9_000_000 + seq, uid: 65534, pid: 200) }
    }
    return text
  }()

  /// A number the journal reader refuses from a field's bytes (`+5`, a blank, 19 digits) is
  /// refused from `journalctl -o json`'s text of the field too: the two readers of one journal
  /// take the same records (before, Swift's `Int("+5")` made the JSON entry `seq` 5).
  @Test(arguments: ["+5", " 5", "5 ", "0x5", "1234567890123456789"])
  func aNumberTheJournalReaderRefusesIsRefusedFromJSONToo(seq: String) {
    let good = Self.line(seq: 5, uid: 0, pid: 100)
    let bad = good.replacingOccurrences(
      of: #""BINDING_SEQ":"5""#, with: #""BINDING_SEQ":"\#(seq)""#)
    #expect(bad != good)
    guard case .event(let event) = classify(good) else {
      Issue.record("the untouched entry is not an event: \(classify(good))")
      return
    }
    #expect(event.seq == 5)
    guard case .malformed = classify(bad) else {
      Issue.record("BINDING_SEQ=\(seq) was read as \(classify(bad))")
      return
    }
  }

  static func summary(_ body: (InputReader, inout Aggregator) -> Void) -> String {
    var aggregator = Aggregator()
    body(InputReader(), &aggregator)
    return JSONRenderer().render(aggregator.summary())
  }

  @Test(arguments: [1, 2, 5], [64 << 10, 4 << 10])
  func chunkedFilesAndPipesCountTheSameForgedEntries(threads: Int, chunkBytes: Int) throws {
    let path = try temporaryDirectory() + "/journal.json"
    try Data(Self.input.utf8).write(to: URL(fileURLWithPath: path))
    let chunked = Self.summary { reader, aggregator in
      var reader = reader
      reader.threads = threads
      reader.chunkBytes = chunkBytes
      _ = reader.read(path: path, into: &aggregator)
    }
    let piped = Self.summary { reader, aggregator in
      var pair: [Int32] = [0, 0]
      _ = pipe(&pair)
      let ends = pair
      let writer = Thread {
        let bytes = Array(Self.input.utf8)
        var offset = 0
        while offset < bytes.count {
          let wrote = bytes[offset...].withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
          if wrote <= 0 { break }
          offset += wrote
        }
        close(ends[1])
      }
      writer.start()
      _ = reader.read(fd: ends[0], name: "<stdin>", into: &aggregator)
      close(ends[0])
    }
    #expect(chunked == piped)
    #expect(
      piped.hasPrefix(
        #"{"schema":1,"events":3000,"records":3000,"malformed":0,"other":0,"lost":0,"duplicates":0,"runs":{"ended":0,"running":1,"stale":0},"run_dropped":0,"forged":300,"#
      ), "\(piped.prefix(200))")
  }
}
