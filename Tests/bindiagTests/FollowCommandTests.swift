import BindingDiagnostics
import BindingDiagnosticsTesting
import Foundation
import TestSupport
import Testing

/// `bindiag follow` running in the background: its output collected as it comes.
private final class RunningFollow: @unchecked Sendable {
  // @unchecked: `stdout` and `stderr` are only touched while `lock` is held.
  private let process = Process()
  private let lock = NSCondition()
  private var stdout = Data()
  private var stderr = Data()
  private var readersDone = 0

  init(_ arguments: [String], environment: [String: String] = [:]) throws {
    process.executableURL = productsDirectory().appendingPathComponent("bindiag")
    process.arguments = ["follow"] + arguments
    var merged = ProcessInfo.processInfo.environment
    merged["BINDIAG_FOLLOW_POLL"] = nil
    merged.merge(environment) { $1 }
    process.environment = merged
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    for (pipe, isOut) in [(out, true), (err, false)] {
      let fd = pipe.fileHandleForReading.fileDescriptor
      let reader = Thread { [self] in
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
          let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
          if count < 0 && errno == EINTR { continue }
          lock.lock()
          if count <= 0 {
            readersDone += 1
          } else if isOut {
            stdout.append(contentsOf: buffer[..<count])
          } else {
            stderr.append(contentsOf: buffer[..<count])
          }
          lock.broadcast()
          lock.unlock()
          if count <= 0 { return }
        }
      }
      reader.start()
    }
  }

  deinit {
    // A test that failed half-way leaves nothing running.
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }

  var pid: Int32 { process.processIdentifier }

  /// Waits until the process has a handler for `signal` (its `SigCgt` mask in `/proc`).
  func waitUntilCatching(_ signal: Int32, seconds: Double = 30) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while Date() < deadline {
      let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
      if let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
        let mask = UInt64(
          line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16),
        mask & (1 << UInt64(signal - 1)) != 0
      {
        return true
      }
      Thread.sleep(forTimeInterval: 0.01)
    }
    return false
  }

  /// Waits until standard output holds `lines` lines or `text`, for at most `seconds`.
  func waitForOutput(lines: Int = 0, containing text: String = "", seconds: Double = 60) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    lock.lock()
    defer { lock.unlock() }
    while true {
      // Newlines counted in bytes: decoding megabytes at every wake-up would be quadratic.
      if stdout.reduce(0, { $0 + ($1 == 0x0a ? 1 : 0) }) >= lines
        && (text.isEmpty || String(decoding: stdout, as: UTF8.self).contains(text))
      {
        return true
      }
      guard lock.wait(until: deadline) else { return false }
    }
  }

  /// Waits until standard error holds `text`, for at most `seconds`.
  func waitForError(containing text: String, seconds: Double = 60) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    lock.lock()
    defer { lock.unlock() }
    while !String(decoding: stderr, as: UTF8.self).contains(text) {
      guard lock.wait(until: deadline) else { return false }
    }
    return true
  }

  /// Sends `signal` (if any) and waits for the process to end.
  func finish(sending signal: Int32? = nil) -> (stdout: String, stderr: String, status: Int32) {
    if let signal { kill(process.processIdentifier, signal) }
    process.waitUntilExit()
    lock.lock()
    defer { lock.unlock() }
    while readersDone < 2 { lock.wait() }
    return (
      String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self),
      process.terminationStatus
    )
  }
}

/// Appends `text` to `path` in one write.
private func append(_ text: String, to path: String) throws {
  let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
  try handle.seekToEnd()
  try handle.write(contentsOf: Data(text.utf8))
  try handle.close()
}

/// A record no writer makes, the last one in a file when `follow` starts: seeing it printed
/// (with `-n 1`) shows `follow` has looked at the file and is watching.
private let marker = jsonLines([fixtureEvent(seq: 1, run: "feedfacefeedface")])

@Suite struct FollowCommandTests {
  enum Mode: String, CaseIterable {
    /// inotify, following as the writers write.
    case inotify
    /// `BINDIAG_FOLLOW_POLL=1`: a look every 0.2 s, dozens of rotations apart.
    case polling
    /// Suspended (`SIGSTOP`) while the writers write, then resumed: it catches up through
    /// every rotated file.
    case suspended
  }

