import BindingDiagnostics

// The summary of what was aggregated: groups, runs and their losses, and whether each run is
// running, ended or stale.
extension Aggregator {
  /// A run's heartbeat interval (µs), as its records show it: the mean gap between its
  /// heartbeats when two or more were read (a lost one lengthens it, never shortens it);
  /// with one, the time from its `seq` 1 to it (the first heartbeat comes one interval after
  /// the first misuse) when that is longer than the default; else the sinks' default, 60 s.
  static func interval(of run: RunState) -> Int64 {
    if run.heartbeats >= 2, run.lastHeartbeat > run.firstHeartbeat {
      return (run.lastHeartbeat - run.firstHeartbeat) / Int64(run.heartbeats - 1)
    }
    if run.heartbeats == 1, let start = run.start, run.firstHeartbeat > start {
      return max(defaultHeartbeatInterval, run.firstHeartbeat - start)
    }
    return defaultHeartbeatInterval
  }

  /// Where run `state` stands against `reference` (µs).
  static func state(of run: RunState, reference: Int64) -> Summary.RunState {
    if run.ended { return .ended }
    let (limit, overflow) = interval(of: run).multipliedReportingOverflow(by: 2)
    if overflow { return .running }
    let (silence, past) = reference.subtractingReportingOverflow(run.last)
    return !past && silence > limit ? .stale : .running
  }

  /// The summary of everything added so far.
  ///
  /// A run counts when a record of it is inside the window and it has the filter's host and
  /// process. Its lost records are the `seq`s never read from its first record inside the
  /// window (from 1 without `--since`) to its last, or to the `run_records` of its last run
  /// record inside the window when that is higher: a window never blames a run for what lies
  /// outside it.
  package func summary() -> Summary {
    var first: Int64?
    var last: Int64?
    for state in groups.states where state.records > 0 {
      first = min(first ?? state.first, state.first)
      last = max(last ?? state.last, state.last)
    }
    let reference = staleReference?.microsecondsSinceEpoch ?? windowNewest
    let runLevel = !groupBy.isEmpty && groupBy.allSatisfy { $0 == .host || $0 == .process }
    var groupLost: [SIMD16<Int64>: Int] = [:]
    var runFields = groupBy.filter { $0 == .host || $0 == .process }
    if !runFields.contains(.host) { runFields.append(.host) }
    var runGroups: [[UInt32]: Summary.RunGroup] = [:]
    var lostRuns: [Summary.LostRun] = []
    var staleRuns: [Summary.StaleRun] = []
    var states = Summary.RunStates()
    var lost = 0
    var otherUsersLost = 0
    var dropped = 0
    var selectedRuns = 0
    func adding(_ total: Int, _ more: Int) -> Int {
      // Each run's count is below 2^53; only a hostile input of many runs could overflow a
      // sum, which then stays at the largest value.
      let (sum, overflow) = total.addingReportingOverflow(more)
      return overflow ? Int.max : sum
    }
    for (index, run) in runs.enumerated() where run.selected && run.inWindow {
      selectedRuns += 1
      let low = filter.since == nil ? 1 : run.windowLow
      let high = max(run.windowHigh, run.declared)
      let missing = run.seqs.missing(in: low...high)
      // After the last misuse record read and after the first record seen, so that a run read
      // only through its run records has its missing `seq`s in its head, not in both.
      let afterMisuse = max(run.misuseHigh + 1, low, run.windowLow)
      let tail = afterMisuse <= high ? run.seqs.missing(in: afterMisuse...high) : 0
      let state = Aggregator.state(of: run, reference: reference)
      states[state] += 1
      if run.otherUser {
        // Another local user's run: its losses are shown apart and never decide the gate.
        otherUsersLost = adding(otherUsersLost, missing)
        continue
      }
      lost = adding(lost, missing)
      dropped = adding(dropped, run.dropped)
      if missing > 0 {
        lostRuns.append(
          Summary.LostRun(
            run: strings.string(runIDs[index]), process: strings.string(run.process),
            lost: missing, head: low == 1 ? min(run.seqs.head, missing) : 0,
            host: strings.string(run.host), tail: tail, dropped: run.dropped))
      }
      if state == .stale {
        staleRuns.append(
          Summary.StaleRun(
            run: strings.string(runIDs[index]), process: strings.string(run.process),
            host: strings.string(run.host), last: Timestamp(microsecondsSinceEpoch: run.last)))
      }
      let ids = runFields.map { $0 == .host ? run.host : run.process }
      var group = runGroups[ids] ?? Summary.RunGroup(key: ids.map(strings.string))
      group.lost = adding(group.lost, missing)
      group.dropped = adding(group.dropped, run.dropped)
      group.states[state] += 1
      let time = Timestamp(microsecondsSinceEpoch: run.last)
      group.last = max(group.last ?? time, time)
      runGroups[ids] = group
      if runLevel {
        var lanes = SIMD16<Int64>.zero
        for (position, field) in groupBy.enumerated() {
          lanes[position] = Int64(field == .host ? run.host : run.process)
        }
        groupLost[lanes] = adding(groupLost[lanes] ?? 0, missing)
      }
    }
    let built = Summary.Groups(
      table: groups, strings: strings, fields: groupBy, start: first ?? 0, end: last ?? 0,
      lost: runLevel ? groupLost : nil)
    lostRuns.sort { $0.lost != $1.lost ? $0.lost > $1.lost : $0.run < $1.run }
    staleRuns.sort { $0.last != $1.last ? $0.last > $1.last : $0.run < $1.run }
    var summary = Summary(
      groupBy: groupBy, events: events, records: records, malformed: malformed, other: other,
      lost: lost, duplicates: duplicates,
      first: first.map { Timestamp(microsecondsSinceEpoch: $0) },
      last: last.map { Timestamp(microsecondsSinceEpoch: $0) }, groups: built,
      lostRuns: lostRuns, runs: selectedRuns, forged: forged, otherUsersLost: otherUsersLost)
    summary.runStates = states
    summary.staleRuns = staleRuns
    summary.runDropped = dropped
    summary.runFields = runFields
    summary.runGroups = runGroups.values.sorted { $0.key.lexicographicallyPrecedes($1.key) }
    summary.newest =
      staleReference ?? (newest == Int64.min ? nil : Timestamp(microsecondsSinceEpoch: newest))
    return summary
  }
}
