import BindingDiagnostics
import Foundation
import TestSupport
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// Parses contract JSON Lines with Foundation's JSONSerialization (independent of our encoder).
func parseRecords(_ lines: [String]) throws -> [[String: Any]] {
  try lines.map { line in
    guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    else { throw CocoaError(.coderReadCorrupt) }
    return object
  }
}

/// Checks that `seq` is 1…n with no gap or repeat within every `run`.
/// `records` without the run records (`run-heartbeat`, `run-end`) a process writes besides its
/// misuse records.
func withoutRunRecords(_ records: [[String: Any]]) -> [[String: Any]] {
  records.filter { !["run-heartbeat", "run-end"].contains($0["kind"] as? String ?? "") }
}

func seqIsContiguousPerRun(_ records: [[String: Any]]) -> Bool {
  var byRun: [String: [Int]] = [:]
  for record in records {
    guard let run = record["run"] as? String, let seq = record["seq"] as? Int else { return false }
    byRun[run, default: []].append(seq)
  }
  return byRun.values.allSatisfy { $0.sorted() == Array(1...$0.count) }
}

@Suite struct JSONLinesFileSinkTests {
  @Test func writesContractRecordsWithMode0640() throws {
    let path = try temporaryDirectory() + "/events.jsonl"
    let sink = try JSONLinesFileSink.open(path: path).get()
    sink.receive(sampleEvent())
    sink.receive(sampleEvent(label: "two"))
    sink.flush()
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(
      Array(data) == JSONLinesEncoder().encode(sampleEvent())
        + JSONLinesEncoder().encode(sampleEvent(label: "two")))
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640)
    #expect(sink.statistics.written == 2)
    #expect(sink.statistics.dropped == 0)
  }

  @Test func pythonAndJqReadTheFileAsItIs() throws {
    let path = try temporaryDirectory() + "/events.jsonl"
    let sink = try JSONLinesFileSink.open(path: path, options: .init(synchronous: true)).get()
    sink.receive(sampleEvent(message: "tricky \"quotes\"\nand\tcontrols\u{1}"))
    sink.receive(sampleEvent(value: "ünïcode 😀"))
    let python = try runProduct(
      "/usr/bin/env",
      [
        "python3", "-c",
        "import json,sys; print(sum(1 for l in open(sys.argv[1]) if json.loads(l)['v']==1))", path,
      ])
    #expect(python.stdout == "2\n")
    let jq = try runProduct("/usr/bin/env", ["jq", "-r", ".msg", path])
    #expect(jq.status == 0)
    #expect(jq.stdout.hasPrefix("tricky \"quotes\"\nand\tcontrols"))
  }

  @Test func noValueStartsALineForReadersThatBreakLinesAtUnicodeSeparators() throws {
    // Foundation's line enumeration, Swift's `Character.isNewline` and Python's `splitlines()`
    // also break lines at NEL (U+0085) and the line and paragraph separators (U+2028, U+2029),
    // which JSON allows raw in a string: raw, a label could start a forged record there.
    let path = try temporaryDirectory() + "/separators.jsonl"
    let sink = try JSONLinesFileSink.open(path: path, options: .init(synchronous: true)).get()
    let diagnostics = Diagnostics(
      configuration: DiagnosticsConfiguration(sink: sink, privacy: .public, rateLimit: nil))
    let forged = #"{"v":1,"ts":"2026-11-30T04:12:33.123456Z","level":"critical","kind":"forged"}"#
    let separators = ["\u{85}", "\u{2028}", "\u{2029}", "\u{9f}"]
    DiagnosticsSystem.withDiagnostics(diagnostics) {
      for separator in separators {
        let flag = Box<String?>(forged).binding.mappedToBool(label: "row" + separator + forged)
        flag.wrappedValue = true
      }
    }
    diagnostics.flush()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    var lines: [String] = []
    text.enumerateLines { line, _ in lines.append(line) }
    #expect(lines.count == separators.count)
    #expect(text.split(whereSeparator: \.isNewline).count == separators.count)
    let records = try parseRecords(lines)
    #expect(records.map { $0["label"] as? String } == separators.map { "row" + $0 + forged })
    #expect(text.contains(#"row\u2028{\"v\":1"#))
  }

  @Test func refusesSymlinksAndDirectories() throws {
    let directory = try temporaryDirectory()
    let target = directory + "/target.jsonl"
    #expect(FileManager.default.createFile(atPath: target, contents: nil))
    let link = directory + "/link.jsonl"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    #expect(throws: SystemError.self) { try JSONLinesFileSink.open(path: link).get() }
    #expect(throws: SystemError.self) { try JSONLinesFileSink.open(path: directory).get() }
    let regular = directory + "/file"
    #expect(FileManager.default.createFile(atPath: regular, contents: Data("x".utf8)))
    let error = #expect(throws: SystemError.self) {
      try JSONLinesFileSink.open(path: regular + "/under.jsonl").get()
    }
    #expect(error?.code == ENOTDIR)
    #expect(
      (#expect(throws: SystemError.self) { try JSONLinesFileSink.open(path: link).get() })?.code
        == ELOOP)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "")
  }

  @Test func anUnusablePathFallsBackToStandardErrorAndNeverThrows() throws {
    let regular = try temporaryFile("x", name: "plain")
    let sink = JSONLinesFileSink(path: regular + "/under.jsonl", options: .init(synchronous: true))
    for _ in 0..<5 { sink.receive(sampleEvent()) }
    sink.flush()
    let statistics = sink.statistics
    #expect(statistics.written == 0)
    #expect(statistics.dropped == 0)
    #expect(statistics.failed == 1)
    #expect(statistics.fellBack == 5)
  }

  @Test func flushWaitsForEverythingEnqueued() throws {
    let path = try temporaryDirectory() + "/events.jsonl"
    let sink = try JSONLinesFileSink.open(path: path).get()
    for seq in 1...20_000 {
      var event = sampleEvent()
      event.seq = seq
      sink.receive(event)
    }
    sink.flush()
    let records = try parseRecords(try lines(ofFile: path))
    #expect(records.count == 20_000)
    #expect(records.map { $0["seq"] as? Int } == Array(1...20_000))
    #expect(sink.statistics.written == 20_000)
  }

  @Test func twoThreadsMisusingThroughTheSinkWriteEverySeqOnceInWholeLines() throws {
    let path = try temporaryDirectory() + "/threads.jsonl"
    let sink = try JSONLinesFileSink.open(path: path).get()
    let diagnostics = Diagnostics(
      configuration: DiagnosticsConfiguration(sink: sink, rateLimit: nil))
    let perThread = 20_000
    onTwoThreads { thread in
      DiagnosticsSystem.withDiagnostics(diagnostics) {
        let flag = Box<Int?>(thread).binding.mappedToBool(label: "thread-\(thread)")
        for _ in 0..<perThread { flag.wrappedValue = true }
      }
    }
    sink.flush()
    let lines = try lines(ofFile: path)
    #expect(lines.count == 2 * perThread)
    #expect(lines.allSatisfy { $0.hasPrefix(#"{"v":1,"#) && $0.hasSuffix("}") })
    let records = try parseRecords(lines)
    let seqs = records.compactMap { $0["seq"] as? Int }
    #expect(seqs.sorted() == Array(1...(2 * perThread)))
    // Each thread's records reach the file in the order it reported them.
    for thread in 0..<2 {
      let own = records.filter { $0["label"] as? String == "thread-\(thread)" }
        .compactMap { $0["seq"] as? Int }
      #expect(own.count == perThread)
      #expect(own == own.sorted())
    }
    #expect(sink.statistics.written == 2 * perThread)
    #expect(sink.statistics.dropped == 0)
  }

  @Test func twoThreadsOverflowingTheQueueHaveEveryDropCounted() throws {
    let path = try temporaryDirectory() + "/overflow.jsonl"
    let sink = try JSONLinesFileSink.open(path: path, options: .init(queueCapacity: 1)).get()
    let perThread = 50_000
    onTwoThreads { _ in
      for _ in 0..<perThread { sink.receive(sampleEvent()) }
    }
    sink.flush()
    let statistics = sink.statistics
    #expect(statistics.written + statistics.dropped == 2 * perThread)
    #expect(statistics.dropped > 0)
    let lines = try lines(ofFile: path)
    #expect(lines.count == statistics.written)
    #expect(try parseRecords(lines).count == statistics.written)
  }

  @Test func aFullQueueDropsAndCountsWithoutBlocking() throws {
    let path = try temporaryDirectory() + "/events.jsonl"
    let sink = try JSONLinesFileSink.open(path: path, options: .init(queueCapacity: 1)).get()
    let total = 200_000
    for _ in 0..<total { sink.receive(sampleEvent()) }
    sink.flush()
    let statistics = sink.statistics
    #expect(statistics.written + statistics.dropped == total)
    #expect(statistics.dropped > 0)
    #expect(try lines(ofFile: path).count == statistics.written)
  }

  @Test func longRecordsAreCutToTheCap() throws {
    let path = try temporaryDirectory() + "/events.jsonl"
    let sink = try JSONLinesFileSink.open(path: path, options: .init(synchronous: true)).get()
    let huge = String(repeating: "\u{1}", count: 200_000)
    sink.receive(sampleEvent(message: huge, value: huge, label: huge))
    let line = try #require(try lines(ofFile: path).first)
    #expect(line.utf8.count + 1 <= JSONLinesFileSink.maxRecordBytes)
    let record = try #require(try parseRecords([line]).first)
    #expect((record["msg"] as? String)?.hasSuffix("…") == true)
  }

  /// A path that cannot hold records, named in the environment or made in code: one line, then
  /// the records on standard error.
  @Test(arguments: ["/dev/full", "DIRECTORY", "FIFO"], [false, true])
  func aPathThatCannotHoldRecordsFallsBackToStandardError(path: String, inCode: Bool) throws {
    let directory = try temporaryDirectory()
    let path =
      switch path {
      case "DIRECTORY": directory
      case "FIFO": directory + "/fifo"
      default: path
      }
    if path.hasSuffix("/fifo") { #expect(mkfifo(path, 0o600) == 0) }
    let result = try runProduct(
      "misuse-helper", inCode ? ["3", "--code-jsonl", path] : ["3"],
      environment: [
        "BINDING_DIAGNOSTICS": "jsonl:\(path)", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
      ])
    #expect(result.status == 0)
    let lines = result.stderr.split(separator: "\n").map(String.init)
    // The warning, three records, and the run's end: the records went to standard error.
    #expect(lines.count == 5, "\(result.stderr)")
    #expect(lines.last?.contains(" kind=run-end seq=4 ") == true || lines.last?.contains("kind=run-end") == true)
    let error =
      path == directory
      ? "open: Is a directory (errno 21)" : "open (not a regular file): Invalid argument (errno 22)"
    #expect(
      lines.first
        == (inCode
          ? "binding-diagnostics: sink=jsonl path=\(path) error=\"\(error)\" errno=\(path == directory ? 21 : 22) action=\"using stderr\""
          : "binding-diagnostics: BINDING_DIAGNOSTICS: jsonl:\(path): \(error); using stderr"))
    #expect(lines.dropFirst().dropLast().allSatisfy { $0.contains("kind=mapped-bool-set-true") })
    #expect(
      lines.dropFirst().dropLast().map { $0.contains("seq=\(lines.firstIndex(of: $0)!)") } == [
        true, true, true,
      ])
  }

  @Test func aFileMovedAwayIsNoticedAndThePathReopened() throws {
    let directory = try temporaryDirectory()
    let path = directory + "/events.jsonl"
    let sink = try JSONLinesFileSink.open(path: path, options: .init(synchronous: true)).get()
    for _ in 0..<3 { sink.receive(sampleEvent()) }
    try FileManager.default.moveItem(atPath: path, toPath: path + ".moved")
    Thread.sleep(forTimeInterval: 1.1)
    for _ in 0..<4 { sink.receive(sampleEvent()) }
    #expect(try lines(ofFile: path + ".moved").count == 3)
    #expect(try lines(ofFile: path).count == 4)
    #expect(sink.statistics.reopens == 1)
    try FileManager.default.removeItem(atPath: path)
    Thread.sleep(forTimeInterval: 1.1)
    for _ in 0..<2 { sink.receive(sampleEvent()) }
    #expect(try lines(ofFile: path).count == 2)
    #expect(sink.statistics.written == 9)
  }

  @Test func processesAppendingToOneFileNeverInterleave() throws {
    let path = try temporaryDirectory() + "/shared.jsonl"
    let results = try runConcurrently(
      "misuse-helper", count: 4, arguments: ["5000"],
      environment: [
        "BINDING_DIAGNOSTICS": "jsonl:\(path)", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
      ])
    #expect(results.allSatisfy { $0.status == 0 && $0.stderr.isEmpty })
    let records = try parseRecords(try lines(ofFile: path))
    // Each process's records, then its run's end.
    #expect(withoutRunRecords(records).count == 20_000)
    #expect(records.count == 20_004)
    #expect(Set(records.compactMap { $0["run"] as? String }).count == 4)
    #expect(seqIsContiguousPerRun(records))
  }

  @Test func rotationAcrossProcessesLosesNothing() throws {
    let directory = try temporaryDirectory()
    let path = directory + "/rotating.jsonl"
    let config = try temporaryFile(
      #"{"sinks":[{"type":"jsonl","path":"\#(path)","max_bytes":50000,"keep":1000}],"rate_limit":"off"}"#
    )
    let results = try runConcurrently(
      "misuse-helper", count: 4, arguments: ["5000"],
      environment: ["BINDING_DIAGNOSTICS_CONFIG": config])
    #expect(results.allSatisfy { $0.status == 0 && $0.stderr.isEmpty })
    let files = try FileManager.default.contentsOfDirectory(atPath: directory)
      .filter { $0.hasPrefix("rotating.jsonl") }
    #expect(files.count > 5)
    var all: [String] = []
    for file in files { all += try lines(ofFile: directory + "/" + file) }
    let records = try parseRecords(all)
    #expect(withoutRunRecords(records).count == 20_000)
    #expect(records.count == 20_004)
    #expect(seqIsContiguousPerRun(records))
    // Writers check the size under the file's lock: no file grows past max_bytes.
    for file in files {
      let size = try FileManager.default.attributesOfItem(atPath: directory + "/" + file)[.size]
      #expect((size as? Int ?? .max) <= 50_000, "\(file) is \(size ?? "?") bytes")
    }
  }

  @Test func rateLimitedProcessesStillAccountForEveryMisuse() throws {
    let path = try temporaryDirectory() + "/limited.jsonl"
    let results = try runConcurrently(
      "misuse-helper", count: 4, arguments: ["5000"],
      environment: ["BINDING_DIAGNOSTICS": "jsonl:\(path)"])
    #expect(results.allSatisfy { $0.status == 0 })
    let records = withoutRunRecords(try parseRecords(try lines(ofFile: path)))
    #expect(records.count < 20_000)
    #expect(records.reduce(0) { $0 + 1 + ($1["suppressed"] as? Int ?? -1_000_000) } == 20_000)
  }
}

/// Runs `body(0)` and `body(1)` on two threads of their own at once, and waits for both.
private func onTwoThreads(_ body: @escaping @Sendable (Int) -> Void) {
  let done = DispatchGroup()
  for thread in 0..<2 {
    done.enter()
    Thread {
      body(thread)
      done.leave()
    }.start()
  }
  done.wait()
}