  /// Issue 8.6: four processes writing 3 000 records each through the JSON Lines sink, rotating
  /// at 50 000 bytes (about a hundred rotations): every record printed once, in order per run.
  @Test(arguments: Mode.allCases)
  func everyRecordOfFourRotatingWritersIsPrintedOnceInOrder(mode: Mode) throws {
    let directory = try temporaryDirectory()
    let path = directory + "/app.jsonl"
    let config = try temporaryFile(
      #"{"sinks":[{"type":"jsonl","path":"\#(path)","max_bytes":50000,"keep":1000}],"rate_limit":"off"}"#
    )
    try marker.write(toFile: path, atomically: false, encoding: .utf8)
    let follow = try RunningFollow(
      ["-n", "1", "--format", "json", path],
      environment: mode == .polling ? ["BINDIAG_FOLLOW_POLL": "1"] : [:])
    #expect(follow.waitForOutput(lines: 1))
    if mode == .suspended { kill(follow.pid, SIGSTOP) }
    let writers = try runConcurrently(
      "misuse-helper", count: 4, arguments: ["3000"],
      environment: ["BINDING_DIAGNOSTICS_CONFIG": config])
    #expect(writers.allSatisfy { $0.status == 0 && $0.stderr.isEmpty })
    if mode == .suspended { kill(follow.pid, SIGCONT) }
    // Printed live (not by the last look a stop makes), then stopped.
    #expect(follow.waitForOutput(lines: 12_001))
    let result = follow.finish(sending: SIGTERM)
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let rotated = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasPrefix("app.jsonl.") }
    #expect(rotated.count > 50)
    var seqs: [String: [Int]] = [:]
    for line in result.stdout.split(separator: "\n") {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let run = try #require(object["run"] as? String)
      seqs[run, default: []].append(try #require(object["seq"] as? Int))
    }
    #expect(seqs.removeValue(forKey: "feedfacefeedface") == [1])
    #expect(seqs.count == 4)
    for (run, numbers) in seqs {
      #expect(numbers == Array(1...3000), "run \(run): \(numbers.count) records")
    }
  }

  /// Issue 28.2: `follow` suspended while ten writers, one after the other, make 20 000 records
  /// through about 500 rotations (more than it used to look at between two polls): once
  /// resumed, every record is printed once, in order per run (it printed about half, whole
  /// files never read).
  @Test func aSuspendedFollowReadsEveryGenerationMadeMeanwhile() throws {
    let directory = try temporaryDirectory()
    let path = directory + "/app.jsonl"
    let config = try temporaryFile(
      #"{"sinks":[{"type":"jsonl","path":"\#(path)","max_bytes":16000,"keep":100000}],"rate_limit":"off"}"#
    )
    try marker.write(toFile: path, atomically: false, encoding: .utf8)
    let follow = try RunningFollow(["-n", "1", "--format", "json", path])
    #expect(follow.waitForOutput(lines: 1))
    kill(follow.pid, SIGSTOP)
    // One after the other, each few enough that its exit flush drops none.
    for _ in 1...10 {
      let writer = try runProduct(
        "misuse-helper", ["2000"], environment: ["BINDING_DIAGNOSTICS_CONFIG": config])
      #expect(writer.status == 0 && writer.stderr.isEmpty, "\(writer.stderr)")
    }
    let rotated = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasPrefix("app.jsonl.") }
    #expect(rotated.count > 400)
    kill(follow.pid, SIGCONT)
    #expect(follow.waitForOutput(lines: 20_001, seconds: 300))
    let result = follow.finish(sending: SIGTERM)
    #expect(result.status == 0)
    #expect(result.stderr == "", "\(result.stderr.prefix(2000))")
    var seqs: [String: [Int]] = [:]
    for line in result.stdout.split(separator: "\n") {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      seqs[try #require(object["run"] as? String), default: []].append(
        try #require(object["seq"] as? Int))
    }
    #expect(seqs.removeValue(forKey: "feedfacefeedface") == [1])
    #expect(seqs.count == 10)
    for (run, numbers) in seqs {
      #expect(numbers.elementsEqual(1...2000), "run \(run): \(numbers.count) records")
    }
  }

