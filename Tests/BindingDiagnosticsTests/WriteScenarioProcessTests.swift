import Foundation
import TestSupport
import Testing

/// Issue 30's scripted app, a real process configured from the environment: each misused write
/// site gives exactly one record of its kind, the app written correctly none.
@Suite(.timeLimit(.minutes(2))) struct WriteScenarioProcessTests {
  @Test func eachMisusedSiteGivesOneRecordOfItsKind() throws {
    let result = try runProduct(
      "misuse-helper", ["0", "--writes", "misused"],
      environment: ["BINDING_DIAGNOSTICS": "stderr:json"])
    #expect(result.status == 0)
    let all = try Self.records(result.stderr)
    #expect(all.last?["kind"] as? String == "run-end")
    let records = try Self.misuses(result.stderr)
    let sites = records.map { "\($0["kind"] as? String ?? "?") \($0["label"] as? String ?? "?")" }
    #expect(
      sites.sorted() == [
        "reentrant-write volume", "set-off-main-thread counter", "write-not-applied dismiss",
        "write-not-applied name", "write-not-applied title",
      ])
    #expect(records.allSatisfy { $0["file"] as? String == "misuse_helper/WriteScenarios.swift" })
    #expect(records.allSatisfy { $0["level"] as? String == "warning" })
    #expect(records.allSatisfy { $0["suppressed"] as? Int == 0 })
    #expect(Set(records.compactMap { $0["line"] as? Int }).count == 5)
  }

  @Test func theAppWrittenCorrectlyGivesNone() throws {
    let result = try runProduct(
      "misuse-helper", ["0", "--writes", "correct"],
      environment: ["BINDING_DIAGNOSTICS": "stderr:json"])
    #expect(result.status == 0)
    #expect(result.stderr == "")
  }

  @Test func theEnvironmentTurnsTheThreadCheckOff() throws {
    let result = try runProduct(
      "misuse-helper", ["0", "--writes", "misused"],
      environment: [
        "BINDING_DIAGNOSTICS": "stderr:json", "BINDING_DIAGNOSTICS_MAIN_THREAD_CHECK": "off",
      ])
    #expect(result.status == 0)
    let kinds = try Self.misuses(result.stderr).compactMap { $0["kind"] as? String }
    #expect(!kinds.contains("set-off-main-thread"))
    #expect(kinds.count == 4)
  }

  @Test func theMainActorOfAnAppParkedInDispatchMainCountsAsTheMainThread() throws {
    // On Linux the main actor's work runs on a worker thread once the main thread parks in
    // dispatchMain(), as an async main does: writes there are the main thread's, writes from
    // detached tasks are not, whether the binding was made before or after.
    let result = try runProduct(
      "misuse-helper", ["0", "--main-actor-writes"],
      environment: ["BINDING_DIAGNOSTICS": "stderr:json"])
    #expect(result.status == 0)
    let records = try Self.misuses(result.stderr)
    let sites = records.map { "\($0["kind"] as? String ?? "?") \($0["label"] as? String ?? "?")" }
    #expect(
      sites.sorted() == [
        "set-off-main-thread made-on-main-actor", "set-off-main-thread made-on-main-thread",
      ])
  }

  /// The misuse records of `text`: every record but the run's own (`run-heartbeat`, `run-end`).
  static func misuses(_ text: String) throws -> [[String: Any]] {
    try records(text).filter { !(($0["kind"] as? String)?.hasPrefix("run-") ?? false) }
  }

  /// The JSON Lines records of `text`, one object per line.
  static func records(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map {
      try #require(
        try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "\($0)")
    }
  }
}
