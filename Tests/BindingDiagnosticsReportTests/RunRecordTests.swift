import BindingDiagnostics
import BindingDiagnosticsReport
import Testing

/// 2026-11-30T04:00:00Z plus `seconds`.
private func time(_ seconds: Int64) -> Timestamp {
  Timestamp(microsecondsSinceEpoch: 1_796_011_200_000_000 + seconds * 1_000_000)
}

/// A misuse record of `run`, `seconds` after 04:00.
private func misuse(
  _ seq: Int, at seconds: Int64, run: String, host: String = "h1", process: String = "Demo"
) -> MisuseEvent {
  var event = sampleEvent()
  event.timestamp = time(seconds)
  event.seq = seq
  event.run = run
  event.host = host
  event.process = process
  return event
}

/// A run record (`run-heartbeat` or `run-end`) as the sinks write one: the run's next `seq`,
/// `run_records` the highest handed out before it (`records`, `seq - 1` unless given).
private func runRecord(
  _ kind: MisuseKind, _ seq: Int, at seconds: Int64, run: String, records: Int? = nil,
  dropped: Int = 0, host: String = "h1", process: String = "Demo"
) -> MisuseEvent {
  var event = misuse(seq, at: seconds, run: run, host: host, process: process)
  event.kind = kind
  event.level = .debug
  event.message = kind == .runEnd ? "The run ended." : "The run is alive."
  event.file = "-"
  event.line = 0
  event.function = "-"
  event.valueType = "-"
  event.valuePresent = false
  event.value = nil
  event.runRecords = records ?? seq - 1
  event.runEvents = seq - 1
  event.runDropped = dropped
  return event
}

private func summary(
  _ events: [MisuseEvent], filter: EventFilter = EventFilter(),
  groupBy: [GroupField] = [.kind, .file, .line], now: Timestamp? = nil
) -> Summary {
  var aggregator = Aggregator(groupBy: groupBy, filter: filter)
  aggregator.staleReference = now
  for event in events { aggregator.add(event) }
  return aggregator.summary()
}

@Suite struct RunRecordTests {
  @Test func runRecordsAreNeitherEventsNorGroups() {
    let run = "00000000000000a1"
    let result = summary([
      misuse(1, at: 0, run: run), runRecord(.runHeartbeat, 2, at: 60, run: run),
      misuse(3, at: 70, run: run), runRecord(.runEnd, 4, at: 80, run: run),
    ])
    #expect(result.events == 2)
    #expect(result.records == 2)
    #expect(result.groups.map(\.events) == [2])
    #expect(result.groups.map { $0.key.first } == [.text(MisuseKind.mappedBoolSetTrue.code)])
    #expect(result.last == time(70))
    #expect(result.lost == 0)
    #expect(result.runStates == Summary.RunStates(ended: 1, running: 0, stale: 0))
  }

  /// Records queued at exit and never written: the run-end's `seq` (and its `run_records`)
  /// shows them, though no misuse record follows them.
  @Test func aLostTailIsCountedFromTheRunEnd() {
    let run = "00000000000000a2"
    let result = summary([
      misuse(1, at: 0, run: run, host: "web-07"), misuse(2, at: 1, run: run, host: "web-07"),
      misuse(3, at: 2, run: run, host: "web-07"),
      runRecord(.runEnd, 3001, at: 3, run: run, dropped: 2275, host: "web-07"),
    ])
    #expect(result.lost == 2997)
    #expect(result.lostRuns.count == 1)
    #expect(result.lostRuns.first?.host == "web-07")
    #expect(result.lostRuns.first?.tail == 2997)
    #expect(result.lostRuns.first?.dropped == 2275)
    #expect(result.runDropped == 2275)
    #expect(result.runStates.ended == 1)
  }

  /// The highest `seq` is the larger of the highest read and the last `run_records` declared.
  @Test func runRecordsDeclaredBeyondTheirSeqCount() {
    let run = "00000000000000a3"
    let result = summary([
      misuse(1, at: 0, run: run), misuse(2, at: 1, run: run),
      runRecord(.runEnd, 3, at: 2, run: run, records: 6),
    ])
    // 4, 5 and 6 were handed out and never read.
    #expect(result.lost == 3)
    #expect(result.lostRuns.first?.tail == 3)
  }

