import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// Three hosts, each its own journald with an app writing through the journald sink, upload
/// to a central `systemd-journal-remote`; `bindiag summary --journal-dir` on what it collected.
@Suite(.serialized, .enabled(if: Fleet.missing == nil, Comment(rawValue: Fleet.missing ?? "")))
struct FleetTests {
  /// Misuses each host's app makes.
  static let misuses = ["host1": 40, "host2": 55, "host3": 70]

  /// host3 also carries a run of another process whose `seq` has gaps: 4, 7 and 8 never
  /// arrived. Its 6 records stand for 10 events (one folded 4 more).
  static func feederEntries(run: String) -> [JournalNativeSender.Entry] {
    [1, 2, 3, 5, 6, 9].map { seq in
      let event = MisuseEvent(
        timestamp: .now(), level: .warning, kind: .unwrappedWriteAfterNil,
        message: "A write after nil was dropped.", file: "App/Fleet.swift", line: 12,
        function: "save()", valueType: "Swift.Optional<Swift.Int>", valuePresent: false,
        value: nil, process: "Feeder", pid: 0, host: "", run: run, seq: seq,
        suppressed: seq == 5 ? 4 : 0)
      return JournalFieldsEncoder().fields(event).map { ($0.name, Array($0.value.utf8)) }
    }
  }

  /// Runs the fleet, waits until the central server has every record, stops everything, and
  /// checks what `bindiag` reads from the central directory.
  func runFleet(_ transport: Fleet.Transport) throws -> Fleet {
    let fleet = try Fleet(transport: transport)
    let run = String(UInt64.random(in: 1...UInt64.max), radix: 16)
    let feeder = String(repeating: "0", count: 16 - run.count) + run
    do {
      for (host, count) in FleetTests.misuses.sorted(by: { $0.key < $1.key }) {
        try fleet.addHost(
          host, misuses: count,
          entries: host == "host3" ? FleetTests.feederEntries(run: feeder) : [])
      }
      try fleet.waitUntilHostsSent()
      // The uploaders follow their journals: wait (bounded) until all 171 records arrived.
      var totals = ""
      let arrived = try fleet.waitUntil(seconds: 60) {
        let result = try bindiag(
          arguments: ["summary", "--journal-dir", fleet.central, "--format", "json"])
        totals = String(result.stdout.prefix(90))
        return totals.hasPrefix(#"{"schema":1,"events":175,"records":171,"#)
      }
      #expect(
        arrived,
        "central has \(totals); uploads: \(FleetTests.misuses.keys.sorted().map { fleet.log($0 + "/upload.log") })"
      )
    } catch {
      fleet.stop()
      throw error
    }
    fleet.stop()
    try checkCentral(fleet, feeder: feeder)
    return fleet
  }

  func checkCentral(_ fleet: Fleet, feeder: String) throws {
    let directory = fleet.central
    func summary(_ arguments: String...) throws -> [String: Any] {
      let result = try bindiag(
        arguments: ["summary", "--journal-dir", directory, "--format", "json"] + arguments)
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      #expect(result.stderr == "", "\(arguments)")
      return try #require(
        try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }
    func groups(_ object: [String: Any]) -> [String] {
      ((object["groups"] as? [[String: Any]]) ?? []).map { group in
        let key = (group["key"] as? [String: Any]) ?? [:]
        let parts = ["host", "kind"].compactMap { key[$0] as? String }
        let hosts = (group["hosts"] as? [String]) ?? []
        let processes = (group["processes"] as? [String]) ?? []
        return parts.joined(separator: "/")
          + " \(group["events"] as? Int ?? -1)/\(group["records"] as? Int ?? -1)"
          + " hosts=\(hosts.joined(separator: ",")) processes=\(processes.joined(separator: ","))"
      }
    }
    func totals(_ object: [String: Any]) -> String {
      ["events", "records", "lost", "duplicates", "malformed"]
        .map { "\($0)=\(object[$0] as? Int ?? -1)" }.joined(separator: " ")
    }

    // Exact counts per host; the lost records are host3's Feeder run's. Feeder is a python
    // script claiming that name: bindiag shows python's own with the claim.
    let feederName = "\(BindiagJournalForgeryTests.python) (as Feeder)"
    let byHost = try summary("--group-by", "host")
    #expect(totals(byHost) == "events=175 records=171 lost=3 duplicates=0 malformed=0")
    #expect(
      groups(byHost) == [
        "host3 80/76 hosts=host3 processes=misuse-helper,\(feederName)",
        "host2 55/55 hosts=host2 processes=misuse-helper",
        "host1 40/40 hosts=host1 processes=misuse-helper",
      ])
    let lostRuns = (byHost["lost_runs"] as? [[String: Any]]) ?? []
    #expect(lostRuns.count == 1)
    #expect(lostRuns.first?["run"] as? String == feeder)
    #expect(lostRuns.first?["process"] as? String == feederName)
    #expect(lostRuns.first?["lost"] as? Int == 3)

