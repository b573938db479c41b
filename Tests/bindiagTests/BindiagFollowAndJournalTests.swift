import BindingDiagnostics
import BindingDiagnosticsTesting
import Foundation
import TestSupport
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif

@Suite struct BindiagFollowTests {
  @Test func followPrintsAppendedEventsAcrossRotation() throws {
    let directory = try temporaryDirectory()
    let path = directory + "/app.jsonl"
    try jsonLines([fixtureEvent(seq: 1)]).write(toFile: path, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = productsDirectory().appendingPathComponent("bindiag")
    process.arguments = ["follow", "--utc", "--count", "3", path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    Thread.sleep(forTimeInterval: 0.5)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.seekToEnd()
    try handle.write(
      contentsOf: Data(("not an event\n" + jsonLines([fixtureEvent(seq: 2, suppressed: 4)])).utf8))
    try handle.close()
    Thread.sleep(forTimeInterval: 0.5)
    // Rotate like logrotate: move the file away, start a new one.
    try FileManager.default.moveItem(atPath: path, toPath: path + ".1")
    try jsonLines([fixtureEvent(seq: 3, kind: .unwrappedWriteAfterNil), fixtureEvent(seq: 4)])
      .write(toFile: path, atomically: true, encoding: .utf8)
    process.waitUntilExit()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == 0)
    // The event already there first (the last 10), then the appended ones.
    #expect(
      text == """
        2026-11-30 04:12:33  error     mapped-bool-set-true         App/ContentView.swift:42  Demo[4242]@build-01
        2026-11-30 04:12:33  error     mapped-bool-set-true         App/ContentView.swift:42  Demo[4242]@build-01  ×5
        2026-11-30 04:12:33  warning   unwrapped-write-after-nil    App/ContentView.swift:42  Demo[4242]@build-01

        """)
  }

  @Test func followReadsStandardInputAsItComes() throws {
    let result = try bindiag(
      arguments: ["follow", "--utc"], stdin: Data(jsonLines([fixtureEvent(seq: 1)]).utf8))
    #expect(result.status == 0)
    #expect(
      result.stdout
        == "2026-11-30 04:12:33  error     mapped-bool-set-true         App/ContentView.swift:42  Demo[4242]@build-01\n"
    )
  }
}

/// `bindiag` reading the journald sink's entries, run by ``BindiagJournalTestsInAPrivateJournal``
/// in a child test process against a journald of its own (`--journal` reads only it there).
@Suite(.enabled(if: PrivateJournal.isInside, PrivateJournal.insideOnly))
struct BindiagJournalTests {
  /// Sends `count` misuses through a real journald sink and returns the run id.
  func sendToJournal(count: Int) -> String {
    let diagnostics = Diagnostics(
      configuration: DiagnosticsConfiguration(
        sink: JournaldSink(fallback: RecordingSink()), rateLimit: nil))
    DiagnosticsSystem.withDiagnostics(diagnostics) {
      let flag = Binding<String?>(get: { "x" }, set: { _ in }).mappedToBool()
      for _ in 0..<count { flag.wrappedValue = true }
    }
    return diagnostics.run
  }

