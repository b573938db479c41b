import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The writing side of run records (`run-heartbeat`, `run-end`), checked on real processes
/// (`misuse-helper`) writing real files: when each is written, and its counts.
@Suite struct RunRecordWriterTests {
  /// The records of `path`, split into misuse records and run records.
  func records(_ path: String) throws -> (misuses: [[String: Any]], runs: [[String: Any]]) {
    let all = try parseRecords(try lines(ofFile: path))
    let isRun = { (record: [String: Any]) in
      ["run-heartbeat", "run-end"].contains(record["kind"] as? String ?? "")
    }
    return (all.filter { !isRun($0) }, all.filter(isRun))
  }

  /// The fields a run record has besides the identity, and the counts.
  func expectRunRecordShape(_ record: [String: Any], kind: String) {
    #expect(record["kind"] as? String == kind)
    #expect(record["level"] as? String == "debug")
    #expect(record["value_type"] as? String == "-")
    #expect(record["value_present"] as? Bool == false)
    #expect(record["suppressed"] as? Int == 0)
    #expect(record["value"] == nil && record["label"] == nil && record["test"] == nil)
  }

  @Test func exitWritesARunEndAfterTheLastRecordWithExactCounts() throws {
    let path = try temporaryDirectory() + "/end.jsonl"
    let result = try runProduct(
      "misuse-helper", ["1000"],
      environment: [
        "BINDING_DIAGNOSTICS": "jsonl:\(path)", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
      ])
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let all = try parseRecords(try lines(ofFile: path))
    let (misuses, runs) = try records(path)
    #expect(misuses.count == 1000)
    try #require(runs.count == 1)
    let end = runs[0]
    #expect(all.last?["kind"] as? String == "run-end", "the run-end comes last")
    expectRunRecordShape(end, kind: "run-end")
    #expect(end["seq"] as? Int == 1001)
    #expect(end["run_records"] as? Int == 1000)
    #expect(end["run_events"] as? Int == 1000)
    #expect(end["run_dropped"] as? Int == 0)
    #expect(end["run"] as? String == misuses[0]["run"] as? String)
    // Configured from the environment: set up by the first misuse, at its site.
    #expect(end["file"] as? String == misuses[0]["file"] as? String)
    #expect(end["line"] as? Int == misuses[0]["line"] as? Int)
    #expect(end["function"] as? String == misuses[0]["function"] as? String)
  }

  @Test func foldedEventsCountInRunEvents() throws {
    let path = try temporaryDirectory() + "/folded.jsonl"
    let result = try runProduct(
      "misuse-helper", ["5000"], environment: ["BINDING_DIAGNOSTICS": "jsonl:\(path)"])
    #expect(result.status == 0)
    let (misuses, runs) = try records(path)
    try #require(runs.count == 1)
    #expect(runs[0]["run_records"] as? Int == misuses.count)
    #expect(runs[0]["seq"] as? Int == misuses.count + 1)
    #expect(runs[0]["run_events"] as? Int == 5000)
  }

  @Test func aBootstrappedPipelineNamesItsBootstrapAsTheSetUpSite() throws {
    let path = try temporaryDirectory() + "/code.jsonl"
    let result = try runProduct("misuse-helper", ["3", "--code-jsonl", path])
    #expect(result.status == 0)
    let (_, runs) = try records(path)
    try #require(runs.count == 1)
    #expect(runs[0]["file"] as? String == "misuse_helper/main.swift")
    #expect((runs[0]["line"] as? Int ?? 0) > 0)
    #expect(runs[0]["function"] as? String == "-")
  }

  @Test func aProcessThatNeverMisusesWritesNoRunRecord() throws {
    let path = try temporaryDirectory() + "/none.jsonl"
    // The pipeline is made (bootstrapped with the file) but never used.
    let result = try runProduct("misuse-helper", ["0", "--code-jsonl", path])
    #expect(result.status == 0)
    #expect(((try? lines(ofFile: path)) ?? []) == [])
  }

  @Test func sigtermWritesTheRunEndLast() throws {
    let path = try temporaryDirectory() + "/sigterm.jsonl"
    let helper = try RunningHelper(
      ["20000", "--then-sleep"],
      environment: [
        "BINDING_DIAGNOSTICS": "jsonl:\(path)", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
      ])
    helper.waitFor("done")
    helper.signal(SIGTERM)
    #expect(helper.waitForExit())
    #expect(helper.process.terminationStatus == SIGTERM)
    let all = try parseRecords(try lines(ofFile: path))
    #expect(all.count == 20_001)
    let end = try #require(all.last)
    expectRunRecordShape(end, kind: "run-end")
    #expect(end["seq"] as? Int == 20_001)
    #expect(end["run_records"] as? Int == 20_000)
    #expect(end["run_events"] as? Int == 20_000)
    #expect(end["run_dropped"] as? Int == 0)
  }

