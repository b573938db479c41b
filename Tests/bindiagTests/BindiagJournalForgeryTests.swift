import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// Issue 19, item 5: an entry another user sent into the journal claiming a root process's run is
/// forged in every way `bindiag` reads the journal (`--journal-dir`, `journalctl -o json` on
/// standard input or in a file, `follow`), and process names come from journald's trusted
/// `_EXE` (else `_COMM`). The entries go through a private journald, really sent as root and as
/// `nobody`.
@Suite(.enabled(if: PrivateJournal.unavailability == nil, "needs a private journald"))
struct BindiagJournalForgeryTests {
  static let run = "c3c3c3c3c3c3c3c3"
  static let liarRun = "d4d4d4d4d4d4d4d4"
  static let forgedSeq = 9_007_199_254_740_990

  /// The file name of the executable `python3` runs (what journald's `_EXE` ends in).
  static let python: String = {
    let output = try? runProduct(
      "/usr/bin/env",
      ["python3", "-c", "import os; print(os.path.basename(os.readlink('/proc/self/exe')))"])
    return output?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? "python3"
  }()

  /// The run's two genuine records, sent by root under python's own name.
  static let genuine = (1...2).map { fixtureEvent(seq: $0, process: python, run: run) }
  /// `nobody`'s record claiming the run, with a seq near 2^53.
  static let forged = fixtureEvent(seq: forgedSeq, process: python, run: run)
  /// A record of root's python claiming to be `InboxApp`.
  static let liar = fixtureEvent(seq: 1, line: 7, process: "InboxApp", run: liarRun)

  /// A journal entry of `event` as the journald sink sends it (journald adds `_PID`, `_UID`,
  /// `_EXE`, `_COMM` and the rest).
  static func entry(_ event: MisuseEvent) -> JournalNativeSender.Entry {
    JournalFieldsEncoder().fields(event).map { (name: $0.name, value: Array($0.value.utf8)) }
  }