  /// Polls `bindiag` until journald has indexed `count` events of `run`.
  func summary(_ arguments: [String], run: String, count: Int) throws -> [String: Any] {
    var object: [String: Any] = [:]
    for _ in 0..<100 {
      let result = try bindiag(arguments: arguments + ["--run", run, "--format", "json"])
      #expect(result.status == 0, "\(result.stderr)")
      object = try #require(
        try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
      if object["events"] as? Int == count { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    return object
  }

  @Test func summaryReadsTheLocalJournal() throws {
    let run = sendToJournal(count: 25)
    let object = try summary(["summary", "--journal"], run: run, count: 25)
    #expect(object["events"] as? Int == 25)
    #expect(object["records"] as? Int == 25)
    #expect(object["lost"] as? Int == 0)
    let group = try #require((object["groups"] as? [[String: Any]])?.first)
    #expect((group["key"] as? [String: Any])?["file"] as? String == #fileID)
    #expect(group["processes"] as? [String] != nil)
  }

  @Test func summaryReadsAJournalDirectory() throws {
    let run = sendToJournal(count: 7)
    // A journald without systemd's flush service keeps its files in the volatile directory.
    let directory =
      FileManager.default.fileExists(atPath: "/run/log/journal")
      ? "/run/log/journal" : "/var/log/journal"
    let object = try summary(["summary", "--journal-dir", directory], run: run, count: 7)
    #expect(object["events"] as? Int == 7)
  }

  @Test func journalctlOutputPipedInMatchesTheDirectRead() throws {
    let run = sendToJournal(count: 5)
    _ = try summary(["summary", "--journal"], run: run, count: 5)
    let exported = try runProduct(
      "/usr/bin/env", ["journalctl", "--no-pager", "-o", "json", "BINDING_RUN=\(run)"])
    let piped = try bindiag(
      arguments: ["summary", "--format", "json"], stdin: Data(exported.stdout.utf8))
    let direct = try bindiag(arguments: ["summary", "--journal", "--run", run, "--format", "json"])
    #expect(piped.stdout == direct.stdout)
    #expect(piped.stdout.contains(#""events":5,"records":5,"malformed":0,"other":0,"lost":0"#))
  }

  @Test func followPrintsNewJournalEntries() throws {
    let code = "follow-test-" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
    let kind = try #require(MisuseKind(code: code))
    let process = Process()
    process.executableURL = productsDirectory().appendingPathComponent("bindiag")
    process.arguments = ["follow", "--journal", "--kind", code, "--count", "2"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    Thread.sleep(forTimeInterval: 1)
    let diagnostics = Diagnostics(
      configuration: DiagnosticsConfiguration(
        sink: JournaldSink(fallback: RecordingSink()), rateLimit: nil))
    DiagnosticsSystem.withDiagnostics(diagnostics) {
      for _ in 0..<2 { DiagnosticsSystem.report(kind, message: "followed", label: "live") }
    }
    // Not forever: with journald down the entries never come (the expectations below then fail).
    let deadline = Date().addingTimeInterval(60)
    while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      .split(separator: "\n")
    #expect(process.terminationStatus == 0)
    #expect(lines.count == 2)
    #expect(lines.allSatisfy { $0.contains("  warning   \(code)  ") && $0.hasSuffix("label=live") })
  }

  @Test func aMissingJournalDirectoryIsARuntimeFailure() throws {
    let result = try bindiag("summary", "--format", "json", "--journal-dir", "/nonexistent/journal")
    #expect(result.status == 1)
    #expect(
      result.stdout
        == #"{"schema":1,"events":0,"records":0,"malformed":0,"other":0,"lost":0,"duplicates":0,"runs":{"ended":0,"running":0,"stale":0},"run_dropped":0,"first":null,"last":null,"group_by":["kind","file","line"],"groups":[],"lost_runs":[],"stale_runs":[],"run_fields":["host"],"run_groups":[]}"#
        + "\n")
    #expect(
      result.stderr
        == "Error: cannot read journal '/nonexistent/journal': opendir: No such file or directory (errno 2)\n"
    )
  }
}

/// Starts ``BindiagJournalTests`` against a private journald.
@Suite(.enabled(if: PrivateJournal.canStartSuites, PrivateJournal.cannotStartSuites))
struct BindiagJournalTestsInAPrivateJournal {
  @Test func theSuitePassesAgainstAPrivateJournald() throws {
    let journal = try PrivateJournal.runSuite("BindiagJournalTests")
    #expect(journal.output.status == 0, "\(journal.output.stdout)\(journal.output.stderr)")
    #expect(journal.output.swiftTestingPassed == 5, "\(journal.output.stdout)")
    // 25 + 7 + 5 misuses, 2 followed reports.
    #expect(try journal.entries(matching: ["BINDING_SCHEMA=1"]).count == 39)
  }
}
