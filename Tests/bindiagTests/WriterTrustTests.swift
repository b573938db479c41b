import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the app-side writer promises, checked end to end: a real app (`misuse-helper`) writes,
/// the built `bindiag` counts.
@Suite struct WriterTrustTests {
  /// `bindiag summary --format json` of `arguments`: records, lost and duplicates.
  func counts(_ arguments: [String], stdin: String? = nil) throws -> [String: Int] {
    let result = try bindiag(
      arguments: ["summary", "--format", "json"] + arguments, stdin: stdin.map { Data($0.utf8) })
    #expect(result.status == 0, "\(result.stderr)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    return ["records": 0, "events": 0, "lost": 0, "duplicates": 0, "malformed": 0]
      .reduce(into: [:]) { counts, field in counts[field.key] = object[field.key] as? Int ?? -1 }
  }

  /// The `(run, seq)` of each record of a JSON Lines file, by pid.
  func runsAndSeqs(_ path: String) throws -> [Int: [String: [Int]]] {
    var byPid: [Int: [String: [Int]]] = [:]
    for line in try lines(ofFile: path) {
      let record = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let pid = try #require(record["pid"] as? Int)
      let run = try #require(record["run"] as? String)
      byPid[pid, default: [:]][run, default: []].append(try #require(record["seq"] as? Int))
    }
    return byPid
  }

  @Test func aForkedChildWritesItsOwnRunFromSeqOne() throws {
    let path = try temporaryDirectory() + "/fork.jsonl"
    let result = try runProduct(
      "misuse-helper", ["3", "--fork", "2"],
      environment: [
        "BINDING_DIAGNOSTICS": "jsonl:\(path)", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
      ])
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let child = try #require(Int(result.stdout.split(separator: "\n")[0].dropFirst(6)))
    #expect(result.stdout == "child \(child)\nchild exited 0\n")
    let byPid = try runsAndSeqs(path)
    #expect(byPid[child]?.count == 1)
    // Each run's records, then its run-end.
    #expect(byPid[child]?.values.first == [1, 2, 3])
    #expect(byPid.count == 2)
    #expect(byPid.filter { $0.key != child }.first?.value.values.first == [1, 2, 3, 4, 5, 6])
    let counted = try counts([path])
    #expect(counted["events"] == 7)
    #expect(counted["lost"] == 0 && counted["duplicates"] == 0 && counted["malformed"] == 0)
  }

  @Test func aForkedChildOnStandardErrorDoesNotRepeatItsParentsRunAndSeqs() throws {
    let result = try runProduct(
      "misuse-helper", ["2", "--fork", "3"],
      environment: ["BINDING_DIAGNOSTICS": "stderr", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off"])
    #expect(result.status == 0)
    let counted = try counts(["-"], stdin: result.stderr)
    #expect(counted["events"] == 8)
    #expect(counted["lost"] == 0 && counted["duplicates"] == 0 && counted["malformed"] == 0)
  }

  /// Runs `misuse-helper ARGUMENTS` with `--child-sleeps` writing to `path`, sends SIGTERM to
  /// its forked child once the child is ready, and returns the child's pid, the helper's standard
  /// output and standard error.
  func sigtermToTheForkedChild(
    _ arguments: [String], path: String, rateLimit: String?
  ) throws -> (child: Int32, stdout: String, stderr: String)? {
    let helper = Process()
    helper.executableURL = productsDirectory().appendingPathComponent("misuse-helper")
    helper.arguments = arguments + ["--child-sleeps"]
    var environment = ProcessInfo.processInfo.environment
    for key in environment.keys where key.hasPrefix("BINDING_DIAGNOSTICS") {
      environment[key] = nil
    }
    environment["BINDING_DIAGNOSTICS"] = "jsonl:\(path)"
    environment["BINDING_DIAGNOSTICS_RATE_LIMIT"] = rateLimit
    helper.environment = environment
    let output = Pipe()
    let errors = Pipe()
    helper.standardOutput = output
    helper.standardError = errors
    try helper.run()
    let deadline = Deadline(helper, seconds: 120)
    // The parent's "child PID" and the child's "child ready" come in either order.
    func childPid(_ seen: String) -> Int32? {
      seen.split(separator: "\n").lazy.compactMap { Int32($0.dropFirst(6)) }.first
    }
    var seen = ""
    while !seen.contains("child ready\n") || childPid(seen) == nil {
      let data = output.fileHandleForReading.availableData
      try #require(!data.isEmpty, "the helper ended early: \(seen)")
      seen += String(decoding: data, as: UTF8.self)
    }
    let child = try #require(childPid(seen))
    kill(child, SIGTERM)
    helper.waitUntilExit()
    if deadline.passed {
      // The forked child of a multithreaded parent can deadlock in the Swift runtime: another
      // parent thread held the metadata cache's lock at fork(), and the child waits for it
      // forever (gdb on the child: _swift_getGenericMetadata → pthread_mutex_lock; seen once
      // in five clean-clone CI runs). The parent, waiting for it, was killed at the deadline;
      // the child is ended here, or its copies of other tests' pipes would hang them too.
      kill(child, SIGKILL)
      withKnownIssue("a forked child deadlocked in the Swift runtime", isIntermittent: true) {
        Issue.record("the helper hung: its forked child did not end on SIGTERM")
      }
      return nil
    }
    seen += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(helper.terminationReason == .exit)
    #expect(helper.terminationStatus == 0)
    #expect(
      Set(seen.split(separator: "\n")) == [
        "child \(child)", "child ready", "child signaled \(SIGTERM)",
      ])
    #expect(seen.hasSuffix("child signaled \(SIGTERM)\n"))
    return (child, seen, stderr)
  }

  @Test func sigtermToAForkedChildEndsTheChildNotItsParent() throws {
    let path = try temporaryDirectory() + "/sigterm.jsonl"
    guard
      let (child, _, _) = try sigtermToTheForkedChild(
        ["3", "--fork", "2"], path: path, rateLimit: "off")
    else { return }
    // The child flushed its own records before it ended, under a run of its own.
    #expect(try runsAndSeqs(path)[Int(child)]?.values.first == [1, 2, 3])
    let counted = try counts([path])
    #expect(counted["events"] == 7)
    #expect(counted["lost"] == 0 && counted["duplicates"] == 0 && counted["malformed"] == 0)
  }

  /// A parent whose threads ran Dispatch work (here four misusing threads) leaves its child a
  /// Dispatch pool that never runs a block: the child's flush on SIGTERM runs on a thread of its
  /// own, so the misuses it folded are still written and counted.
  @Test func sigtermToAForkedChildOfAThreadedParentWritesWhatTheChildFolded() throws {
    let path = try temporaryDirectory() + "/sigterm-threads.jsonl"
    guard
      let (_, _, stderr) = try sigtermToTheForkedChild(
        ["3", "--threads", "4", "--fork", "100"], path: path, rateLimit: nil)
    else { return }
    #expect(!stderr.contains("did not finish"), "\(stderr)")
    // 3 misuses on each of 4 threads in the parent, 2 × 100 on each of 4 in the child.
    let counted = try counts([path])
    #expect(counted["events"] == 3 * 4 + 2 * 100 * 4)
    #expect(counted["lost"] == 0)
    #expect(counted["malformed"] == 0)
  }

  /// Rotated generations are named by time, so a shell glob lists them oldest first: `bindiag`
  /// reads every record once, none lost, in the order they were written.
  @Test func aShellGlobOfTheGenerationsReadsEveryRecordInAgeOrder() throws {
    let directory = try temporaryDirectory()
    let path = directory + "/app.jsonl"
    let config = try temporaryFile(
      #"{"sinks":[{"type":"jsonl","path":"\#(path)","max_bytes":20000,"keep":1000}],"rate_limit":"off"}"#
    )
    let writer = try runProduct(
      "misuse-helper", ["3000"], environment: ["BINDING_DIAGNOSTICS_CONFIG": config])
    #expect(writer.status == 0)
    #expect(writer.stderr == "")
    let files = try globbed(path)
    #expect(files.count > 20)
    #expect(files.last == path)
    let counted = try counts(files)
    #expect(counted["events"] == 3000)
    #expect(counted["lost"] == 0 && counted["duplicates"] == 0 && counted["malformed"] == 0)
    // In the glob's order, seq only goes up.
    var seqs: [Int] = []
    for file in files {
      seqs += try lines(ofFile: file).map { line in
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return object?["seq"] as? Int ?? -1
      }
    }
    // 3 000 records and the run-end.
    #expect(seqs == Array(1...3001))
  }

  /// `SIGKILL` of a busy writer can cut its last `write(2)` short: a fragment without a
  /// newline that nothing can prevent. The next writer starts a new line before its first
  /// record, and `bindiag` counts the fragment as malformed and reads every record after it.
  @Test func aFragmentLeftBySigkillIsMalformedAndTheRecordsAfterItAreRead() throws {
    let path = try temporaryDirectory() + "/killed.jsonl"
    let killed = Process()
    killed.executableURL = productsDirectory().appendingPathComponent("misuse-helper")
    killed.arguments = ["0", "--threads", "4", "--forever"]
    var environment = ProcessInfo.processInfo.environment
    for key in environment.keys where key.hasPrefix("BINDING_DIAGNOSTICS") {
      environment[key] = nil
    }
    environment["BINDING_DIAGNOSTICS"] = "jsonl:\(path)"
    environment["BINDING_DIAGNOSTICS_RATE_LIMIT"] = "off"
    killed.environment = environment
    killed.standardOutput = FileHandle.nullDevice
    killed.standardError = FileHandle.nullDevice
    try killed.run()
    let deadline = Deadline(killed, seconds: 120)
    while ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) < 200_000 {
      usleep(10_000)
    }
    kill(killed.processIdentifier, SIGKILL)
    killed.waitUntilExit()
    #expect(!deadline.passed)
    // Whatever the kill left, the file ends in a fragment now: the last record cut in the
    // middle, as the kernel cuts a write when the process dies.
    let handle = try #require(FileHandle(forUpdatingAtPath: path))
    let size = try handle.seekToEnd()
    try handle.truncate(atOffset: size - 60)
    try handle.close()
    let after = try runProduct(
      "misuse-helper", ["10"],
      environment: ["BINDING_DIAGNOSTICS": "jsonl:\(path)", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off"])
    #expect(after.status == 0)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var whole = 0
    var broken = 0
    var events = 0
    for line in text.split(separator: "\n") {
      if let record = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] {
        whole += 1
        if !["run-heartbeat", "run-end"].contains(record["kind"] as? String ?? "") {
          events += 1 + (record["suppressed"] as? Int ?? 0)
        }
      } else {
        broken += 1
      }
    }
    #expect(broken >= 1)
    let counted = try counts([path])
    #expect(counted["malformed"] == broken, "\(counted)")
    #expect(events > 0)
    // The last writer's ten records all follow the fragment, each on a line of its own.
    let tail = text.split(separator: "\n").suffix(11)
    #expect(tail.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
  }

  /// What `/bin/sh` expands `PATH.2* PATH` to.
  func globbed(_ path: String) throws -> [String] {
    let result = try runProduct(
      "/bin/sh", ["-c", #"for f in "$0".2* "$0"; do echo "$f"; done"#, path])
    return result.stdout.split(separator: "\n").map(String.init)
  }
}
