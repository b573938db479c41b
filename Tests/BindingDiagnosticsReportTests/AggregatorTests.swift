import BindingDiagnostics
import BindingDiagnosticsReport
import Testing

@Suite struct AggregatorTests {
  /// Random records with suppression, duplicates and gaps; totals computed here independently.
  @Test func totalsMatchAnIndependentCount() {
    var random = SeededGenerator(seed: 10)
    var aggregator = Aggregator()
    var expectedEvents: [String: Int] = [:]
    var expectedRecords: [String: Int] = [:]
    var seen: Set<String> = []
    var duplicates = 0
    var maxSeq: [String: Int] = [:]
    var distinct: [String: Int] = [:]
    let runs = (0..<5).map { _ in format16(random.next()) }
    for _ in 0..<5000 {
      let run = runs.randomElement(using: &random)!
      let seq = Int.random(in: 1...1500, using: &random)
      let event = randomEvent(&random, seq: seq, run: run)
      aggregator.add(event)
      let identity = "\(run)/\(seq)"
      if seen.contains(identity) {
        duplicates += 1
        continue
      }
      seen.insert(identity)
      distinct[run, default: 0] += 1
      maxSeq[run] = max(maxSeq[run] ?? 0, seq)
      let key = "\(event.kind.code)|\(event.file)|\(event.line)"
      expectedEvents[key, default: 0] += 1 + event.suppressed
      expectedRecords[key, default: 0] += 1
    }
    let summary = aggregator.summary()
    #expect(summary.duplicates == duplicates)
    #expect(summary.records == expectedRecords.values.reduce(0, +))
    #expect(summary.events == expectedEvents.values.reduce(0, +))
    // A run starts at 1: every seq up to the highest seen that was not seen is lost.
    let expectedLost = runs.reduce(0) { total, run in
      guard let high = maxSeq[run] else { return total }
      return total + (high - distinct[run]!)
    }
    #expect(summary.lost == expectedLost)
    #expect(summary.lostRuns.reduce(0) { $0 + $1.lost } == expectedLost)
    for group in summary.groups {
      let key = group.key.map(\.description).joined(separator: "|")
      #expect(group.events == expectedEvents[key])
      #expect(group.records == expectedRecords[key])
    }
    #expect(summary.groups.count == expectedEvents.count)
    // Sorted by events descending, then key ascending.
    for (a, b) in zip(summary.groups, summary.groups.dropFirst()) {
      #expect(
        a.events > b.events || (a.events == b.events && a.key.lexicographicallyPrecedes(b.key)))
    }
  }

  @Test func suppressedCountsAsEvents() {
    var aggregator = Aggregator()
    var event = sampleEvent()
    event.suppressed = 41
    aggregator.add(event)
    event.seq = 8
    event.suppressed = 0
    aggregator.add(event)
    let summary = aggregator.summary()
    #expect(summary.events == 43)
    #expect(summary.records == 2)
    #expect(summary.groups.first?.levels == [.error: 43])
  }

  @Test func gapsAreLostAndRepeatsAreDuplicates() {
    var aggregator = Aggregator()
    for seq in [1, 2, 3, 7, 3, 10, 1] {
      var event = sampleEvent()
      event.seq = seq
      aggregator.add(event)
    }
    let summary = aggregator.summary()
    #expect(summary.records == 5)
    #expect(summary.duplicates == 2)
    #expect(summary.lost == 5)  // 4, 5, 6, 8, 9
    #expect(summary.lostRuns.map(\.run) == ["0123456789abcdef"])
    #expect(summary.lostRuns.map(\.lost) == [5])
  }

  @Test func filtersApply() throws {
    var random = SeededGenerator(seed: 11)
    let events = (1...3000).map { randomEvent(&random, seq: $0, run: "00000000000000aa") }
    var filter = EventFilter()
    filter.since = Timestamp(microsecondsSinceEpoch: 1_796_000_000_000_000 + 20_000_000_000)
    filter.until = Timestamp(microsecondsSinceEpoch: 1_796_000_000_000_000 + 60_000_000_000)
    filter.kinds = ["mapped-bool-set-true", "unwrapped-write-after-nil"]
    filter.fileSubstring = "App/"
    filter.process = "Demo"
    filter.host = "h2"
    filter.minimumLevel = .warning
    var aggregator = Aggregator(filter: filter)
    for event in events { aggregator.add(event) }
    let expected = events.filter {
      $0.timestamp >= filter.since! && $0.timestamp <= filter.until!
        && ["mapped-bool-set-true", "unwrapped-write-after-nil"].contains($0.kind.code)
        && $0.file.contains("App/") && $0.process == "Demo" && $0.host == "h2"
        && $0.level >= .warning
    }
    let summary = aggregator.summary()
    #expect(!expected.isEmpty)
    #expect(summary.records == expected.count)
    #expect(summary.events == expected.reduce(0) { $0 + 1 + $1.suppressed })
    // Filtering is not loss: every seq of the run was seen.
    #expect(summary.lost == 0)
  }

  @Test func groupByKindAndHost() throws {
    var random = SeededGenerator(seed: 12)
    let fields = try GroupField.parseList("kind,host").get()
    #expect(fields == [.kind, .host])
    var aggregator = Aggregator(groupBy: fields)
    var expected: [String: Int] = [:]
    for seq in 1...500 {
      let event = randomEvent(&random, seq: seq, run: "00000000000000bb")
      aggregator.add(event)
      expected["\(event.kind.code)|\(event.host)", default: 0] += event.events
    }
    let summary = aggregator.summary()
    #expect(
      Dictionary(
        uniqueKeysWithValues: summary.groups.map {
          ($0.key.map(\.description).joined(separator: "|"), $0.events)
        })
        == expected)
  }

  /// Issue 11: every output is a function of the records, not of their order, even past the
  /// 64 processes and hosts a group keeps and with times over the whole contract range.
  @Test func everyOutputIsTheSameForAnyOrderOfTheSameRecords() {
    var random = SeededGenerator(seed: 13)
    let runs = (0..<3).map { _ in format16(random.next()) }
    var events: [MisuseEvent] = []
    for index in 0..<3000 {
      var event = randomEvent(&random, seq: index / 3 + 1 + index % 3 * 7, run: runs[index % 3])
      event.process = "app-\(Int.random(in: 0..<100, using: &random))"
      event.host = "host-\(Int.random(in: 0..<100, using: &random))"
      events.append(event)
      // An exact repeat now and then: a duplicate, whichever copy comes first.
      if index % 50 == 0 { events.append(event) }
    }
    func rendered(_ events: [MisuseEvent]) -> [String] {
      var aggregator = Aggregator(groupBy: [.kind])
      for event in events { aggregator.add(event) }
      let summary = aggregator.summary()
      #expect(summary.groups.allSatisfy { $0.processes.count == 64 && $0.hosts.count == 64 })
      return [
        JSONRenderer().render(summary), TableRenderer().render(summary),
        MarkdownRenderer().render(summary), CSVRenderer().render(summary),
        summary.groups.map { "\($0.histogram)" }.joined(),
      ]
    }
    let expected = rendered(events)
    #expect(rendered(events.reversed()) == expected)
    for _ in 0..<5 {
      #expect(rendered(events.shuffled(using: &random)) == expected)
    }
  }

  /// Any `Int64` time, in any order, after any other: counted, binned, never a trap.
  @Test(arguments: [
    [Int64.min, Int64.max], [Int64.max, Int64.min, 0], [1_796_000_000_000_000, -1, Int64.min + 1],
    [-62_167_219_200_000_000, 253_402_300_799_999_999, -1, 0, 1],
    [0, -1], [-1, 0], [5, 5, 5],
  ])
  func extremeTimesInAnyOrderAreBinnedTheSame(times: [Int64]) {
    func histogram(_ times: [Int64]) -> [Int] {
      var aggregator = Aggregator()
      for (index, time) in times.enumerated() {
        var event = sampleEvent()
        event.seq = index + 1
        event.timestamp = Timestamp(microsecondsSinceEpoch: time)
        aggregator.add(event)
      }
      return aggregator.summary().groups[0].histogram
    }
    let expected = histogram(times)
    #expect(expected.reduce(0, +) == times.count)
    #expect(expected.first != 0)
    #expect(histogram(times.reversed()) == expected)
    #expect(histogram(times.sorted()) == expected)
  }

  @Test func groupFieldListsParse() throws {
    #expect(try GroupField.parseList("site").get() == [.kind, .file, .line])
    #expect(try GroupField.parseList("type,site,kind").get() == [.valueType, .kind, .file, .line])
    #expect(throws: MalformedReason.self) { try GroupField.parseList("colour").get() }
  }

  @Test func emptyInputHasNoFirstOrLast() {
    let summary = Aggregator().summary()
    #expect(summary.first == nil && summary.last == nil)
    #expect(summary.groups.isEmpty)
    #expect(
      JSONRenderer().render(summary)
        == #"{"schema":1,"events":0,"records":0,"malformed":0,"other":0,"lost":0,"duplicates":0,"runs":{"ended":0,"running":0,"stale":0},"run_dropped":0,"first":null,"last":null,"group_by":["kind","file","line"],"groups":[],"lost_runs":[],"stale_runs":[],"run_fields":["host"],"run_groups":[]}"#
        + "\n")
  }
}