  /// Red team: records rotated away (and deleted) while `follow` was paused went unsaid. The
  /// records of a run between two it printed are named on standard error, one line per gap.
  @Test func recordsRotatedAwayWhileSuspendedAreNamed() throws {
    let directory = try temporaryDirectory()
    let path = directory + "/app.jsonl"
    try marker.write(toFile: path, atomically: false, encoding: .utf8)
    let follow = try RunningFollow(["-n", "1", "--format", "json", path])
    #expect(follow.waitForOutput(lines: 1))
    let run = "5eed5eed5eed5eed"
    let first = jsonLines((1...2).map { fixtureEvent(seq: $0, run: run) })
    try append(first, to: path)
    #expect(follow.waitForOutput(lines: 3))
    kill(follow.pid, SIGSTOP)
    // The file is rotated away and deleted, as `keep` does; the new one starts at seq 10.
    try FileManager.default.removeItem(atPath: path)
    let later = jsonLines([10, 11, 13].map { fixtureEvent(seq: $0, run: run) })
    try later.write(toFile: path, atomically: false, encoding: .utf8)
    kill(follow.pid, SIGCONT)
    #expect(follow.waitForOutput(lines: 6))
    let result = follow.finish(sending: SIGTERM)
    #expect(result.status == 0)
    #expect(result.stdout == marker + first + later)
    #expect(
      result.stderr
        == "warning: run \(run): records 3–9 were not seen (rotated away before follow read them, "
        + "or lost)\nwarning: run \(run): record 12 was not seen (rotated away before follow "
        + "read it, or lost)\n")
  }

  @Test(arguments: ["SIGINT", "SIGTERM"])
  func aStopPrintsWhatWasWrittenThenExitsZero(signal: String) throws {
    let path = try writeFixture(marker)
    let follow = try RunningFollow(["--format", "json", path])
    #expect(follow.waitForOutput(lines: 1))
    // Suspended, so that only the look the stop makes can find these.
    kill(follow.pid, SIGSTOP)
    let records = jsonLines((1...3).map { fixtureEvent(seq: $0) })
    try append(records, to: path)
    kill(follow.pid, signal == "SIGINT" ? SIGINT : SIGTERM)
    kill(follow.pid, SIGCONT)
    let result = follow.finish()
    #expect(result.status == 0)
    #expect(result.stdout == marker + records)
    #expect(result.stderr == "")
  }

  /// Issue 11.6: the last records at once, in aligned columns, then new ones; text from the
  /// input escaped.
  @Test func tableRowsAreAlignedAndStartWithTheLastTen() throws {
    var events = (1...11).map { fixtureEvent(seq: $0) }
    events[10] = fixtureEvent(seq: 11, kind: .unwrappedWriteAfterNil, suppressed: 4)
    events[10].label = "save\u{1b}[31m"
    let path = try writeFixture(jsonLines(events) + "an app's own output\n")
    let follow = try RunningFollow(["--utc", "--count", "12", path])
    #expect(follow.waitForOutput(lines: 10))
    var wide = fixtureEvent(seq: 12, file: "Sources/Feature/Settings/SettingsView.swift", line: 7)
    wide.process = "SettingsExtension"
    try append(jsonLines([wide, fixtureEvent(seq: 13)]), to: path)
    let result = follow.finish()
    #expect(result.status == 0)
    #expect(result.stderr == "")
    let row =
      "2026-11-30 04:12:33  error     mapped-bool-set-true         App/ContentView.swift:42  Demo[4242]@build-01\n"
    #expect(
      result.stdout == String(repeating: row, count: 9)
        + #"2026-11-30 04:12:33  warning   unwrapped-write-after-nil    App/ContentView.swift:42  Demo[4242]@build-01  label=save\u001b[31m  ×5"#
        + "\n"
        + "2026-11-30 04:12:33  error     mapped-bool-set-true         Sources/Feature/Settings/SettingsView.swift:7  SettingsExtension[4242]@build-01\n"
        // Columns only widen: the next row lines up under the widest so far.
        + "2026-11-30 04:12:33  error     mapped-bool-set-true         App/ContentView.swift:42                       Demo[4242]@build-01\n"
    )
  }

  @Test func rowsShowLocalTimeByDefaultAndColourTheLevelWhenAsked() throws {
    let path = try writeFixture(jsonLines([fixtureEvent(seq: 1)]))
    let result = try runProduct(
      "bindiag", ["follow", "--color", "always", "--count", "1", path],
      environment: ["TZ": "Asia/Kolkata"])
    #expect(result.status == 0)
    #expect(
      result.stdout
        == "2026-11-30 09:42:33  \u{1b}[0;1;31merror\u{1b}[0m     mapped-bool-set-true         App/ContentView.swift:42  Demo[4242]@build-01\n"
    )
  }

  @Test func jsonFormatIsTheContractLinePerRecord() throws {
    let events = (1...5).map { fixtureEvent(seq: $0, suppressed: $0 % 2) }
    let path = try writeFixture(jsonLines(events))
    let follow = try RunningFollow(["-n", "2", "--format", "json", "--count", "3", path])
    #expect(follow.waitForOutput(lines: 2))
    try append("not an event\n" + jsonLines([fixtureEvent(seq: 6)]), to: path)
    let result = follow.finish()
    #expect(result.status == 0)
    #expect(result.stdout == jsonLines(Array(events[3...]) + [fixtureEvent(seq: 6)]))
    #expect(result.stderr == "")
  }

  enum Change: String, CaseIterable {
    case truncated, replaced, deletedAndRecreated
  }

  @Test(arguments: Change.allCases, [false, true])
  func aFileThatIsTruncatedReplacedOrRecreatedIsFollowed(change: Change, polling: Bool) throws {
    let directory = try temporaryDirectory()
    let path = directory + "/app.jsonl"
    try (jsonLines([fixtureEvent(seq: 1), fixtureEvent(seq: 2)]) + marker)
      .write(toFile: path, atomically: false, encoding: .utf8)
    let follow = try RunningFollow(
      ["-n", "1", "--format", "json", path],
      environment: polling ? ["BINDIAG_FOLLOW_POLL": "1"] : [:])
    #expect(follow.waitForOutput(lines: 1))
    let next = jsonLines([fixtureEvent(seq: 3)])
    switch change {
    case .truncated:
      #expect(truncate(path, 0) == 0)
      try append(next, to: path)
    case .replaced:
      try next.write(toFile: path, atomically: true, encoding: .utf8)
    case .deletedAndRecreated:
      #expect(unlink(path) == 0)
      Thread.sleep(forTimeInterval: 0.3)
      try next.write(toFile: path, atomically: false, encoding: .utf8)
    }
    #expect(follow.waitForOutput(lines: 2))
    let result = follow.finish(sending: SIGTERM)
    #expect(result.status == 0)
    #expect(result.stdout == marker + next)
    #expect(
      result.stderr
        == (change == .truncated
          ? "warning: \(path): file truncated and no rotated copy found: records appended "
            + "since follow last read it may be lost; reading it from its start\n"
          : ""))
  }

  /// Outside review: logrotate's `copytruncate` copies the file (`PATH.1`, or `PATH-20261201`
  /// with `dateext`), then truncates it. What was appended after follow's last read was lost,
  /// with a warning. It is read from the copy, before the file's new records, in silence.
  @Test(arguments: [".1", "-20261201"], [false, true])
  func aCopyTruncatedFileLosesNoRecord(copy: String, polling: Bool) throws {
    let directory = try temporaryDirectory()
    let path = directory + "/app.jsonl"
    try marker.write(toFile: path, atomically: false, encoding: .utf8)
    let follow = try RunningFollow(
      ["-n", "1", "--format", "json", path],
      environment: polling ? ["BINDIAG_FOLLOW_POLL": "1"] : [:])
    #expect(follow.waitForOutput(lines: 1))
    // Suspended, so that the records are appended, copied and truncated before it reads them.
    kill(follow.pid, SIGSTOP)
    let before = jsonLines((1...3).map { fixtureEvent(seq: $0) })
    try append(before, to: path)
    try FileManager.default.copyItem(atPath: path, toPath: path + copy)
    #expect(truncate(path, 0) == 0)
    let after = jsonLines([fixtureEvent(seq: 4)])
    try append(after, to: path)
    kill(follow.pid, SIGCONT)
    #expect(follow.waitForOutput(lines: 5))
    let result = follow.finish(sending: SIGTERM)
    #expect(result.status == 0)
    #expect(result.stdout == marker + before + after)
    #expect(result.stderr == "")
  }

  /// Issue 22.4: as `tail -F`, a file (or its folder) not there yet is waited for.
  @Test(arguments: [false, true], [false, true])
  func aFileThatDoesNotExistYetIsWaitedFor(polling: Bool, missingFolder: Bool) throws {
    let directory = try temporaryDirectory() + (missingFolder ? "/logs" : "")
    let path = directory + "/app.jsonl"
    let follow = try RunningFollow(
      ["--format", "json", "--count", "2", path],
      environment: polling ? ["BINDIAG_FOLLOW_POLL": "1"] : [:])
    #expect(follow.waitForError(containing: "waiting for it\n"))
    if missingFolder {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    let first = jsonLines([fixtureEvent(seq: 1)])
    try first.write(toFile: path, atomically: false, encoding: .utf8)
    #expect(follow.waitForOutput(lines: 1))
    // Then replaced by a new file, as a log shipper or an editor does.
    let second = jsonLines([fixtureEvent(seq: 2)])
    try second.write(toFile: path, atomically: true, encoding: .utf8)
    let result = follow.finish()
    #expect(result.status == 0)
    #expect(result.stdout == first + second)
    #expect(result.stderr == "bindiag: '\(path)' does not exist yet; waiting for it\n")
  }

  /// Issue 22.4: on a terminal each line fits its width, kinds whole, and the message follows
  /// where there is room.
  @Test func linesFitTheTerminalAndShowTheMessageWhereRoom() throws {
    var labelled = fixtureEvent(
      seq: 1, file: "Packages/Inbox/Sources/Inbox/Views/ContentView.swift", suppressed: 2)
    labelled.label = "discard-draft-confirmation"
    labelled.message =
      "A Binding<Bool> mapped from an optional was set to true; the write had no effect."
    let path = try writeFixture(jsonLines([labelled]))
    func lines(_ columns: Int) throws -> String {
      let session = try TerminalSession(
        ["follow", "--utc", "--color=never", "--count", "1", "-n", "all", path], columns: columns)
      #expect(session.finish() == 0)
      for line in session.text.split(separator: "\n") {
        #expect(line.count <= columns, "\(columns): \(line)")
      }
      return session.text
    }
    #expect(
      try lines(200)
        == "2026-11-30 04:12:33  error     mapped-bool-set-true         Packages/Inbox/Sources/Inbox/Views/ContentView.swift:42  Demo[4242]@build-01  label=discard-draft-confirmation  ×3  A Binding<Bool> mapped …\n"
    )
    #expect(
      try lines(100)
        == "2026-11-30 04:12:33  error  mapped-bool-set-true  …/Views/ContentView.swift:42  label=discard-d…  ×3\n"
    )
    #expect(
      try lines(80)
        == "2026-11-30 04:12:33  error  mapped-bool-set-true  ContentView.swift:42  ×3\n")
  }

  /// A FIFO with no writer: `follow` does not sit in `open(2)` deaf to signals. `timeout` sends
  /// SIGTERM after 3 s and exits 124 when that ended it, 137 when it had to send SIGKILL.
  @Test func aStopEndsAFollowOfAFIFOWithNoWriter() throws {
    let fifo = try temporaryDirectory() + "/events.fifo"
    try #require(mkfifo(fifo, 0o600) == 0)
    let path = productsDirectory().appendingPathComponent("bindiag").path
    let result = try runProduct(
      "/usr/bin/env", ["timeout", "-k", "10", "3", path, "follow", "--format", "json", fifo],
      environment: bindiagEnvironment)
    #expect(result.status == 124, "\(result.stderr)")
    #expect(result.stdout == "")
  }

  @Test func malformedLinesAreWarnedWithTheirLineNumber() throws {
    let path = try writeFixture(jsonLines([fixtureEvent(seq: 1)]) + "output\n")
    let follow = try RunningFollow(["--count", "2", path])
    #expect(follow.waitForOutput(lines: 1))
    try append("{\"v\":1\n" + jsonLines([fixtureEvent(seq: 2)]), to: path)
    let result = follow.finish()
    #expect(result.status == 0)
    #expect(result.stdout.split(separator: "\n").count == 2)
    #expect(result.stderr == "warning: \(path):3: malformed: unexpected end of line\n")
  }

  @Test func allShowsEverythingAlreadyThere() throws {
    let path = try writeFixture(jsonLines((1...12).map { fixtureEvent(seq: $0) }))
    let result = try bindiag(arguments: ["follow", "-n", "all", "--count", "12", path])
    #expect(result.status == 0)
    #expect(result.stdout.split(separator: "\n").count == 12)
  }

  enum Ending: String, CaseIterable {
    /// Renamed to a generation, then a new file made under the name.
    case rotatedAway
    /// Unlinked, and nothing made under the name.
    case deleted
    /// Still the live file when `follow` is stopped.
    case stopped
  }

  /// Outside test: a file's last record with no newline after it was never printed (`summary`
  /// counts it). Once the file is rotated away, deleted (after the grace it is still read) or
  /// `follow` is stopped, that line is the file's last: printed when it is a record, in order.
  @Test(arguments: Ending.allCases)
  func anUnterminatedLastRecordIsPrintedOnceItsFileIsLetGo(ending: Ending) throws {
    let directory = try temporaryDirectory()
    let path = directory + "/app.jsonl"
    let first = jsonLines([fixtureEvent(seq: 1)])
    let unterminated = jsonLines([fixtureEvent(seq: 2)])
    try (first + unterminated.dropLast()).write(toFile: path, atomically: false, encoding: .utf8)
    let follow = try RunningFollow(["-n", "all", "--format", "json", path])
    #expect(follow.waitForOutput(lines: 1))
    let next = jsonLines([fixtureEvent(seq: 3)])
    switch ending {
    case .rotatedAway:
      #expect(rename(path, path + ".20261201T000000.000001Z") == 0)
      try next.write(toFile: path, atomically: false, encoding: .utf8)
      // Printed live, before the stop, and before the new file's record.
      #expect(follow.waitForOutput(lines: 3, seconds: 15))
    case .deleted:
      #expect(unlink(path) == 0)
      #expect(follow.waitForOutput(lines: 2, seconds: 15))
    case .stopped:
      break
    }
    let result = follow.finish(sending: SIGTERM)
    #expect(result.status == 0)
    #expect(result.stdout == first + unterminated + (ending == .rotatedAway ? next : ""))
    #expect(result.stderr == "")
  }

  /// An unterminated last line that is no record is warned about at a stop, as `summary` does,
  /// with its line number.
  @Test func anUnterminatedMalformedLastLineIsWarnedAtAStop() throws {
    let first = jsonLines([fixtureEvent(seq: 1)])
    let path = try writeFixture(first + "{\"v\":1")
    let follow = try RunningFollow(["-n", "all", "--format", "json", path])
    #expect(follow.waitForOutput(lines: 1))
    let result = follow.finish(sending: SIGINT)
    #expect(result.status == 0)
    #expect(result.stdout == first)
    #expect(result.stderr == "warning: \(path):2: malformed: unexpected end of line\n")
  }

  /// Outside test: `-n all` and `--since` read only the newest 64 generations. 130 generations
  /// (more than two looks' worth) and the live file, with or without three numbered ones of
  /// earlier versions (older than them all): every record once, oldest first.
  @Test(arguments: [["-n", "all"], ["--since", "2000-01-01T00:00:00Z"]], [false, true])
  func everyRotatedGenerationIsReadAtTheStart(start: [String], numbered: Bool) throws {
    let directory = try temporaryDirectory()
    let path = directory + "/app.jsonl"
    var expected = ""
    let old = numbered ? 3 : 0
    for generation in stride(from: old, to: 0, by: -1) {
      let record = jsonLines([fixtureEvent(seq: old + 1 - generation)])
      try record.write(toFile: path + ".\(generation)", atomically: false, encoding: .utf8)
      expected += record
    }
    for seq in 1...130 {
      let record = jsonLines([fixtureEvent(seq: old + seq)])
      let micros = String(format: "%06d", seq)
      try record.write(
        toFile: path + ".20261201T000000.\(micros)Z", atomically: false, encoding: .utf8)
      expected += record
    }
    let live = jsonLines([fixtureEvent(seq: old + 131)])
    try live.write(toFile: path, atomically: false, encoding: .utf8)
    expected += live
    let follow = try RunningFollow(start + ["--format", "json", path])
    #expect(follow.waitForOutput(lines: old + 131, seconds: 30))
    let result = follow.finish(sending: SIGTERM)
    #expect(result.status == 0)
    #expect(result.stdout == expected)
    #expect(result.stderr == "")
  }

  /// `-n N` counted back through the newest 64 generations only: with 100 generations of one
  /// record each, `-n 80` printed 65. It counts back as far as it takes.
  @Test func theLastNReachBackThroughEveryGeneration() throws {
    let directory = try temporaryDirectory()
    let path = directory + "/app.jsonl"
    var records: [String] = []
    for seq in 1...100 {
      let record = jsonLines([fixtureEvent(seq: seq)])
      try record.write(
        toFile: path + ".20261201T000000.\(String(format: "%06d", seq))Z", atomically: false,
        encoding: .utf8)
      records.append(record)
    }
    let live = jsonLines([fixtureEvent(seq: 101)])
    try live.write(toFile: path, atomically: false, encoding: .utf8)
    records.append(live)
    let follow = try RunningFollow(["-n", "80", "--format", "json", path])
    #expect(follow.waitForOutput(lines: 80, seconds: 30))
    let next = jsonLines([fixtureEvent(seq: 102)])
    try append(next, to: path)
    #expect(follow.waitForOutput(lines: 81, seconds: 30))
    let result = follow.finish(sending: SIGTERM)
    #expect(result.status == 0)
    #expect(result.stdout == records.suffix(80).joined() + next)
    #expect(result.stderr == "")
  }

  /// Outside test: run records (never printed) counted among the last `n`: a file ending with
  /// a run-end printed nothing with `-n 1`. Only what would be printed counts.
  @Test(arguments: [1, 2])
  func runRecordsDoNotCountTowardsTheLastN(count: Int) throws {
    let misuses = [fixtureEvent(seq: 1), fixtureEvent(seq: 3)]
    let path = try writeFixture(
      jsonLines([
        misuses[0], runRecordEvent(.runHeartbeat, seq: 2, at: "2026-11-30T04:12:33.123456Z"),
        misuses[1], runRecordEvent(.runEnd, seq: 4, at: "2026-11-30T04:12:33.123456Z"),
      ]))
    let follow = try RunningFollow(["-n", String(count), "--format", "json", path])
    #expect(follow.waitForOutput(lines: count, seconds: 10))
    let result = follow.finish(sending: SIGTERM)
    #expect(result.status == 0)
    #expect(result.stdout == jsonLines(Array(misuses.suffix(count))))
    #expect(result.stderr == "")
  }

  enum Spelling: String, CaseIterable {
    case dotted, doubleSlash, symlink, hardLink
  }

  /// Outside test: one file named twice under two spellings printed each record twice. Inputs
  /// are one file when they have the same device and inode, as `summary` counts them.
  @Test(arguments: Spelling.allCases)
  func aFileNamedTwiceIsFollowedOnce(spelling: Spelling) throws {
    let directory = try temporaryDirectory()
    let path = directory + "/app.jsonl"
    let first = jsonLines([fixtureEvent(seq: 1), fixtureEvent(seq: 2)])
    try first.write(toFile: path, atomically: false, encoding: .utf8)
    let other: String
    switch spelling {
    case .dotted: other = directory + "/./app.jsonl"
    case .doubleSlash: other = directory + "//app.jsonl"
    case .symlink:
      other = directory + "/current.jsonl"
      #expect(symlink("app.jsonl", other) == 0)
    case .hardLink:
      other = directory + "/same.jsonl"
      #expect(link(path, other) == 0)
    }
    let follow = try RunningFollow(["-n", "all", "--format", "json", path, other])
    #expect(follow.waitForOutput(lines: 2))
    let next = jsonLines([fixtureEvent(seq: 3)])
    try append(next, to: path)
    #expect(follow.waitForOutput(lines: 3))
    let result = follow.finish(sending: SIGTERM)
    #expect(result.status == 0)
    #expect(result.stdout == first + next)
    #expect(result.stderr == "")
  }

  /// A rotated generation named beside its file under another spelling of the directory was
  /// read twice: as an input, and as part of the file's rotation. It is part of the rotation,
  /// logrotate's `dateext` names (`PATH-20261201`) included, which were read after the file.
  @Test(arguments: [".20261201T000000.000001Z", "-20261201"])
  func aGenerationNamedBesideItsFileUnderAnotherSpellingIsReadOnce(suffix: String) throws {
    let directory = try temporaryDirectory()
    let path = directory + "/app.jsonl"
    let generation = path + suffix
    let old = jsonLines([fixtureEvent(seq: 1), fixtureEvent(seq: 2)])
    try old.write(toFile: generation, atomically: false, encoding: .utf8)
    let live = jsonLines([fixtureEvent(seq: 3), fixtureEvent(seq: 4)])
    try live.write(toFile: path, atomically: false, encoding: .utf8)
    let follow = try RunningFollow(
      ["-n", "all", "--format", "json", directory + "/./app.jsonl", generation])
    #expect(follow.waitForOutput(lines: 4))
    let next = jsonLines([fixtureEvent(seq: 5)])
    try append(next, to: path)
    #expect(follow.waitForOutput(lines: 5))
    let result = follow.finish(sending: SIGTERM)
    #expect(result.status == 0)
    #expect(result.stdout == old + live + next)
    #expect(result.stderr == "")
  }

  /// Outside test: `follow DIR` waited for ever, printing nothing. A directory is refused as
  /// `summary` refuses it, and as `follow` refuses an unreadable file: exit 1 at once.
  @Test(arguments: [false, true])
  func aDirectoryIsRefused(withAFile: Bool) throws {
    let directory = try temporaryDirectory()
    let path = try writeFixture(jsonLines([fixtureEvent(seq: 1)]))
    let result = try bindiagWithin(
      10, ["follow", "--format", "json"] + (withAFile ? [path] : []) + [directory])
    #expect(result.status == 1)
    #expect(result.stdout == "")
    #expect(result.stderr == "Error: cannot read '\(directory)': Is a directory\n")
  }
}