    let byHostAndKind = try summary("--group-by", "host,kind")
    #expect(
      groups(byHostAndKind) == [
        "host3/mapped-bool-set-true 70/70 hosts=host3 processes=misuse-helper",
        "host2/mapped-bool-set-true 55/55 hosts=host2 processes=misuse-helper",
        "host1/mapped-bool-set-true 40/40 hosts=host1 processes=misuse-helper",
        "host3/unwrapped-write-after-nil 10/6 hosts=host3 processes=\(feederName)",
      ])

    // --host: one host's events, and only its own runs' lost records.
    let host2 = try summary("--host", "host2", "--group-by", "host")
    #expect(totals(host2) == "events=55 records=55 lost=0 duplicates=0 malformed=0")
    #expect(groups(host2) == ["host2 55/55 hosts=host2 processes=misuse-helper"])
    let host3 = try summary("--host", "host3", "--group-by", "host,kind")
    #expect(totals(host3) == "events=80 records=76 lost=3 duplicates=0 malformed=0")
    #expect(groups(host3).count == 2)

    // The table, grouped by kind, names each kind's hosts.
    let table = try bindiag(arguments: [
      "summary", "--journal-dir", directory, "--group-by", "kind",
    ])
    let rows = table.stdout.split(separator: "\n").map(String.init)
    #expect(rows.contains { $0.contains("LEVEL") && $0.contains("  HOSTS  ") }, "\(table.stdout)")
    #expect(
      rows.contains {
        $0.hasPrefix("error") && $0.contains("  165  ") && $0.contains("  host1, host2, host3  ")
      }, "\(table.stdout)")
    #expect(
      rows.contains {
        $0.hasPrefix("warning") && $0.contains("  10  ") && $0.contains("unwrapped-write-after-nil")
          && $0.contains("  host3  ")
      }, "\(table.stdout)")

    // journalctl reads the same files the same way.
    let exported = try runProduct(
      "/usr/bin/env",
      ["journalctl", "--no-pager", "-o", "json", "-D", directory, "BINDING_SCHEMA=1"])
    let piped = try bindiag(
      arguments: ["summary", "--group-by", "host", "--format", "json"],
      stdin: Data(exported.stdout.utf8))
    let direct = try bindiag(
      arguments: ["summary", "--group-by", "host", "--format", "json", "--journal-dir", directory])
    #expect(piped.stdout == direct.stdout)
    // `export` writes those records themselves: its ClickHouse rows, read back as contract
    // JSON Lines, summarise as the collector's files do (run records and process names kept).
    let exportedRows = try bindiag(arguments: [
      "export", "--format", "clickhouse", "--journal-dir", directory,
    ])
    #expect(exportedRows.stderr == "")
    #expect(exportedRows.status == 0)
    let reread = try bindiag(
      arguments: ["summary", "--group-by", "host", "--format", "json"],
      stdin: Data(exportedRows.stdout.utf8))
    #expect(reread.stdout == direct.stdout)

    // Per release: journald records each process's executable (`_EXE`), so journalctl picks
    // one build's entries and bindiag groups them (the Feeder's entries came from python3).
    let helper = productsDirectory().appendingPathComponent("misuse-helper").path
    let release = try runProduct(
      "/usr/bin/env",
      [
        "journalctl", "--no-pager", "-o", "json", "-D", directory, "BINDING_SCHEMA=1",
        "_EXE=\(helper)",
      ])
    let releaseSummary = try bindiag(
      arguments: ["summary", "--group-by", "host", "--format", "json"],
      stdin: Data(release.stdout.utf8))
    let releaseObject = try #require(
      try JSONSerialization.jsonObject(with: Data(releaseSummary.stdout.utf8)) as? [String: Any])
    #expect(totals(releaseObject) == "events=165 records=165 lost=0 duplicates=0 malformed=0")
    #expect(
      groups(releaseObject) == [
        "host3 70/70 hosts=host3 processes=misuse-helper",
        "host2 55/55 hosts=host2 processes=misuse-helper",
        "host1 40/40 hosts=host1 processes=misuse-helper",
      ])

    // Each uploader followed its host's live journal and kept its place.
    for host in FleetTests.misuses.keys.sorted() {
      #expect(
        fleet.uploadState(host).contains("LAST_CURSOR="),
        "\(host): \(fleet.log(host + "/upload.log"))")
    }
    // The machine's own journal never saw this test's entries.
    if FileManager.default.fileExists(atPath: "/run/systemd/journal/socket") {
      let local = try bindiag(arguments: [
        "summary", "--journal", "--run", feeder, "--format", "json",
      ])
      #expect(local.stdout.hasPrefix(#"{"schema":1,"events":0,"records":0,"#), "\(local.stdout)")
    }
  }

  @Test func overHTTPIntoOneFile() throws {
    let fleet = try runFleet(.http(splitMode: "none"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: fleet.central) == ["all.journal"])
  }

  /// HTTPS with a throwaway CA, set up by the shipped `config/fleet` files (`SplitMode=host`):
  /// uploaders check the server's certificate (one trusting another CA is refused) and present
  /// their own. Debian's `systemd-journal-remote` is built without GnuTLS, so it cannot check
  /// client certificates ("Certificate checking disabled") and names each `SplitMode=host` file
  /// by the sender's address: every host here is 127.0.0.1.
  @Test func overHTTPSSplitByHost() throws {
    let ca = try ThrowawayCA(directory: try temporaryDirectory())
    let fleet = try runFleet(.https(ca))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: fleet.central)
        == ["remote-127.0.0.1.journal"])
    #expect(fleet.log("remote.log").contains("Certificate checking disabled"))

    // An uploader that trusts another CA sends nothing.
    let restarted = try Fleet(transport: .https(ca))
    defer { restarted.stop() }
    let client = try ca.client("host4")
    let file = try temporaryDirectory() + "/host4.journal"
    try JournalExportFile.write([fixtureEvent(seq: 1, host: "host4")], to: file)
    let refused = try runProduct(
      "/usr/bin/timeout",
      [
        "30", Fleet.upload!, "--follow=no", "--url=\(restarted.url)", "--file=\(file)",
        "--key=\(client.key)", "--cert=\(client.certificate)", "--trust=\(try ca.stranger())",
      ])
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("SSL certificate problem"), "\(refused.stderr)")
    let accepted = try runProduct(
      "/usr/bin/timeout",
      [
        "30", Fleet.upload!, "--follow=no", "--url=\(restarted.url)", "--file=\(file)",
        "--key=\(client.key)", "--cert=\(client.certificate)", "--trust=\(ca.certificate)",
      ])
    #expect(accepted.status == 0, "\(accepted.stderr)")
    restarted.stop()
    let received = try bindiag(
      arguments: [
        "summary", "--journal-dir", restarted.central, "--format", "json", "--group-by", "host",
      ])
    #expect(
      received.stdout.hasPrefix(#"{"schema":1,"events":1,"records":1,"#), "\(received.stdout)")
  }
}
