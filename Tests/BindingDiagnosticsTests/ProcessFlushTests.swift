import Foundation
import TestSupport
import Testing

/// A running `misuse-helper`, its standard output read line by line.
final class RunningHelper: @unchecked Sendable {
  let process = Process()
  private let output = Pipe()

  private let errorOutput = Pipe()

  init(_ arguments: [String], environment: [String: String], stderr: Bool = false) throws {
    process.executableURL = productsDirectory().appendingPathComponent("misuse-helper")
    process.arguments = arguments
    var merged = ProcessInfo.processInfo.environment
    for key in merged.keys where key.hasPrefix("BINDING_DIAGNOSTICS") { merged[key] = nil }
    merged.merge(environment) { $1 }
    process.environment = merged
    process.standardOutput = output
    process.standardError = stderr ? errorOutput : FileHandle.nullDevice
    try process.run()
    // However the test goes, the helper does not outlive five minutes (a hang fails the test).
    lifetime = Deadline(process, seconds: 300)
  }

  private var lifetime: Deadline?

  /// Waits at most `seconds` for the helper to end, and kills it (`SIGKILL`) after that.
  /// - Returns: Whether it ended by itself in time.
  @discardableResult
  func waitForExit(within seconds: Double = 60) -> Bool {
    let deadline = Deadline(process, seconds: seconds)
    process.waitUntilExit()
    return !deadline.passed
  }

  /// Waits until the helper printed `line`.
  func waitFor(_ line: String) {
    var seen = ""
    while !seen.contains(line + "\n") {
      let data = output.fileHandleForReading.availableData
      if data.isEmpty { return }
      seen += String(decoding: data, as: UTF8.self)
    }
  }

  func signal(_ number: Int32) { kill(process.processIdentifier, number) }

  /// Everything the helper wrote to standard error (when captured), once it has ended.
  func errors() -> String {
    String(decoding: errorOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }
}

/// The records of a JSON Lines file and the events they stand for (`1 + suppressed` each).
func tally(_ path: String) throws -> (records: [[String: Any]], events: Int) {
  let records = withoutRunRecords(try parseRecords(try lines(ofFile: path)))
  return (records, records.reduce(0) { $0 + 1 + ($1["suppressed"] as? Int ?? -1_000_000) })
}

@Suite struct ProcessFlushTests {
  @Test(arguments: [SIGTERM, SIGINT, SIGHUP])
  func aStopSignalFlushesQueuedRecordsAndStillEndsTheProcess(signal: Int32) throws {
    let path = try temporaryDirectory() + "/stop.jsonl"
    let helper = try RunningHelper(
      ["200000", "--then-sleep"],
      environment: [
        "BINDING_DIAGNOSTICS": "jsonl:\(path)", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
      ])
    helper.waitFor("done")
    helper.signal(signal)
    #expect(helper.waitForExit())
    // Killed by the same signal, as without the library.
    #expect(helper.process.terminationReason == .uncaughtSignal)
    #expect(helper.process.terminationStatus == signal)
    let (records, events) = try tally(path)
    #expect(records.count == 200_000)
    #expect(events == 200_000)
    #expect(seqIsContiguousPerRun(records))
  }

  @Test func sigtermWritesTheRateLimitersFoldedCounts() throws {
    let path = try temporaryDirectory() + "/folded.jsonl"
    let helper = try RunningHelper(
      ["1000000", "--then-sleep"], environment: ["BINDING_DIAGNOSTICS": "jsonl:\(path)"])
    helper.waitFor("done")
    helper.signal(SIGTERM)
    #expect(helper.waitForExit())
    #expect(helper.process.terminationStatus == SIGTERM)
    let (records, events) = try tally(path)
    // Folded: about 10 records a second plus one per drain, however slow the machine.
    #expect(records.count < 10_000)
    #expect(events == 1_000_000)
  }

  @Test func foldedCountsReachTheSinkWithinOneIntervalWithoutAnotherMisuse() throws {
    let path = try temporaryDirectory() + "/timer.jsonl"
    let helper = try RunningHelper(
      ["1000", "--then-sleep"],
      environment: [
        "BINDING_DIAGNOSTICS": "jsonl:\(path)", "BINDING_DIAGNOSTICS_RATE_LIMIT": "10/0.5",
      ])
    defer {
      helper.signal(SIGKILL)
      helper.waitForExit()
    }
    helper.waitFor("done")
    // One interval (0.5 s) plus the writer's batching; nothing else happens in the app.
    var events = 0
    for _ in 0..<40 where events < 1000 {
      Thread.sleep(forTimeInterval: 0.05)
      events = (try? tally(path).events) ?? 0
    }
    #expect(events == 1000)
  }