/// `bindiag follow --journal`, run by ``FollowJournalTestsInAPrivateJournal`` in a child test
/// process against a journald of its own.
@Suite(.enabled(if: PrivateJournal.isInside, PrivateJournal.insideOnly))
struct FollowJournalTests {
  @Test func theLastEntriesComeFirst() throws {
    let code = "follow-last-" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
    let kind = try #require(MisuseKind(code: code))
    let diagnostics = Diagnostics(
      configuration: DiagnosticsConfiguration(
        sink: JournaldSink(fallback: RecordingSink()), rateLimit: nil))
    DiagnosticsSystem.withDiagnostics(diagnostics) {
      for _ in 1...3 { DiagnosticsSystem.report(kind, message: "followed") }
    }
    diagnostics.flush()
    // Until journald has indexed all three.
    for _ in 0..<100 {
      let summary = try bindiag(arguments: [
        "summary", "--journal", "--kind", code, "--format", "json",
      ])
      if summary.stdout.contains(#""events":3,"#) { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    let last = try bindiagWithin(
      30, ["follow", "--journal", "--kind", code, "-n", "2", "--count", "2", "--format", "json"])
    #expect(last.status == 0)
    #expect(last.stderr == "")
    let seqs = try last.stdout.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["seq"]
        as? Int
    }
    #expect(seqs == [2, 3])
    let byDefault = try bindiagWithin(30, ["follow", "--journal", "--kind", code, "--count", "3"])
    #expect(byDefault.status == 0)
    #expect(byDefault.stdout.split(separator: "\n").count == 3)
    #expect(byDefault.stdout.split(separator: "\n").allSatisfy { $0.contains("  \(code)  ") })
  }

