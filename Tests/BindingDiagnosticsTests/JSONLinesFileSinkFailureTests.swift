import Foundation
import TestSupport
import Testing

/// The file sink under the failures real machines have: a torn last record left by a process
/// that was killed or ran out of space, a disk that fills mid-write and frees up again, a queue
/// that cannot keep up.
@Suite struct JSONLinesFileSinkFailureTests {
  /// The valid records and the other (torn) lines of a file.
  func split(_ path: String) throws -> (records: [[String: Any]], torn: [String]) {
    var records: [[String: Any]] = []
    var torn: [String] = []
    for line in try lines(ofFile: path) {
      if let record = try? parseRecords([line]).first, record["seq"] != nil {
        records.append(record)
      } else {
        torn.append(line)
      }
    }
    return (records, torn)
  }

  @Test func aTornLastRecordGetsItsNewlineBeforeTheNextProcessAppends() throws {
    let path = try temporaryDirectory() + "/torn.jsonl"
    let torn = #"{"v":1,"ts":"2026-11-30T04:12:33.123456Z","level":"err"#
    try torn.write(toFile: path, atomically: false, encoding: .utf8)
    let result = try runProduct(
      "misuse-helper", ["3"],
      environment: [
        "BINDING_DIAGNOSTICS": "jsonl:\(path)", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
      ])
    #expect(result.status == 0)
    let (records, rest) = try split(path)
    #expect(rest == [torn])
    // Three records and the run's end.
    #expect(records.map { $0["seq"] as? Int } == [1, 2, 3, 4])
  }

  @Test(.enabled(if: canShadowJournal, "needs root and unshare(1) to mount a small tmpfs"))
  func aFullDiskDropsCountsAndRecoversLeavingNoFragment() throws {
    let directory = try temporaryDirectory()
    let helper = productsDirectory().appendingPathComponent("misuse-helper").path
    // 128 KiB of tmpfs, 88 KiB of it taken: 200 records (~90 KB) fill it mid-record.
    let script = """
      set -e
      mkdir "$D/small"
      mount -t tmpfs -o size=128k tmpfs "$D/small"
      head -c 90000 /dev/zero > "$D/small/filler"
      touch "$D/pause"
      BINDING_DIAGNOSTICS="jsonl:$D/small/app.jsonl" BINDING_DIAGNOSTICS_RATE_LIMIT=off \\
        "$0" 200 --pause-until-gone "$D/pause" --more 50 --stats > "$D/out" 2> "$D/err" &
      pid=$!
      until grep -q paused "$D/out"; do sleep 0.05; done
      rm "$D/small/filler" "$D/pause"
      status=0
      wait $pid || status=$?
      cp "$D/small/app.jsonl" "$D/app.jsonl"
      exit $status
      """
    let result = try runProduct(
      "/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, helper], environment: ["D": directory])
    #expect(result.status == 0, "\(result.stderr)")
    let out = try String(contentsOfFile: directory + "/out", encoding: .utf8)
    let err = try String(contentsOfFile: directory + "/err", encoding: .utf8)
    let numbers = try #require(out.split(separator: "\n").last).split(separator: " ")
      .compactMap { Int($0.split(separator: "=").last ?? "") }
    try #require(numbers.count == 2, "\(out)")
    let (written, dropped) = (numbers[0], numbers[1])
    #expect(written + dropped == 250)
    #expect(dropped > 0)
    let path = directory + "/small/app.jsonl"
    // The record the full disk cut short is cut back off the file, and said so in the one line
    // about the failure (unless the disk filled exactly at a record's end).
    let failure = try #require(err.split(separator: "\n").first.map(String.init))
    #expect(
      failure
        == #"binding-diagnostics: sink=jsonl path=\#(path) error="write: No space left on device (errno 28)" errno=28 action="partial record cut off; dropping records and retrying""#
        || failure
          == #"binding-diagnostics: sink=jsonl path=\#(path) error="write: No space left on device (errno 28)" errno=28 action="dropping records and retrying""#
    )
    #expect(
      err == """
        \(failure)
        binding-diagnostics: sink=jsonl path=\(path) dropped=\(dropped) action=recovered

        """)
    // Every record the sink counted as written is whole, and no fragment stays in the file.
    let (all, torn) = try split(directory + "/app.jsonl")
    // The statistics were printed before the run's end was written.
    #expect(all.count == written + 1)
    let records = withoutRunRecords(all)
    #expect(records.count == written)
    #expect(torn == [])
    #expect(seqIsContiguousPerRun(records) == false)  // the dropped ones are missing
    let seqs = records.compactMap { $0["seq"] as? Int }
    #expect(seqs.last == 250)
  }

  @Test func aQueueThatCannotKeepUpSaysWhenDropsStartAndStop() throws {
    let directory = try temporaryDirectory()
    let path = directory + "/queue.jsonl"
    let config = try temporaryFile(
      #"{"sinks":[{"type":"jsonl","path":"\#(path)","queue_capacity":1}],"rate_limit":"off"}"#)
    let result = try runProduct(
      "misuse-helper", ["20000", "--stats"], environment: ["BINDING_DIAGNOSTICS_CONFIG": config])
    #expect(result.status == 0)
    let numbers = result.stdout.split(separator: " ")
      .compactMap { Int($0.split(separator: "=").last?.trimmingCharacters(in: .newlines) ?? "") }
    try #require(numbers.count == 2, "\(result.stdout)")
    let dropped = numbers[1]
    #expect(dropped > 0)
    // What was written when the statistics were printed, and the run's end at exit.
    #expect(try lines(ofFile: path).count == numbers[0] + 1)
    let prefix = "binding-diagnostics: sink=jsonl path=\(path) "
    let lines = result.stderr.split(separator: "\n").map(String.init)
    let starts = lines.filter { $0 == prefix + #"queue=1 action="queue full, dropping records""# }
    let ends = lines.filter {
      $0.hasPrefix(prefix + "dropped=") && $0.hasSuffix(#" action="queue accepting again""#)
    }
    #expect(starts.count + ends.count == lines.count, "\(result.stderr)")
    #expect(starts.count >= 1)
    #expect(starts.count - ends.count == 0 || starts.count - ends.count == 1)
    let said = ends.compactMap {
      Int($0.dropFirst(prefix.count + "dropped=".count).prefix { $0.isNumber })
    }
    #expect(said.reduce(0, +) <= dropped)
    if starts.count == ends.count { #expect(said.reduce(0, +) == dropped) }
  }
}
