import BindingDiagnostics
import Testing

/// The sink of one test's ``FailsOnMisuseTrait`` pipeline: each call site the test misuses
/// becomes one issue of that test, at the mapping's call site.
///
/// An issue is recorded at the site's first misuse, on the misusing task: that task runs the test
/// (or a child task of it), so `Test.current` is this test and a surrounding `withKnownIssue`
/// applies. A misuse arriving where `Test.current` is not this test (a thread outside the test's
/// task tree that installed this pipeline with `withDiagnostics`) is recorded when the test ends,
/// with its count. A site misused more than once also gets a warning with the total when the test
/// ends, since the first issue could not know it.
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
  private let allowed: Set<String>
  private let relay: Diagnostics?
  private let state = Lock(State())

  /// A recorder for `test` that ignores the kinds in `allowed` (by code) and hands every event
  /// to `relay`'s sinks, naming the test.
  init(test: Test, except allowed: Set<String>, relayingTo relay: Diagnostics?) {
    self.test = test
    self.allowed = allowed
    self.relay = relay
  }

  /// Hands the event to the process's sinks, counts its site, and records its issue now if it
  /// is the site's first misuse on this test's task tree.
  func receive(_ event: MisuseEvent) {
    relay?.relay(event, test: test.qualifiedName)
    guard !allowed.contains(event.kind.code) else { return }
    let onTestTask = Test.current?.id == test.id
    let site = MisuseSite(event)
    let recordNow = state.withLock { state -> Bool in
      guard !state.finished else { return false }
      let key = site.key
      if state.entries[key] == nil {
        state.order.append(key)
        state.entries[key] = Entry(site: site, count: 0, recorded: false)
      }
      state.entries[key]!.count += event.events
      guard onTestTask, !state.entries[key]!.recorded else { return false }
      state.entries[key]!.recorded = true
      return true
    }
    if recordNow { site.record(count: nil, severity: .error, near: test.sourceLocation) }
  }

  /// Records what the test's end still owes: an issue for each site first misused off the test's
  /// task tree, and a warning with the total for each site misused more than once. Misuses after
  /// this are ignored: the test is over.
  func finish() {
    let entries = state.withLock { state -> [Entry] in
      state.finished = true
      return state.order.compactMap { state.entries[$0] }
    }
    for entry in entries {
      if !entry.recorded {
        entry.site.record(count: entry.count, severity: .error, near: test.sourceLocation)
      } else if entry.count > 1 {
        entry.site.record(count: entry.count, severity: .warning, near: test.sourceLocation)
      }
    }
  }
}