  /// As for files: `-n N` counts the entries `follow --journal` prints, not run records nor
  /// those a filter the journal cannot match (`--level`) leaves out. Counted in the journal,
  /// the run-end and the warning were the last two, and nothing was printed.
  @Test func theLastEntriesAreThoseItPrints() throws {
    let run = String(UInt64.random(in: 1...UInt64.max), radix: 16)
    let run16 = String(repeating: "0", count: 16 - run.count) + run
    var end = fixtureEvent(seq: 4, kind: .runEnd, level: .debug, run: run16)
    end.message = "The run ended."
    end.file = "-"
    end.line = 0
    end.function = "-"
    end.valueType = "-"
    end.valuePresent = false
    end.value = nil
    end.runRecords = 3
    end.runEvents = 3
    let events = [
      fixtureEvent(seq: 1, run: run16), fixtureEvent(seq: 2, run: run16),
      fixtureEvent(seq: 3, level: .warning, run: run16), end,
    ]
    let sink = JournaldSink(fallback: RecordingSink())
    for event in events { sink.receive(event) }
    sink.flush()
    // Until journald has indexed all four.
    for _ in 0..<100 {
      let summary = try bindiag(arguments: [
        "summary", "--journal", "--run", run16, "--format", "json",
      ])
      if summary.stdout.contains(#""records":4,"#) { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    let last = try bindiagWithin(
      30,
      [
        "follow", "--journal", "--run", run16, "--level", "error", "-n", "2", "--count", "2",
        "--format", "json",
      ])
    #expect(last.status == 0)
    #expect(last.stderr == "")
    let seqs = try last.stdout.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["seq"]
        as? Int
    }
    #expect(seqs == [1, 2])
  }

