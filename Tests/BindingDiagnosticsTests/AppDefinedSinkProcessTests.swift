import Foundation
import TestSupport
import Testing

/// The example sink of the "Implementing a sink" article (`BufferedFileSink`, compiled into
/// `misuse-helper`) under `exit()`, `SIGTERM` and `fork()`, in real processes: an app-defined
/// sink behaves as a built-in one does.
@Suite struct AppDefinedSinkProcessTests {
  /// The records of `path` by kind: the misuse records, and the `run-end`s.
  private func read(_ path: String) throws -> (misuses: [[String: Any]], runEnds: [[String: Any]]) {
    let records = try parseRecords(try lines(ofFile: path))
    return (
      withoutRunRecords(records),
      records.filter { $0["kind"] as? String == "run-end" }
    )
  }

  /// The file at `path` holds the helper's 500 misuse records, `seq` contiguous, and one
  /// `run-end`, last.
  private func expectAllRecordsThenTheRunEnd(_ path: String) throws {
    let records = try parseRecords(try lines(ofFile: path))
    let (misuses, runEnds) = try read(path)
    #expect(misuses.count == 500)
    let contiguous = seqIsContiguousPerRun(misuses)
    #expect(contiguous)
    #expect(runEnds.count == 1)
    #expect(records.last?["kind"] as? String == "run-end")
  }

  @Test func recordsBufferedAtExitReachTheFileWithTheRunEndLast() throws {
    let path = try temporaryDirectory() + "/exit.jsonl"
    let helper = try RunningHelper(["500", "--app-sink", path], environment: [:])
    #expect(helper.waitForExit())
    #expect(helper.process.terminationStatus == 0)
    try expectAllRecordsThenTheRunEnd(path)
  }

  @Test func sigtermWritesTheBufferedRecordsAndStillEndsTheProcessBySigterm() throws {
    let path = try temporaryDirectory() + "/sigterm.jsonl"
    let helper = try RunningHelper(["500", "--app-sink", path, "--then-sleep"], environment: [:])
    helper.waitFor("done")
    // Nothing written yet: the sink keeps its records in memory until the end.
    #expect(!FileManager.default.fileExists(atPath: path))
    helper.signal(SIGTERM)
    #expect(helper.waitForExit())
    #expect(helper.process.terminationReason == .uncaughtSignal)
    #expect(helper.process.terminationStatus == SIGTERM)
    try expectAllRecordsThenTheRunEnd(path)
  }

  @Test func aForkedChildWritesItsOwnRecordsNeverTheParentsBufferedOnes() throws {
    let path = try temporaryDirectory() + "/fork.jsonl"
    // The parent misuses 300 times (buffered, unwritten), forks; the child misuses 200 times and
    // exits; then the parent misuses 200 more and exits.
    let output = try runProduct(
      "misuse-helper", ["300", "--app-sink", path, "--fork", "200"], timeout: 120)
    #expect(output.status == 0)
    let said = output.stdout.split(separator: "\n")
    #expect(said.count == 2)
    #expect(said.last == "child exited 0")
    let childPID = said.first.flatMap { Int($0.dropFirst("child ".count)) }
    let (misuses, runEnds) = try read(path)
    let byPID = Dictionary(grouping: misuses) { $0["pid"] as? Int ?? -1 }
    #expect(byPID.count == 2)
    #expect(byPID[childPID ?? -1]?.count == 200)
    #expect(misuses.count == 700)
    let contiguous = seqIsContiguousPerRun(misuses)
    #expect(contiguous)
    // One run each, each ended once.
    #expect(Set(misuses.compactMap { $0["run"] as? String }).count == 2)
    #expect(runEnds.count == 2)
    #expect(Set(runEnds.compactMap { $0["run"] as? String }).count == 2)
  }
}