  /// Judged against the input's newest record (04:16:40 here), or against `now`.
  @Test func runsAreEndedRunningOrStale() {
    let ended = "00000000000000b1"
    let slowHeartbeats = "00000000000000b2"
    let newest = "00000000000000b3"
    let silent = "00000000000000b4"
    let oneHeartbeat = "00000000000000b5"
    let noHeartbeat = "00000000000000b6"
    let events = [
      misuse(1, at: 0, run: ended), runRecord(.runEnd, 2, at: 10, run: ended),
      // Heartbeats every 300 s: 100 s of silence is running.
      misuse(1, at: 0, run: slowHeartbeats),
      runRecord(.runHeartbeat, 2, at: 300, run: slowHeartbeats),
      runRecord(.runHeartbeat, 3, at: 600, run: slowHeartbeats),
      runRecord(.runHeartbeat, 4, at: 900, run: slowHeartbeats),
      misuse(1, at: 1000, run: newest, host: "h2"),
      // Heartbeats every 60 s, then 880 s of silence: stale.
      misuse(1, at: 0, run: silent, host: "h3"),
      runRecord(.runHeartbeat, 2, at: 60, run: silent, host: "h3"),
      runRecord(.runHeartbeat, 3, at: 120, run: silent, host: "h3"),
      // One heartbeat 500 s after the first misuse: an interval of 500 s.
      misuse(1, at: 0, run: oneHeartbeat), runRecord(.runHeartbeat, 2, at: 500, run: oneHeartbeat),
      // No heartbeat: the default 60 s, and 200 s of silence.
      misuse(1, at: 800, run: noHeartbeat, host: "h4"),
    ]
    let result = summary(events)
    #expect(result.runStates == Summary.RunStates(ended: 1, running: 3, stale: 2))
    #expect(
      result.staleRuns == [
        Summary.StaleRun(run: noHeartbeat, process: "Demo", host: "h4", last: time(800)),
        Summary.StaleRun(run: silent, process: "Demo", host: "h3", last: time(120)),
      ])
    let later = summary(events, now: time(10_000))
    #expect(later.runStates == Summary.RunStates(ended: 1, running: 0, stale: 5))
  }

  /// The operator's case: runs before, inside, across and after a window. Only what lies
  /// inside it counts: gaps between a run's first and last record inside, and the tail when
  /// its run-end is inside.
  @Test func aWindowBlamesOnlyWhatIsInsideIt() {
    let before = "00000000000000c1"
    let inside = "00000000000000c2"
    let after = "00000000000000c3"
    let across = "00000000000000c4"
    let events = [
      misuse(1, at: 0, run: before), misuse(2, at: 10, run: before), misuse(4, at: 30, run: before),
      runRecord(.runEnd, 5, at: 60, run: before),
      misuse(1, at: 110, run: inside), misuse(2, at: 120, run: inside),
      misuse(4, at: 130, run: inside), runRecord(.runEnd, 6, at: 150, run: inside, host: "h1"),
      misuse(1, at: 300, run: after, host: "h9"), misuse(5, at: 310, run: after, host: "h9"),
      misuse(1, at: 50, run: across), misuse(3, at: 80, run: across),
      misuse(4, at: 120, run: across), misuse(6, at: 150, run: across),
      misuse(8, at: 250, run: across), runRecord(.runEnd, 9, at: 260, run: across),
    ]
    var filter = EventFilter()
    filter.since = time(100)
    filter.until = time(200)
    let window = summary(events, filter: filter)
    #expect(window.runs == 2)
    #expect(window.lost == 3)
    #expect(
      window.lostRuns.map { [$0.run, String($0.lost), String($0.tail)] } == [
        [inside, "2", "1"], [across, "1", "0"],
      ])
    #expect(!window.lostRuns.contains { $0.run == after || $0.run == before })
    // Without a window every run counts whole: 1 + 2 + 3 + 3.
    let whole = summary(events)
    #expect(whole.runs == 4)
    #expect(whole.lost == 9)
    // Until alone: everything before it is inside, a lost head included.
    var untilOnly = EventFilter()
    untilOnly.until = time(200)
    #expect(summary([misuse(3, at: 100, run: inside)], filter: untilOnly).lost == 2)
  }

  @Test func groupsByHostAndProcessCarryTheirLost() throws {
    let events = [
      misuse(1, at: 0, run: "00000000000000d1", host: "web-01"),
      misuse(4, at: 1, run: "00000000000000d1", host: "web-01"),
      misuse(1, at: 0, run: "00000000000000d2", host: "web-02", process: "Other"),
      misuse(2, at: 1, run: "00000000000000d2", host: "web-02", process: "Other"),
      misuse(2, at: 1, run: "00000000000000d3", host: "web-02"),
    ]
    let byHost = summary(events, groupBy: [.host])
    #expect(
      byHost.groups.map { [$0.key[0].description, String($0.lost ?? -1)] } == [
        ["web-02", "1"], ["web-01", "2"],
      ])
    let byProcess = summary(events, groupBy: [.process, .host])
    #expect(
      byProcess.groups.map { $0.key.map(\.description) + [String($0.lost ?? -1)] } == [
        ["Demo", "web-01", "2"], ["Other", "web-02", "0"], ["Demo", "web-02", "1"],
      ])
    #expect(byProcess.runFields == [.process, .host])
    #expect(
      byProcess.runGroups.map(\.key) == [
        ["Demo", "web-01"], ["Demo", "web-02"], ["Other", "web-02"],
      ])
    #expect(byProcess.runGroups.map(\.lost) == [2, 1, 0])
    // A site is not a run's: its groups carry no lost.
    #expect(summary(events).groups.allSatisfy { $0.lost == nil })
    #expect(summary(events).lostRuns.map(\.host) == ["web-01", "web-02"])
  }
}