  @Test func signalsOffLeavesTheDispositionAlone() throws {
    let path = try temporaryDirectory() + "/off.jsonl"
    let helper = try RunningHelper(
      ["1000000", "--then-sleep"],
      environment: [
        "BINDING_DIAGNOSTICS": "jsonl:\(path)", "BINDING_DIAGNOSTICS_SIGNALS": "off",
      ])
    helper.waitFor("done")
    helper.signal(SIGTERM)
    #expect(helper.waitForExit())
    #expect(helper.process.terminationStatus == SIGTERM)
    // Nothing flushed the folded counts: they die with the process, as documented.
    #expect(((try? tally(path).events) ?? 0) < 1_000_000)
  }

  @Test func anAppHandlerCallingExitWhileThreadsMisuseNeverCrashesOrHangs() throws {
    for _ in 0..<20 {
      let path = try temporaryDirectory() + "/exit.jsonl"
      let helper = try RunningHelper(
        ["0", "--threads", "2", "--forever", "--exit-on-sigterm"],
        environment: ["BINDING_DIAGNOSTICS": "jsonl:\(path)"])
      helper.waitFor("misusing")
      Thread.sleep(forTimeInterval: 0.05)
      helper.signal(SIGTERM)
      // A hang (a hook waiting on a lock its own thread holds) fails here, after a minute.
      #expect(helper.waitForExit(within: 60), "the helper hung after SIGTERM")
      #expect(helper.process.terminationReason == .exit)
      #expect(helper.process.terminationStatus == 0)
      // Whatever was written is whole records (on a loaded machine the signal may come before
      // the first misuse made the file).
      if FileManager.default.fileExists(atPath: path) {
        #expect(throws: Never.self) { try tally(path) }
      }
    }
  }

  /// An app's SIGTERM handler that calls `exit` interrupts the main thread inside `malloc` or
  /// `free` (glibc's per-thread cache off, so every call takes the arena's lock; the library's
  /// threads block SIGTERM, so the handler runs on the main thread). The exit hook runs in that
  /// handler: if it allocated, it would wait for ever on the lock its own thread holds.
  @Test func anExitFromAHandlerThatInterruptedMallocNeverHangs() throws {
    for round in 0..<12 {
      let path = try temporaryDirectory() + "/malloc.jsonl"
      let helper = try RunningHelper(
        ["3", "--exit-in-malloc"],
        environment: [
          "BINDING_DIAGNOSTICS": "jsonl:\(path)",
          "GLIBC_TUNABLES": "glibc.malloc.tcache_count=0",
        ])
      helper.waitFor("allocating")
      Thread.sleep(forTimeInterval: 0.02)
      helper.signal(SIGTERM)
      #expect(helper.waitForExit(within: 30), "round \(round): the exit hook hung")
      #expect(helper.process.terminationReason == .exit)
      #expect(helper.process.terminationStatus == 0)
    }
  }

  /// The standard-error sink into a pipe nobody reads until the app has ended: the records that
  /// did not fit are dropped, and a quarter of the pipe was kept for the end, so the run's
  /// `run-end` (with every record handed out, and the drops) and the line naming what was
  /// written and dropped still arrive.
  @Test func aFullStandardErrorPipeAtExitStillGetsTheRunEndAndTheDropLine() throws {
    let process = Process()
    process.executableURL = productsDirectory().appendingPathComponent("misuse-helper")
    process.arguments = ["20000"]
    var environment = ProcessInfo.processInfo.environment
    for key in environment.keys where key.hasPrefix("BINDING_DIAGNOSTICS") {
      environment[key] = nil
    }
    environment["BINDING_DIAGNOSTICS"] = "stderr:logfmt"
    environment["BINDING_DIAGNOSTICS_RATE_LIMIT"] = "off"
    process.environment = environment
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let deadline = Deadline(process, seconds: 120)
    process.waitUntilExit()
    #expect(!deadline.passed, "the app blocked on its full standard error")
    #expect(process.terminationStatus == 0)
    let text = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let lines = text.split(separator: "\n").map(String.init)
    let records = lines.filter { $0.hasPrefix("v=1 ") }
    try #require(lines.count >= 3)
    let end = lines[lines.count - 2]
    #expect(end.contains(" kind=run-end "), "\(end)")
    #expect(end.contains(" seq=20001 "), "\(end)")
    let dropped = 20_000 - (records.count - 1)
    #expect(dropped > 0)
    #expect(
      end.hasSuffix(" run_records=20000 run_events=20000 run_dropped=\(dropped)"), "\(end)")
    #expect(
      lines.last
        == "binding-diagnostics: sink=stderr written=\(records.count) dropped=\(dropped) "
        + #"action="process ending; records after this line dropped""#)
  }