  @Test func aStopEndsAFollowThatIsWaitingForEntries() throws {
    let follow = try RunningFollow(["--journal", "--kind", "never-logged-kind", "-n", "0"])
    #expect(follow.waitUntilCatching(SIGTERM))
    let result = follow.finish(sending: SIGTERM)
    #expect(result.status == 0)
    #expect(result.stdout == "")
    #expect(result.stderr == "")
  }
}

/// `bindiag` with `arguments`, ended by `timeout(1)` (exit 124) after `seconds`: a `follow` that
/// waits for journal entries that never come fails instead of hanging.
private func bindiagWithin(_ seconds: Int, _ arguments: [String]) throws -> ProcessOutput {
  let path = productsDirectory().appendingPathComponent("bindiag").path
  return try runProduct(
    "/usr/bin/env", ["timeout", String(seconds), path] + arguments,
    environment: bindiagEnvironment)
}

/// Starts ``FollowJournalTests`` against a private journald.
@Suite(.enabled(if: PrivateJournal.canStartSuites, PrivateJournal.cannotStartSuites))
struct FollowJournalTestsInAPrivateJournal {
  @Test func theSuitePassesAgainstAPrivateJournald() throws {
    let journal = try PrivateJournal.runSuite("FollowJournalTests")
    #expect(journal.output.status == 0, "\(journal.output.stdout)\(journal.output.stderr)")
    #expect(journal.output.swiftTestingPassed == 3, "\(journal.output.stdout)")
    #expect(try journal.entries(matching: ["BINDING_SCHEMA=1"]).count == 7)
  }
}
