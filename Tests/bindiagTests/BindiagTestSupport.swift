import BindingDiagnostics
import Foundation
import TestSupport

/// What every `bindiag` run of the tests sees, whatever the developer's shell exports: times
/// in UTC, no `COLUMNS` (an empty value is ignored).
let bindiagEnvironment = ["TZ": "UTC", "COLUMNS": "", "LINES": ""]

/// Runs `bindiag` in this process (``BindiagInProcess``), as the built binary would run it; a
/// command line that needs a process of its own (`follow`, `demo`, another time zone) runs the
/// binary.
func bindiag(_ arguments: String..., stdin: String? = nil) throws -> ProcessOutput {
  try bindiag(arguments: arguments, stdin: stdin.map { Data($0.utf8) })
}

/// Runs `bindiag` in this process with an argument array and, optionally, more environment.
func bindiag(
  arguments: [String], environment: [String: String] = [:], stdin: Data? = nil
) throws -> ProcessOutput {
  let environment = bindiagEnvironment.merging(environment) { $1 }
  guard BindiagInProcess.runsLikeTheBinary(arguments, environment: environment) else {
    return try runProduct("bindiag", arguments, environment: environment, stdin: stdin)
  }
  return try BindiagInProcess.run(arguments, environment: environment, stdin: stdin)
}

/// Runs the built `bindiag` binary: the end-to-end runs, and what needs a process of its own
/// (signals, a terminal, the process's own misuse pipeline, local time).
func launchedBindiag(_ arguments: String..., stdin: String? = nil) throws -> ProcessOutput {
  try launchedBindiag(arguments: arguments, stdin: stdin.map { Data($0.utf8) })
}

/// Runs the built `bindiag` binary with an argument array and, optionally, more environment.
func launchedBindiag(
  arguments: [String], environment: [String: String] = [:], stdin: Data? = nil
) throws -> ProcessOutput {
  try runProduct(
    "bindiag", arguments, environment: bindiagEnvironment.merging(environment) { $1 },
    stdin: stdin)
}

/// An event of the fixtures, every field chosen; the level is the kind's default unless given.
func fixtureEvent(
  seq: Int, kind: MisuseKind = .mappedBoolSetTrue, level: MisuseLevel? = nil,
  file: String = "App/ContentView.swift", line: Int = 42,
  at time: String = "2026-11-30T04:12:33.123456Z", suppressed: Int = 0,
  process: String = "Demo", host: String = "build-01", run: String = "0123456789abcdef",
  test: String? = nil, writer: String? = nil
) -> MisuseEvent {
  MisuseEvent(
    timestamp: Timestamp(rfc3339: time)!, level: level ?? kind.defaultLevel, kind: kind,
    message: "A misuse.", file: file, line: line, function: "body",
    valueType: "Swift.Optional<Swift.String>", valuePresent: true, value: "<private>",
    test: test, writer: writer, process: process, pid: 4242, host: host, run: run, seq: seq,
    suppressed: suppressed)
}

/// Three records standing for 12 events at two sites, from two processes, with `seq` 3 lost.
let summaryFixtureEvents = [
  fixtureEvent(seq: 1),
  fixtureEvent(seq: 2, suppressed: 9, process: "Other"),
  fixtureEvent(
    seq: 4, kind: .unwrappedReadAfterNil, file: "App/Detail.swift", line: 7,
    at: "2026-11-30T05:00:00.000000Z"),
]

/// Contract JSON Lines for `events`.
func jsonLines(_ events: [MisuseEvent]) -> String {
  events.map { String(decoding: JSONLinesEncoder().encode($0), as: UTF8.self) }.joined()
}

/// Writes `text` to a new file and returns its path.
func writeFixture(_ text: String, name: String = "events.jsonl") throws -> String {
  try temporaryFile(text, name: name)
}