  /// `exit(0)` while 16 threads misuse: no record torn by the process going mid-write, and
  /// every record received is written or counted in the one line said at the end.
  @Test func exitWhileSixteenThreadsMisuseTearsNothingAndCountsEveryRecord() throws {
    for _ in 0..<8 {
      let path = try temporaryDirectory() + "/exit16.jsonl"
      let result = try runProduct(
        "misuse-helper", ["0", "--threads", "16", "--exit-while-misusing", "300"],
        environment: [
          "BINDING_DIAGNOSTICS": "jsonl:\(path)", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
        ])
      #expect(result.status == 0)
      let lines = (try? lines(ofFile: path)) ?? []
      let records = lines.compactMap { try? parseRecords([$0]).first }
      #expect(records.count == lines.count, "a torn record")
      let seqs = records.compactMap { $0["seq"] as? Int }
      let missing = (seqs.max() ?? 0) - Set(seqs).count
      // Queue-full episodes may be said before; the account comes last.
      let last = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
      let prefix = "binding-diagnostics: sink=jsonl path=\(path) written=\(records.count) dropped="
      let suffix = " action=\"process ending; the rest dropped\""
      #expect(last.hasPrefix(prefix) && last.hasSuffix(suffix), "\(result.stderr)")
      let dropped = Int(last.dropFirst(prefix.count).dropLast(suffix.count)) ?? -1
      #expect(missing <= dropped)
    }
  }

  /// The same through the standard-error sink into a regular file (`2>FILE`): no line is torn
  /// by `exit`, and records refused as the process ends are announced by one line.
  @Test func exitWhileSixteenThreadsMisuseTearsNoStandardErrorLine() throws {
    let helper = productsDirectory().appendingPathComponent("misuse-helper").path
    var announced = 0
    for _ in 0..<8 {
      let path = try temporaryDirectory() + "/exit16.log"
      let result = try runProduct(
        "/bin/sh",
        ["-c", #"exec "$0" 0 --threads 16 --exit-while-misusing 300 2>"$1""#, helper, path],
        environment: [
          "BINDING_DIAGNOSTICS": "stderr:logfmt", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
        ])
      #expect(result.status == 0)
      let text = try String(contentsOfFile: path, encoding: .utf8)
      #expect(text.hasSuffix("\n"))
      let summary = try runProduct("bindiag", ["summary", "--format", "json", path])
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any])
      #expect(object["malformed"] as? Int == 0, "\(summary.stderr)")
      #expect((object["records"] as? Int ?? 0) > 0)
      // A misuse between taking its seq and reaching the sink when `exit` ends the threads is
      // cut off unsaid: at most one per thread. Any more were refused, and that is said; no
      // record comes after the line that says so.
      // The run's end comes after every record written before the end began.
      #expect(text.contains(" kind=run-end "), "\(text.suffix(2000))")
      if let notice = text.range(
        of: #"binding-diagnostics: sink=stderr written=[0-9]+ dropped=[0-9]+ action="process ending; records after this line dropped"\n"#,
        options: .regularExpression)
      {
        announced += 1
        #expect(!text[notice.upperBound...].contains("v=1 "), "a record after the notice")
        let numbers = text[notice].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        let written = text.split(separator: "\n").filter { $0.hasPrefix("v=1 ") }.count
        #expect(numbers.first == written, "the notice names the lines written")
      } else {
        #expect((object["lost"] as? Int ?? -1) <= 16, "\(summary.stdout)")
      }
    }
    // The threads misuse without end, so in most runs some are refused after the exit began.
    #expect(announced > 0)
  }
}
