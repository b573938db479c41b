import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// Size rotation: one rename per rotation to a generation named by its UTC time, whatever
/// `keep` is, and nothing lost or uncounted.
@Suite struct LogRotationTests {
  /// Whether `name` is `rotating.jsonl.YYYYMMDDTHHMMSS.ffffffZ` (or `…Z-N`).
  static func isGeneration(_ name: String) -> Bool {
    name.wholeMatch(of: #/rotating\.jsonl\.\d{8}T\d{6}\.\d{6}Z(-\d+)?/#) != nil
  }

  @Test func generationsAreNamedByTimeSortOldestFirstAndOnlyKeepAreKept() throws {
    let directory = try temporaryDirectory()
    let path = directory + "/rotating.jsonl"
    let sink = try JSONLinesFileSink.open(
      path: path, options: .init(maxBytes: 2000, keep: 3, synchronous: true)
    ).get()
    for index in 0..<100 { sink.receive(sampleEvent(label: "\(index)")) }
    let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    let generations = names.filter { $0 != "rotating.jsonl" }
    #expect(generations.count == 3)
    #expect(generations.allSatisfy(Self.isGeneration), "\(names)")
    #expect(sink.statistics.rotations > 3)
    // Read in name order, live file last, the labels are the tail of 0..<100 in order.
    var labels: [Int] = []
    for name in generations + ["rotating.jsonl"] {
      labels += try parseRecords(try lines(ofFile: directory + "/" + name))
        .compactMap { ($0["label"] as? String).flatMap { Int($0) } }
    }
    #expect(!labels.isEmpty)
    #expect(labels == Array((100 - labels.count)..<100))
  }

  @Test func aLargeKeepCostsNoMoreAndEveryRecordIsWrittenOrCounted() throws {
    let directory = try temporaryDirectory()
    let path = directory + "/rotating.jsonl"
    let config = try temporaryFile(
      #"{"sinks":[{"type":"jsonl","path":"\#(path)","max_bytes":2000,"keep":500}],"rate_limit":"off"}"#
    )
    let result = try runProduct(
      "misuse-helper", ["6000", "--stats"], environment: ["BINDING_DIAGNOSTICS_CONFIG": config])
    #expect(result.status == 0)
    #expect(result.stdout == "written=6000 dropped=0\n")
    #expect(result.stderr == "")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasPrefix("rotating.jsonl") }
    #expect(names.count == 501)
    var records: [[String: Any]] = []
    for name in names { records += try parseRecords(try lines(ofFile: directory + "/" + name)) }
    // The newest 501 files hold the last records, seq without a gap up to 6 000 (about 1 200
    // rotations: most generations were made and removed again). The run's end, written at
    // exit, is seq 6 001. (6 000, not more: the helper's flush at `--stats` gives up after 5 s,
    // and rotating a thousand times takes a few seconds on a loaded 2-core machine.)
    let seqs = records.compactMap { $0["seq"] as? Int }.sorted()
    #expect(seqs.last == 6_001)
    #expect(seqs.count < 6_000)
    #expect(seqs == Array((6_002 - seqs.count)...6_001))
  }

  /// Someone plants a generation name dated in the year 9999 in the directory: rotation leaves it
  /// alone and goes on naming generations by the time now, and no record is lost (before, every
  /// name sorted before the planted one, so each rotation tried a thousand names and the last
  /// renamed over a generation).
  @Test func aGenerationNamePlantedInTheFutureIsLeftAloneAndLosesNothing() throws {
    let directory = try temporaryDirectory()
    let path = directory + "/rotating.jsonl"
    let planted = "rotating.jsonl.99991231T235959.999999Z"
    try Data("planted\n".utf8).write(to: URL(fileURLWithPath: directory + "/" + planted))
    let sink = try JSONLinesFileSink.open(
      path: path, options: .init(maxBytes: 2000, keep: 1000, synchronous: true)
    ).get()
    let count = 300
    for index in 0..<count { sink.receive(sampleEvent(label: "\(index)")) }
    let names = try FileManager.default.contentsOfDirectory(atPath: directory)
    let generations = names.filter { $0 != "rotating.jsonl" && $0 != planted }
    #expect(sink.statistics.rotations > 10)
    #expect(sink.statistics.failed == 0)
    #expect(generations.allSatisfy { Self.isGeneration($0) && !$0.contains(".9999") }, "\(names)")
    #expect(try String(contentsOfFile: directory + "/" + planted, encoding: .utf8) == "planted\n")
    var labels: [Int] = []
    for name in generations.sorted() + ["rotating.jsonl"] {
      labels += try parseRecords(try lines(ofFile: directory + "/" + name))
        .compactMap { ($0["label"] as? String).flatMap { Int($0) } }
    }
    #expect(labels == Array(0..<count))
  }
}
