import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// The fleet of ``FleetTests`` (three hosts, each its own journald, an app writing through the
/// journald sink and an uploader; one `systemd-journal-remote` collector), healthy and then with
/// one fault each: an uploader killed, a journald stopped, an app that exits with records
/// queued, a collector whose disk fills. For each, `bindiag summary` on the collector names
/// the hosts and runs affected, the operator's `bindiag check` fails, and `--format prometheus`
/// says the same numbers as `--format json`; the healthy fleet passes, every run ended.
@Suite(
  .serialized, .enabled(if: Fleet.missing == nil, Comment(rawValue: Fleet.missing ?? "")),
  .enabled(
    if: prometheusClientAvailable,
    "Python prometheus_client not installed (pip install prometheus-client)"))
struct FleetFaultTests {
  /// The apps' heartbeat interval (seconds): short, so a silent run is stale within seconds.
  static let interval = 0.5
  /// The apps' settings for that interval.
  static let heartbeat = ["BINDING_DIAGNOSTICS_HEARTBEAT_INTERVAL": "0.5"]

  /// The operator's gate on the collector: no record lost, no run gone silent. The apps misuse
  /// on purpose, so misuses themselves are let through. `--live`: the collector's directory is
  /// still being written, so a run is judged silent against now, not against the newest record
  /// that reached the collector (see ``aFullCollectorDiskLeavesEveryRunStale()``).
  static let gate = ["--live", "--max-events", "100000", "--max-lost", "0", "--max-stale", "0"]

  /// Starts the fleet's three hosts, each app pausing once and then misusing 5 more times,
  /// unless `shapes` says otherwise for a host, and waits until each has paused once.
  func start(
    _ fleet: Fleet, shapes: [String: (pauses: Int, more: Int)] = [:],
    environment: [String: [String: String]] = [:]
  ) throws {
    for (host, count) in FleetTests.misuses.sorted(by: { $0.key < $1.key }) {
      let shape = shapes[host] ?? (1, 5)
      try fleet.addHost(
        host, misuses: count, pauses: shape.0, more: shape.1,
        environment: Self.heartbeat.merging(environment[host] ?? [:]) { $1 })
    }
    for host in FleetTests.misuses.keys.sorted() { try fleet.waitForApp(host, saying: "paused") }
  }