  @Test func aForkedChildWritesARunEndOfItsOwn() throws {
    let path = try temporaryDirectory() + "/fork.jsonl"
    let result = try runProduct(
      "misuse-helper", ["3", "--fork", "2"],
      environment: [
        "BINDING_DIAGNOSTICS": "jsonl:\(path)", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
      ])
    #expect(result.status == 0)
    let child = try #require(Int(result.stdout.split(separator: "\n")[0].dropFirst(6)))
    let all = try parseRecords(try lines(ofFile: path))
    let byPid = Dictionary(grouping: all) { $0["pid"] as? Int ?? -1 }
    #expect(byPid.count == 2)
    let childRecords = try #require(byPid[child])
    #expect(childRecords.map { $0["seq"] as? Int ?? -1 } == [1, 2, 3])
    #expect(childRecords.last?["kind"] as? String == "run-end")
    #expect(childRecords.last?["run_records"] as? Int == 2)
    #expect(childRecords.last?["run_events"] as? Int == 2)
    let parent = try #require(byPid.first { $0.key != child }?.value)
    #expect(parent.map { $0["seq"] as? Int ?? -1 } == [1, 2, 3, 4, 5, 6])
    #expect(parent.last?["kind"] as? String == "run-end")
    #expect(parent.last?["run_records"] as? Int == 5)
    #expect(Set(all.map { $0["run"] as? String ?? "" }).count == 2)
  }

  @Test func heartbeatsComeEveryIntervalFromTheFirstRecordOn() throws {
    let path = try temporaryDirectory() + "/beat.jsonl"
    let helper = try RunningHelper(
      ["2", "--then-sleep"],
      environment: [
        "BINDING_DIAGNOSTICS": "jsonl:\(path)", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
        "BINDING_DIAGNOSTICS_HEARTBEAT_INTERVAL": "0.2",
      ])
    helper.waitFor("done")
    var beats = 0
    for _ in 0..<600 where beats < 3 {
      Thread.sleep(forTimeInterval: 0.05)
      beats = ((try? records(path))?.runs.count) ?? 0
    }
    helper.signal(SIGTERM)
    #expect(helper.waitForExit())
    let all = try parseRecords(try lines(ofFile: path))
    let (misuses, runs) = try records(path)
    #expect(misuses.count == 2)
    try #require(runs.count >= 4)
    let heartbeats = runs.dropLast()
    for (index, beat) in heartbeats.enumerated() {
      expectRunRecordShape(beat, kind: "run-heartbeat")
      #expect(beat["seq"] as? Int == 3 + index)
      #expect(beat["run_records"] as? Int == 2 + index)
      #expect(beat["run_events"] as? Int == 2)
      #expect(beat["run_dropped"] as? Int == 0)
    }
    // The n-th heartbeat comes n intervals after the first record at the soonest.
    let times = all.map { Self.seconds($0["ts"] as? String ?? "") }
    for beat in 1...heartbeats.count {
      #expect(times[1 + beat] - times[0] >= 0.2 * Double(beat) - 1e-6)
    }
    expectRunRecordShape(runs.last!, kind: "run-end")
    #expect(all.last?["kind"] as? String == "run-end")
    #expect(runs.last?["run_records"] as? Int == 2 + heartbeats.count)
  }

  @Test func runDroppedCountsTheSinksDrops() throws {
    let path = try temporaryDirectory() + "/drops.jsonl"
    let config = try temporaryFile(
      #"{"sinks":[{"type":"jsonl","path":"\#(path)","queue_capacity":4}],"rate_limit":"off"}"#)
    let result = try runProduct(
      "misuse-helper", ["20000"], environment: ["BINDING_DIAGNOSTICS_CONFIG": config])
    #expect(result.status == 0)
    let (misuses, runs) = try records(path)
    try #require(runs.count == 1)
    #expect(misuses.count < 20_000, "the tiny queue dropped records")
    #expect(runs[0]["run_dropped"] as? Int == 20_000 - misuses.count)
    #expect(runs[0]["run_records"] as? Int == 20_000)
  }

  @Test func theStandardErrorSinkWritesTheRunEndInLogfmt() throws {
    let result = try runProduct(
      "misuse-helper", ["3"],
      environment: [
        "BINDING_DIAGNOSTICS": "stderr:logfmt", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
      ])
    #expect(result.status == 0)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 4)
    let end = String(lines.last ?? "")
    #expect(end.contains(" kind=run-end "), "\(result.stderr)")
    #expect(end.contains(" seq=4 "))
    #expect(end.hasSuffix(" run_records=3 run_events=3 run_dropped=0"), "\(end)")
  }

  /// `ts` as seconds since the epoch.
  static func seconds(_ timestamp: String) -> Double {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    let whole = formatter.date(from: timestamp)?.timeIntervalSince1970 ?? 0
    // ISO8601DateFormatter keeps milliseconds: add the microseconds back.
    let fraction = timestamp.split(separator: ".").last?.dropLast() ?? ""
    let micro = Double("0." + fraction) ?? 0
    return floor(whole) + micro
  }
}
