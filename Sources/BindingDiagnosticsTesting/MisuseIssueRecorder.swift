import BindingDiagnostics
import Testing

/// The sink of one test's ``FailsOnMisuseTrait`` pipeline: each call site the test misuses
/// becomes one issue of that test, at the writer's line (the mapping's without debug
/// information).
///
/// An issue is recorded at the site's first misuse, on the misusing task: that task runs the test
/// (or a child task of it), so `Test.current` is this test and a surrounding `withKnownIssue`
/// applies. A misuse arriving where `Test.current` is not this test (a thread outside the test's
/// task tree that installed this pipeline with `withDiagnostics`) is recorded when the test ends,
/// with its count. When sites were misused more than once, one warning at the test's end gives
/// each one's count, since the first issue could not know it. A misuse after the test ended (an
/// unstructured task still running) fails nothing: it goes to the process's sinks only, naming
/// the test it came from.
final class MisuseIssueRecorder: DiagnosticsSink {
  private struct Entry {
    var site: MisuseSite
    var count: Int
    var recorded: Bool
  }

  private struct State {
    var entries: [MisuseSite.Key: Entry] = [:]
    var order: [MisuseSite.Key] = []
    var finished = false
  }

  private let test: Test
  private let testName: String
  private let allowed: Set<String>
  private let relay: Diagnostics?
  private let state = Lock(State())

  /// A recorder for `test` that ignores the kinds in `allowed` (by code) and hands every event
  /// to `relay`'s sinks, naming the test.
  init(
    test: Test, testCase: Test.Case?, except allowed: Set<String>, relayingTo relay: Diagnostics?
  ) {
    self.test = test
    self.testName = test.nameWithArguments(testCase)
    self.allowed = allowed
    self.relay = relay
  }

  /// Hands the event to the process's sinks, counts its site, and records its issue now if it
  /// is the site's first misuse on this test's task tree.
  func receive(_ event: MisuseEvent) {
    guard !allowed.contains(event.kind.code) else {
      relay?.relay(event, test: testName)
      return
    }
    let onTestTask = Test.current?.id == test.id
    let site = MisuseSite(event)
    let (recordNow, shown) = state.withLock { state -> (Bool, Bool) in
      guard !state.finished else { return (false, false) }
      let key = site.key
      if state.entries[key] == nil {
        state.order.append(key)
        state.entries[key] = Entry(site: site, count: 0, recorded: false)
      }
      state.entries[key]!.count += event.events
      guard onTestTask, !state.entries[key]!.recorded else {
        return (false, state.entries[key]!.recorded)
      }
      state.entries[key]!.recorded = true
      return (true, true)
    }
    // The process's standard error in a test process leaves out what the test shows.
    TestProcess.$recordShownAsTestIssue.withValue(shown) {
      relay?.relay(event, test: testName)
    }
    if recordNow { site.record(count: nil, severity: .error, near: test.sourceLocation) }
  }

  /// Records what the test's end still owes: an issue for each site first misused off the test's
  /// task tree, with its count, and one warning with the counts of the sites recorded earlier
  /// that were misused more than once. Misuses after this fail nothing: the test is over.
  func finish() {
    let entries = state.withLock { state -> [Entry] in
      state.finished = true
      return state.order.compactMap { state.entries[$0] }
    }
    var counted: [String] = []
    for entry in entries {
      if !entry.recorded {
        entry.site.record(count: entry.count, severity: .error, near: test.sourceLocation)
      } else if entry.count > 1 {
        let site = entry.site
        counted.append(
          "\(site.kind.code) at \(site.fileID):\(site.line)"
            + (site.writer.map { ", written at \($0)" } ?? "") + ": \(entry.count) misuses")
      }
    }
    guard !counted.isEmpty, let first = entries.first(where: { $0.recorded && $0.count > 1 })
    else { return }
    Issue.record(
      Comment(rawValue: "Binding misuses counted: " + counted.joined(separator: "; ")),
      severity: .warning, sourceLocation: first.site.sourceLocation(near: test.sourceLocation))
  }
}