  /// The entries of `host` the collector holds (`journalctl -D`), optionally of one kind.
  func collected(_ fleet: Fleet, _ host: String, kind: String? = nil) throws -> [[String: Any]] {
    let output = try runProduct(
      "/usr/bin/env",
      [
        "journalctl", "--no-pager", "--all", "-o", "json", "-D", fleet.central,
        "BINDING_SCHEMA=1", "_HOSTNAME=\(host)",
      ] + (kind.map { ["BINDING_KIND=\($0)"] } ?? []))
    return output.stdout.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
    }
  }

  /// The one run of `host`'s app, as the collector has it.
  func run(_ fleet: Fleet, _ host: String) throws -> String {
    let runs = Set(try collected(fleet, host).compactMap { $0["BINDING_RUN"] as? String })
    #expect(runs.count == 1, "\(host): \(runs)")
    return try #require(runs.first)
  }

  /// Waits (bounded) until the collector holds two heartbeats of `host` (its interval is then
  /// known from its own records) and all its `misuses`.
  func waitForHeartbeats(_ fleet: Fleet, _ host: String) throws {
    let arrived = try fleet.waitUntil(seconds: 30) {
      try collected(fleet, host, kind: "run-heartbeat").count >= 2
        && collected(fleet, host, kind: "mapped-bool-set-true").count
          >= FleetTests.misuses[host]!
    }
    #expect(arrived, "\(host): \(fleet.file(host, "upload.log"))")
  }

  /// Waits (bounded) until `bindiag` reads `ended` ended runs on the collector.
  func waitForEndedRuns(_ fleet: Fleet, _ ended: Int) throws {
    var runs = ""
    let arrived = try fleet.waitUntil(seconds: 30) {
      let object = try summary([fleet.central])
      runs = "\(object["runs"] ?? "")"
      return (object["runs"] as? [String: Int])?["ended"] == ended
    }
    #expect(arrived, "runs \(runs); \(fleet.log("remote.log"))")
  }

  /// Waits until the newest record of `host` on the collector is older than three of its
  /// heartbeat intervals (over the two that make a run stale), the interval measured as
  /// `bindiag` does, from the heartbeats the collector holds (a loaded machine spaces them
  /// out); returns the record's time.
  func waitPastSilence(_ fleet: Fleet, _ host: String) throws -> String {
    let group = try #require(
      (try summary([fleet.central])["run_groups"] as? [[String: Any]])?.first {
        ($0["key"] as? [String: String])?["host"] == host
      })
    let last = try #require(group["last"] as? String)
    let time = try #require(Timestamp(rfc3339: last))
    let beats = try collected(fleet, host, kind: "run-heartbeat").compactMap {
      ($0["BINDING_TS"] as? String).flatMap(Timestamp.init(rfc3339:))?.microsecondsSinceEpoch
    }.sorted()
    var interval = Self.interval
    if beats.count >= 2, let first = beats.first, let newest = beats.last {
      interval = max(interval, Double(newest - first) / Double(beats.count - 1) / 1_000_000)
    }
    let silentUntil = Double(time.microsecondsSinceEpoch) / 1_000_000 + 3 * interval + 0.5
    _ = fleet.waitUntil(seconds: 30) { Date().timeIntervalSince1970 > silentUntil }
    return last
  }

  /// `bindiag summary --live --group-by host --format json` on `inputs` (a journal directory
  /// first).
  func summary(_ inputs: [String], live: Bool = true) throws -> [String: Any] {
    let result = try bindiag(
      arguments: ["summary", "--journal-dir"] + inputs + (live ? ["--live"] : [])
        + ["--group-by", "host", "--format", "json"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr == "")
    return try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
  }

  /// The operator's `bindiag check` on `inputs`.
  func check(_ inputs: [String]) throws -> ProcessOutput {
    try bindiag(arguments: ["check", "--journal-dir"] + inputs + Self.gate)
  }

  /// `"lost=N runs=E/R/S"`, and each lost and stale run, for exact comparisons.
  func runs(_ object: [String: Any]) -> [String] {
    let states = (object["runs"] as? [String: Int]) ?? [:]
    var lines = [
      "lost=\(object["lost"] as? Int ?? -1) dropped=\(object["run_dropped"] as? Int ?? -1)"
        + " runs=\(states["ended"] ?? -1)/\(states["running"] ?? -1)/\(states["stale"] ?? -1)"
    ]
    for run in (object["lost_runs"] as? [[String: Any]]) ?? [] {
      lines.append(
        "lost \(run["host"] as? String ?? "-") \(run["run"] as? String ?? "-")"
          + " \(run["process"] as? String ?? "-") lost=\(run["lost"] as? Int ?? -1)"
          + " head=\(run["head"] as? Int ?? -1) tail=\(run["tail"] as? Int ?? -1)"
          + " dropped=\(run["dropped"] as? Int ?? -1)")
    }
    for run in (object["stale_runs"] as? [[String: Any]]) ?? [] {
      lines.append(
        "stale \(run["host"] as? String ?? "-") \(run["run"] as? String ?? "-")"
          + " \(run["process"] as? String ?? "-") last=\(run["last"] as? String ?? "-")")
    }
    return lines
  }

  /// The per-host runs of `object`: `"host lost=N dropped=N runs=E/R/S"`.
  func hosts(_ object: [String: Any]) -> [String] {
    ((object["run_groups"] as? [[String: Any]]) ?? []).map { group in
      let states = (group["runs"] as? [String: Int]) ?? [:]
      return "\((group["key"] as? [String: String])?["host"] ?? "-")"
        + " lost=\(group["lost"] as? Int ?? -1) dropped=\(group["dropped"] as? Int ?? -1)"
        + " runs=\(states["ended"] ?? -1)/\(states["running"] ?? -1)/\(states["stale"] ?? -1)"
    }
  }

  /// `--format prometheus` on `inputs`, read by the Prometheus project's parser: every number
  /// equals `--format json`'s; returns the samples as `NAME{label=value,…} VALUE` lines.
  @discardableResult
  func expectPrometheusMatches(_ inputs: [String]) throws -> [String] {
    let arguments =
      ["summary", "--journal-dir"] + inputs + ["--live", "--group-by", "host", "--format"]
    let exposition = try bindiag(arguments: arguments + ["prometheus"])
    #expect(exposition.status == 0)
    #expect(exposition.stderr == "")
    let json = try summary(inputs)
    let file = try temporaryFile(exposition.stdout, name: "bindiag.prom")
    let read = try runProduct(
      "/usr/bin/timeout",
      ["60", executableInPath("python3")!, "-c", BindiagPrometheusTests.reader, file])
    #expect(read.stderr == "")
    #expect(read.status == 0)
    var samples: [String: [([String: String], Double)]] = [:]
    var lines: [String] = []
    for line in read.stdout.split(separator: "\n") {
      let sample = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any])
      let name = try #require(sample[0] as? String)
      let labels = try #require(sample[3] as? [String: String])
      let value = try #require(sample[4] as? Double)
      samples[name, default: []].append((labels, value))
      lines.append(
        name + "{"
          + labels.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
          .joined(separator: ",") + "} " + String(value))
    }
    let groups = try #require(json["groups"] as? [[String: Any]])
    #expect(samples["bindiag_events_total"]?.count == groups.count)
    for group in groups {
      let key = try #require(group["key"] as? [String: String])
      #expect(
        samples["bindiag_events_total"]?.first { $0.0 == key }?.1
          == Double(try #require(group["events"] as? Int)), "\(key)")
    }
    try BindiagPrometheusTests.expectRunGroups(samples, match: json)
    #expect(samples["bindiag_forged_entries_total"]?.map(\.1) == [0])
    return lines
  }

  /// The integer value of logfmt key `key` in `line`.
  static func number(_ key: String, in line: String) -> Int? {
    line.split(separator: " ").first { $0.hasPrefix(key + "=") }
      .flatMap { Int($0.dropFirst(key.count + 1)) }
  }

  /// All misuses of the fleet: each host's, and 5 more after its pause.
  static let healthyEvents = FleetTests.misuses.values.reduce(0, +) + 3 * 5

  // Every wait inside is bounded (30 s each, `Fleet.waitUntil`); the limit only stops a hang.
  // Under the whole suite on two cores this test's waits once added up past 2 minutes (209 s,
  // every expectation met), so the limit is 4.
  @Test(.timeLimit(.minutes(4)))
  func aHealthyFleetPassesWithEveryRunEnded() throws {
    let fleet = try Fleet(transport: .http(splitMode: "none"))
    defer { fleet.stop() }
    try start(fleet)
    for host in FleetTests.misuses.keys.sorted() { try waitForHeartbeats(fleet, host) }
    for host in FleetTests.misuses.keys.sorted() { try fleet.resume(host) }
    for host in FleetTests.misuses.keys.sorted() { #expect(try fleet.waitForAppExit(host) == 0) }
    try waitForEndedRuns(fleet, 3)
    fleet.stop()

    let object = try summary([fleet.central])
    #expect(object["events"] as? Int == Self.healthyEvents)
    #expect(runs(object) == ["lost=0 dropped=0 runs=3/0/0"])
    #expect(
      hosts(object) == [
        "host1 lost=0 dropped=0 runs=1/0/0", "host2 lost=0 dropped=0 runs=1/0/0",
        "host3 lost=0 dropped=0 runs=1/0/0",
      ])
    let gate = try check([fleet.central])
    #expect(gate.status == 0)
    #expect(
      gate.stderr
        == "check passed: \(Self.healthyEvents) events at warning and above (--max-events 100000), 0 lost records (--max-lost 0), 0 stale runs (--max-stale 0)\n"
    )
    let samples = try expectPrometheusMatches([fleet.central])
    #expect(samples.contains("bindiag_runs{host=host2,state=ended} 1.0"))
    // The machine's own journal never saw the fleet's entries.
    if FileManager.default.fileExists(atPath: "/run/systemd/journal/socket") {
      let local = try bindiag(arguments: [
        "summary", "--journal", "--run", try run(fleet, "host1"), "--format", "json",
      ])
      #expect(local.stdout.hasPrefix(#"{"schema":1,"events":0,"records":0,"#), "\(local.stdout)")
    }
  }

  /// host2's uploader is killed (`SIGKILL`) once two heartbeats arrived; its app then misuses 5
  /// more times and ends, none of which reaches the collector. The collector's view: host2's
  /// run never ended and went silent while the others went on, so it is stale, named with its
  /// host; nothing is lost that a reader could count.
  @Test(.timeLimit(.minutes(4)))
  func anUploaderKilledLeavesItsRunStale() throws {
    let fleet = try Fleet(transport: .http(splitMode: "none"))
    defer { fleet.stop() }
    try start(fleet)
    try waitForHeartbeats(fleet, "host2")
    try fleet.run("host2", "kill -KILL $upload_pid; wait $upload_pid || true")
    try fleet.resume("host2")
    #expect(try fleet.waitForAppExit("host2") == 0)
    // What host2 wrote that the collector never got: its last 5 misuses and its run-end.
    let local = try fleet.run(
      "host2", "journalctl --no-pager -o json BINDING_SCHEMA=1 BINDING_KIND=run-end | wc -l")
    #expect(local.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    let last = try waitPastSilence(fleet, "host2")
    for host in ["host1", "host3"] { try fleet.resume(host) }
    try waitForEndedRuns(fleet, 2)
    let host2Run = try run(fleet, "host2")
    fleet.stop()
    #expect(try collected(fleet, "host2", kind: "run-end").isEmpty)
    #expect(try collected(fleet, "host2", kind: "mapped-bool-set-true").count == 55)

    let object = try summary([fleet.central])
    #expect(
      runs(object) == [
        "lost=0 dropped=0 runs=2/0/1", "stale host2 \(host2Run) misuse-helper last=\(last)",
      ])
    #expect(
      hosts(object) == [
        "host1 lost=0 dropped=0 runs=1/0/0", "host2 lost=0 dropped=0 runs=0/0/1",
        "host3 lost=0 dropped=0 runs=1/0/0",
      ])
    let gate = try check([fleet.central])
    #expect(gate.status == 3)
    #expect(gate.stderr == "check failed: 1 stale run (--max-stale 0)\n")
    let samples = try expectPrometheusMatches([fleet.central])
    #expect(samples.contains("bindiag_runs{host=host2,state=stale} 1.0"))
  }

  /// host2's journald is stopped (`SIGTERM`: here journald holds its own socket, so sends are
  /// refused, as when it crashed) while its app misuses 10 times, then started again for 10
  /// more and the run's end. The collector's view: host2's run ended with a gap, every missing
  /// `seq` lost and named with host2's run; the app's standard error (the journald sink's
  /// fallback) holds those records, and read with the collector the run is whole (but for a
  /// heartbeat journald may have taken into its socket and never written as it stopped).
  @Test(.timeLimit(.minutes(4)))
  func aJournaldStoppedLosesWhatWentToTheFallback() throws {
    let fleet = try Fleet(transport: .http(splitMode: "none"))
    defer { fleet.stop() }
    try start(fleet, shapes: ["host2": (pauses: 2, more: 10)])
    try fleet.run("host2", "kill -TERM $journald_pid; wait $journald_pid || true")
    try fleet.resume("host2")
    try fleet.waitForApp("host2", saying: "paused", times: 2)
    try fleet.run("host2", "start_journald")
    try fleet.resume("host2")
    #expect(try fleet.waitForAppExit("host2") == 0)
    for host in ["host1", "host3"] { try fleet.resume(host) }
    try waitForEndedRuns(fleet, 3)
    let host2Run = try run(fleet, "host2")
    fleet.stop()

    // The fallback: every record the app could not give journald, in logfmt on standard error.
    let fallback = fleet.path("host2", "app.err")
    let fellBack = fleet.file("host2", "app.err").split(separator: "\n").filter {
      $0.hasPrefix("v=1 ") && $0.contains(" run=\(host2Run) ")
    }
    let fellBackSeqs = Set(fellBack.compactMap { Self.number("seq", in: String($0)) })
    #expect(fellBackSeqs.count == fellBack.count)
    // What the collector misses of host2's run, from journalctl: the records that fell back,
    // and a heartbeat journald took but never wrote when one was in its socket as it stopped
    // (the sink cannot know of it; the reader counts it lost all the same).
    let seen = Set(
      try collected(fleet, "host2").compactMap { Int($0["BINDING_SEQ"] as? String ?? "") })
    let missing = Set(1...(seen.max() ?? 0)).subtracting(seen)
    #expect(fellBackSeqs.isSubset(of: missing))
    #expect(missing.count - fellBackSeqs.count <= 1, "\(missing.sorted()) \(fellBackSeqs.sorted())")
    let errors = fleet.file("host2", "app.err").split(separator: "\n").filter {
      $0.hasPrefix("binding-diagnostics:")
    }
    #expect(
      errors == [
        "binding-diagnostics: journald send failed: sd_journal_sendv: Connection refused (errno 111); writing to the fallback sink",
        "binding-diagnostics: sink=journald fell_back=\(fellBack.count) action=\"recovered\"",
      ])
    #expect(fellBack.count >= 10)

    let object = try summary([fleet.central])
    #expect(
      runs(object) == [
        "lost=\(missing.count) dropped=0 runs=3/0/0",
        "lost host2 \(host2Run) misuse-helper lost=\(missing.count) head=0 tail=0 dropped=0",
      ])
    #expect(
      hosts(object) == [
        "host1 lost=0 dropped=0 runs=1/0/0", "host2 lost=\(missing.count) dropped=0 runs=1/0/0",
        "host3 lost=0 dropped=0 runs=1/0/0",
      ])
    let gate = try check([fleet.central])
    #expect(gate.status == 3)
    #expect(gate.stderr == "check failed: \(missing.count) lost records (--max-lost 0)\n")
    let samples = try expectPrometheusMatches([fleet.central])
    #expect(samples.contains("bindiag_lost_records_total{host=host2} \(Double(missing.count))"))

    // The collector and the fallback together: what fell back is found there, once.
    let whole = try summary([fleet.central, fallback])
    let unseen = missing.count - fellBackSeqs.count
    #expect(
      runs(whole)
        == ["lost=\(unseen) dropped=0 runs=3/0/0"]
        + (unseen == 0
          ? [] : ["lost host2 \(host2Run) misuse-helper lost=\(unseen) head=0 tail=0 dropped=0"]))
    #expect(whole["duplicates"] as? Int == 0)
    #expect(whole["events"] as? Int == Self.healthyEvents + 15)
    #expect(try check([fleet.central, fallback]).status == (unseen == 0 ? 0 : 3))
  }

  /// host2's app runs with a journald queue of 64 and an exit deadline of 0.4 s; its journald
  /// is stopped (`SIGSTOP`, a journald stuck) while the app misuses 500 times and exits, then
  /// continued. The collector's view: host2's run went silent without a `run-end` while the
  /// others went on: stale, named with host2. Its `run-end` went to the app's standard error
  /// (the fallback) with the run's last `seq`: read with the collector, the tail the app could
  /// not hand over is lost, named with host2's run, beside what the sink said it dropped.
  @Test(.timeLimit(.minutes(4)))
  func anAppThatExitsWithRecordsQueuedLosesItsTail() throws {
    let fleet = try Fleet(transport: .http(splitMode: "none"))
    defer { fleet.stop() }
    try start(
      fleet, shapes: ["host2": (pauses: 1, more: 500)],
      environment: [
        "host2": [
          "BINDING_DIAGNOSTICS_JOURNALD_QUEUE": "64", "BINDING_DIAGNOSTICS_EXIT_DEADLINE": "0.4",
        ]
      ])
    try waitForHeartbeats(fleet, "host2")
    try fleet.run("host2", "kill -STOP $journald_pid")
    try fleet.resume("host2")
    #expect(try fleet.waitForAppExit("host2") == 0)
    try fleet.run("host2", "kill -CONT $journald_pid")
    // Until the collector has all host2's journal holds.
    let local = {
      Int(
        try fleet.run("host2", "journalctl --no-pager -o json BINDING_SCHEMA=1 | wc -l")
          .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
    #expect(try fleet.waitUntil(seconds: 30) { try collected(fleet, "host2").count == local() })
    let last = try waitPastSilence(fleet, "host2")
    for host in ["host1", "host3"] { try fleet.resume(host) }
    try waitForEndedRuns(fleet, 2)
    let host2Run = try run(fleet, "host2")
    let seen = try collected(fleet, "host2").compactMap { Int($0["BINDING_SEQ"] as? String ?? "") }
    fleet.stop()

    // The collector alone: stale.
    let object = try summary([fleet.central])
    #expect(
      runs(object) == [
        "lost=0 dropped=0 runs=2/0/1", "stale host2 \(host2Run) misuse-helper last=\(last)",
      ])
    let gate = try check([fleet.central])
    #expect(gate.status == 3)
    #expect(gate.stderr == "check failed: 1 stale run (--max-stale 0)\n")
    try expectPrometheusMatches([fleet.central])

    // The app said what it lost; its run-end on the fallback says the run's last seq.
    let errors = fleet.file("host2", "app.err").split(separator: "\n").map(String.init)
    let said = try #require(
      errors.first { $0.contains("action=\"process ending; journald did not take the queue\"") },
      "\(errors)")
    let dropped = try #require(Self.number("dropped", in: said))
    let runEnd = try #require(errors.first { $0.contains("kind=run-end") }, "\(errors)")
    let records = try #require(Self.number("run_records", in: runEnd))
    let highest = try #require(seen.max())
    #expect(Set(seen) == Set(1...highest), "no gap before the tail")
    // Everything after the last record journald took was either queued at exit or dropped
    // from a full queue: the sink's count of both is the tail.
    let tail = records - highest
    #expect(tail > 0)
    #expect(tail == dropped)

    let fallback = fleet.path("host2", "app.err")
    let whole = try summary([fleet.central, fallback])
    #expect(
      runs(whole) == [
        "lost=\(tail) dropped=\(dropped) runs=3/0/0",
        "lost host2 \(host2Run) misuse-helper lost=\(tail) head=0 tail=\(tail) dropped=\(dropped)",
      ])
    let wholeGate = try check([fleet.central, fallback])
    #expect(wholeGate.status == 3)
    #expect(wholeGate.stderr == "check failed: \(tail) lost records (--max-lost 0)\n")
    try expectPrometheusMatches([fleet.central, fallback])
  }

  /// The collector's output directory is a 1 MiB tmpfs (mounted by the test: a real full
  /// disk, `ENOSPC` from the kernel, rather than a file size limit, whose `SIGXFSZ` would kill
  /// the collector instead). Once every host's heartbeats arrived, host3 misuses 4 000 times:
  /// the collector cannot write them ("No space left on device"), refuses the upload, and
  /// every uploader stops at its next one. The apps then end. The collector's view: no run
  /// ended, none lost a `seq` a reader could see; each went silent: all three are stale, named
  /// with their hosts.
  @Test(.timeLimit(.minutes(4)))
  func aFullCollectorDiskLeavesEveryRunStale() throws {
    let fleet = try Fleet(transport: .http(splitMode: "none"), centralSize: "1m")
    defer { fleet.stop() }
    try start(fleet, shapes: ["host3": (pauses: 1, more: 4000)])
    for host in FleetTests.misuses.keys.sorted() { try waitForHeartbeats(fleet, host) }
    try fleet.resume("host3")
    // Every uploader stops: its upload refused.
    for host in FleetTests.misuses.keys.sorted() {
      #expect(
        fleet.waitUntil(seconds: 30) { fleet.file(host, "upload.log").contains("failed") },
        "\(host): \(fleet.file(host, "upload.log"))")
    }
    #expect(
      fleet.log("remote.log").contains("No space left on device"), "\(fleet.log("remote.log"))")
    for host in ["host1", "host2"] { try fleet.resume(host) }
    for host in FleetTests.misuses.keys.sorted() { #expect(try fleet.waitForAppExit(host) == 0) }
    let runs = try FleetTests.misuses.keys.sorted().map { try run(fleet, $0) }
    for host in FleetTests.misuses.keys.sorted() { _ = try waitPastSilence(fleet, host) }
    fleet.stop()
    for host in FleetTests.misuses.keys.sorted() {
      #expect(try collected(fleet, host, kind: "run-end").isEmpty)
    }

    // Judged against the newest record that reached the collector, every run looks
    // running: the hosts all stopped arriving at once. Only now tells them apart.
    let blind = try summary([fleet.central], live: false)
    #expect(self.runs(blind) == ["lost=0 dropped=0 runs=0/3/0"])
    #expect(
      try bindiag(
        arguments: ["check", "--journal-dir", fleet.central] + Self.gate.dropFirst()
      ).status == 0)

    let object = try summary([fleet.central])
    let stale = try #require(object["stale_runs"] as? [[String: Any]])
    #expect(
      Set(stale.map { "\($0["host"] ?? "") \($0["run"] ?? "") \($0["process"] ?? "")" })
        == Set(zip(FleetTests.misuses.keys.sorted(), runs).map { "\($0) \($1) misuse-helper" }))
    #expect(self.runs(object).first == "lost=0 dropped=0 runs=0/0/3")
    #expect(
      hosts(object) == [
        "host1 lost=0 dropped=0 runs=0/0/1", "host2 lost=0 dropped=0 runs=0/0/1",
        "host3 lost=0 dropped=0 runs=0/0/1",
      ])
    // host3's burst reached the collector only in part.
    #expect((object["events"] as? Int ?? 0) < Self.healthyEvents + 4000)
    let gate = try check([fleet.central])
    #expect(gate.status == 3)
    #expect(gate.stderr == "check failed: 3 stale runs (--max-stale 0)\n")
    let samples = try expectPrometheusMatches([fleet.central])
    for host in FleetTests.misuses.keys.sorted() {
      #expect(samples.contains("bindiag_runs{host=\(host),state=stale} 1.0"))
    }
  }
}