  /// One root python process: it sends the run's seq 1, starts a sender that becomes `nobody`
  /// (`setuid`) and sends the forged entry, sends seq 2, then the entry claiming `InboxApp`,
  /// and waits for journald to take them in (`journalctl --sync`) while it still lives, so
  /// journald finds its `_EXE` and `_COMM`.
  static let rootProcess = #"""
    import base64, json, socket, struct, subprocess, sys
    sender, directory = sys.argv[1], sys.argv[2]
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    def send(name):
        for fields in json.load(open(f"{directory}/{name}.json")):
            buf = bytearray()
            for field, b64 in fields:
                value = base64.b64decode(b64)
                buf += field.encode() + b"\n" + struct.pack("<Q", len(value)) + value + b"\n"
            s.sendto(bytes(buf), "/run/systemd/journal/socket")
    send("genuine-1")
    if len(sys.argv) > 3:
        subprocess.run(["journalctl", "--sync"], check=True)
        subprocess.run(["journalctl", "--rotate"], check=True)
    with open(f"{directory}/forged.json") as payload:
        subprocess.run([sys.executable, "-c", sender, "65534"], stdin=payload,
                       stdout=subprocess.DEVNULL, check=True)
    send("genuine-2")
    send("liar")
    subprocess.run(["journalctl", "--sync"], check=True)
    """#

  /// A private journal holding, in this order: root's seq 1, `nobody`'s forged entry, root's
  /// seq 2 (root's from one process), root's python claiming `InboxApp`, and one misuse of
  /// `misuse-helper` through the journald sink (a Swift app telling the truth).
  /// With `rotatingAfterTheFirst`, journald archives its file after root's seq 1, so the forged
  /// entry and seq 2 land in the new active `system.journal`, whose name sorts before the
  /// archived `system@….journal`. With `forgedLast`, root sends both its records before
  /// `nobody` sends the forged one: the forged entry is the run's last.
  static func makeJournal(rotatingAfterTheFirst: Bool = false, forgedLast: Bool = false) throws
    -> PrivateJournal
  {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let payloads = [
      ("genuine-1", forgedLast ? genuine : [genuine[0]]), ("forged", [forged]),
      ("genuine-2", forgedLast ? [] : [genuine[1]]), ("liar", [liar]),
    ]
    for (name, events) in payloads {
      try JournalNativeSender.payload(events.map(entry)).write(
        to: URL(fileURLWithPath: "\(directory)/\(name).json"))
    }
    let script = """
      set -e
      python3 -c "$1" "$2" "$3" $5
      BINDING_DIAGNOSTICS=journald "$4" 1 > /dev/null
      """
    let journal = try PrivateJournal(running: [
      "/bin/sh", "-c", script, "sh", rootProcess, JournalNativeSender.script, directory,
      productsDirectory().appendingPathComponent("misuse-helper").path,
      rotatingAfterTheFirst ? "rotate" : "",
    ])
    #expect(journal.output.status == 0, "\(journal.output.stderr)")
    return journal
  }

  /// What `journalctl -o json` prints of the journal's events.
  static func exported(_ journal: PrivateJournal) throws -> Data {
    let output = try runProduct(
      "/usr/bin/env",
      [
        "journalctl", "--no-pager", "--all", "-o", "json", "-D", journal.directory,
        "BINDING_SCHEMA=1",
      ]
    )
    #expect(output.status == 0, "\(output.stderr)")
    return Data(output.stdout.utf8)
  }

  /// Runs `bindiag ARGUMENTS INPUT` on the journal directory, on `journalctl -o json` through a
  /// pipe, and on the same lines in a file (read in chunks).
  static func everyInput(_ journal: PrivateJournal, _ arguments: [String]) throws
    -> [ProcessOutput]
  {
    let json = try exported(journal)
    let file = try temporaryDirectory() + "/journal.json"
    try json.write(to: URL(fileURLWithPath: file))
    return [
      try bindiag(arguments: arguments + ["--journal-dir", journal.directory]),
      try bindiag(arguments: arguments + ["-"], stdin: json),
      try bindiag(arguments: arguments + [file]),
    ]
  }

  /// `bindiag follow ARGUMENTS`, ended after a minute if it has not printed its `--count`
  /// (exit 124 then), so a broken reader fails the test instead of hanging it.
  static func follow(_ arguments: [String], stdin: Data? = nil) throws -> ProcessOutput {
    try runProduct(
      "/usr/bin/env",
      ["timeout", "60", productsDirectory().appendingPathComponent("bindiag").path, "follow"]
        + arguments, environment: bindiagEnvironment, stdin: stdin)
  }

  /// The same forged entry, read from the journal's files, from `journalctl -o json` on standard
  /// input and from that output in a file: the same summary, forged once, the run's `lost` 0
  /// (it was 9 quadrillion), and `check` passes. With `--run`, the run is stale in all three:
  /// judged against the journal's newest record (`misuse-helper`'s, written now), as `--host`
  /// would judge it; the journal's files were read with a `BINDING_RUN` match before, and the
  /// run judged against its own records alone there.
  @Test func aForgedEntryIsForgedInEveryInput() throws {
    let journal = try Self.makeJournal()
    for format in ["json", "table"] {
      let all = try Self.everyInput(journal, ["summary", "--format", format])
      #expect(all.allSatisfy { $0.status == 0 && $0.stderr.isEmpty }, "\(all)")
      #expect(all[1].stdout == all[0].stdout, "\(all[0].stdout)\n---\n\(all[1].stdout)")
      #expect(all[2].stdout == all[0].stdout, "\(all[0].stdout)\n---\n\(all[2].stdout)")
    }
    let run = try Self.everyInput(journal, ["summary", "--format", "json", "--run", Self.run])
    for output in run {
      #expect(
        output.stdout.hasPrefix(
          #"{"schema":1,"events":2,"records":2,"malformed":0,"other":0,"lost":0,"duplicates":0,"#
          + #""runs":{"ended":0,"running":0,"stale":1},"run_dropped":0,"forged":1,"#
        ), "\(output.stdout)")
    }
    let table = try Self.everyInput(journal, ["summary", "--run", Self.run])
    for output in table {
      #expect(output.stdout.contains("Lost records: 0\n"), "\(output.stdout)")
      #expect(
        output.stdout.contains(
          "Forged journal entries: 1 (another uid, pid or boot than the run they claim; not counted)"
        ), "\(output.stdout)")
    }
    let checks = try Self.everyInput(journal, ["check", "--max-events", "10"])
    #expect(checks.allSatisfy { $0.status == 0 }, "\(checks)")
  }

  /// The run's first entry is in an archived file, the forged one in the active file read
  /// before it by name: files are read oldest first (by their first entry's time), so the run
  /// still belongs to root, its two records are counted and the forged one is not.
  @Test func aForgedEntryInANewerFileDoesNotTakeTheRunOver() throws {
    let journal = try Self.makeJournal(rotatingAfterTheFirst: true)
    let files = try FileManager.default.subpathsOfDirectory(atPath: journal.directory)
      .filter { $0.hasSuffix(".journal") }
    #expect(files.count >= 2, "\(files)")
    let output = try bindiag(arguments: [
      "summary", "--format", "json", "--run", Self.run, "--journal-dir", journal.directory,
    ])
    #expect(output.status == 0, "\(output.stderr)")
    #expect(
      output.stdout.hasPrefix(
        #"{"schema":1,"events":2,"records":2,"malformed":0,"other":0,"lost":0,"duplicates":0,"#
          + #""runs":{"ended":0,"running":0,"stale":1},"run_dropped":0,"forged":1,"#
      ), "\(output.stdout)")
  }

  /// The process shown is python's own name where python says so, `python3.X (as InboxApp)`
  /// where it claims another, and `misuse-helper` for the Swift app; `--process` picks the name
  /// shown, in every input.
  @Test func processNamesComeFromTrustedFields() throws {
    let journal = try Self.makeJournal()
    let claimed = "\(Self.python) (as InboxApp)"
    for output in try Self.everyInput(
      journal, ["summary", "--format", "json", "--group-by", "process"])
    {
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
      let groups = try #require(object["groups"] as? [[String: Any]])
      let names = groups.compactMap { ($0["key"] as? [String: Any])?["process"] as? String }
      #expect(names.sorted() == [Self.python, claimed, "misuse-helper"].sorted(), "\(names)")
    }
    for (process, events) in [("InboxApp", 0), (claimed, 1), (Self.python, 2)] {
      for output in try Self.everyInput(
        journal, ["summary", "--format", "json", "--process", process])
      {
        #expect(
          output.stdout.hasPrefix(#"{"schema":1,"events":\#(events),"records":\#(events),"#),
          "\(process): \(output.stdout)")
      }
    }
    // follow asks journald for the claim, and shows the name as summary does.
    let followed = try Self.follow([
      "--format", "json", "--count", "1", "--process", claimed, "--journal-dir",
      journal.directory,
    ])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(followed.stdout.utf8)) as? [String: Any])
    #expect(object["process"] as? String == claimed, "\(followed.stdout)")
    #expect(object["run"] as? String == Self.liarRun)
  }

  /// `follow` never shows the forged entry as a record of the run: it skips it with one line
  /// on standard error naming who sent it and whose the run is, and shows the two genuine
  /// records, from the journal and from `journalctl -o json` on standard input alike.
  /// Issue 33.6: stepping back for `-n 2` meets root's seq 2 first, then the forged entry.
  /// `follow` looks the run's owner up in the journal first (the forged one was taken for the
  /// run's record, and seq 2 skipped as forged). The forged entry is not one of the last two
  /// records `follow` prints (3.3.1: it counted, and the backlog started at it): root's seq 1
  /// and 2 are printed, the forged entry between them skipped with its warning. With the forged
  /// entry last, see ``followLastCountsNoForgedEntry()``.
  @Test func followLooksUpTheOwnerOfARunBegunBeforeTheBacklog() throws {
    let journal = try Self.makeJournal()
    let entries = try journal.entries(matching: ["BINDING_RUN=\(Self.run)"])
    let pids = entries.compactMap { ($0["_PID"] as? String).flatMap { Int($0) } }
    let host = try #require(entries.first?["_HOSTNAME"] as? String)
    try #require(pids.count == 3)
    let expected = Self.genuineLines(pids: [pids[0], pids[2]], host: host)
    let followed = try Self.follow([
      "--format", "json", "-n", "2", "--count", "2", "--run", Self.run,
      "--journal-dir", journal.directory,
    ])
    #expect(followed.status == 0)
    #expect(followed.stdout == expected)
    #expect(
      followed.stderr
        == "warning: journal: skipped a forged entry: uid 65534 pid \(pids[1]) claims run "
        + "\(Self.run) (seq \(Self.forgedSeq)) of uid 0 pid \(pids[0])\n")
  }

  /// `-n 1` is the last record `follow` prints, as `tail -n 1` of its output would be: a forged
  /// entry appended after the run's last genuine record (another uid claiming the run) does
  /// not count among the last, so root's seq 2 is printed, not pushed out by it.
  @Test func followLastCountsNoForgedEntry() throws {
    let journal = try Self.makeJournal(forgedLast: true)
    let entries = try journal.entries(matching: ["BINDING_RUN=\(Self.run)"])
    let pids = entries.compactMap { ($0["_PID"] as? String).flatMap { Int($0) } }
    let uids = entries.compactMap { $0["_UID"] as? String }
    let host = try #require(entries.first?["_HOSTNAME"] as? String)
    try #require(pids.count == 3)
    #expect(uids == ["0", "0", "65534"], "the forged entry is the run's last")
    var second = Self.genuine[1]
    second.pid = pids[1]
    second.host = host
    // Bounded: before the fix, the forged entry was the one counted, nothing was printed and
    // `follow` waited for a new record.
    let followed = try runProduct(
      "/usr/bin/env",
      [
        "timeout", "10", productsDirectory().appendingPathComponent("bindiag").path, "follow",
        "--format", "json", "-n", "1", "--count", "1", "--run", Self.run,
        "--journal-dir", journal.directory,
      ], environment: bindiagEnvironment)
    #expect(followed.status == 0, "\(followed.stderr)")
    #expect(followed.stdout == String(decoding: JSONLinesEncoder().encode(second), as: UTF8.self))
    #expect(followed.stderr == "")
  }

  /// The genuine records as `follow --format json` prints them, with the pids and host the
  /// journal gave their entries.
  static func genuineLines(pids: [Int], host: String) -> String {
    zip(genuine, pids).map { event, pid in
      var event = event
      event.pid = pid
      event.host = host
      return String(decoding: JSONLinesEncoder().encode(event), as: UTF8.self)
    }.joined()
  }

  @Test func followSkipsAForgedEntryWithAWarning() throws {
    let journal = try Self.makeJournal()
    let entries = try journal.entries(matching: ["BINDING_RUN=\(Self.run)"])
    #expect(entries.count == 3)
    let pids = entries.compactMap { ($0["_PID"] as? String).flatMap { Int($0) } }
    let host = try #require(entries.first?["_HOSTNAME"] as? String)
    try #require(pids.count == 3)
    let expected = Self.genuineLines(pids: [pids[0], pids[2]], host: host)
    let warning =
      "skipped a forged entry: uid 65534 pid \(pids[1]) claims run \(Self.run) "
      + "(seq \(Self.forgedSeq)) of uid 0 pid \(pids[0])\n"
    let arguments = ["--format", "json", "--count", "2", "--run", Self.run]
    let fromJournal = try Self.follow(arguments + ["--journal-dir", journal.directory])
    #expect(fromJournal.status == 0)
    #expect(fromJournal.stdout == expected)
    #expect(fromJournal.stderr == "warning: journal: " + warning)
    let fromPipe = try Self.follow(arguments + ["-"], stdin: try Self.exported(journal))
    #expect(fromPipe.status == 0)
    #expect(fromPipe.stdout == expected)
    #expect(fromPipe.stderr == "warning: <stdin>: " + warning)
  }

  /// The rule, case by case, through `journalctl -o json` lines: the claim when it is the
  /// executable's file name, `_COMM`, or starts with a 15-byte (cut) `_COMM`; otherwise the
  /// executable's file name (else `_COMM`) with the claim.
  @Test(
    arguments: [
      ("InboxApp", "/usr/lib/inbox/InboxApp", "InboxApp", "InboxApp"),
      ("InboxApp", "/usr/bin/python3.11", "python3", "python3.11 (as InboxApp)"),
      // Started through a link named InboxApp.
      ("InboxApp", "/usr/bin/busybox", "InboxApp", "InboxApp"),
      (
        "InboxAppWithALongName", "/opt/InboxAppWithALongName", "InboxAppWithALo",
        "InboxAppWithALongName"
      ),
      ("InboxAppWithALongName", nil, "InboxAppWithALo", "InboxAppWithALongName"),
      ("InboxAppWithALongName", nil, "InboxAppWith", "InboxAppWith (as InboxAppWithALongName)"),
      ("InboxApp", nil, "InboxApp", "InboxApp"),
      ("InboxApp", nil, nil, "InboxApp"),
    ] as [(String, String?, String?, String)])
  func theProcessNameRule(claim: String, exe: String?, comm: String?, shown: String) throws {
    var fields = JournalFieldsEncoder().fields(fixtureEvent(seq: 1, process: claim))
      .map { ($0.name, $0.value) }
    fields += [("_PID", "4242"), ("_HOSTNAME", "build-01"), ("_UID", "0")]
    if let exe { fields.append(("_EXE", exe)) }
    if let comm { fields.append(("_COMM", comm)) }
    let object = Dictionary(uniqueKeysWithValues: fields)
    let line = try JSONSerialization.data(withJSONObject: object) + Data("\n".utf8)
    let output = try bindiag(
      arguments: ["summary", "--format", "json", "--group-by", "process", "-"], stdin: line)
    #expect(
      output.stdout.contains(#"{"key":{"process":"\#(shown)"},"#), "\(output.stdout)")
  }
}
