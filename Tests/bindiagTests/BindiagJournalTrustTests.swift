import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// Issue 19: what journald vouches for (`_UID`, `_PID`, `_BOOT_ID`) outranks what a
/// sender claims, and bytes that are not UTF-8 are malformed in every input alike. Real journal
/// files, written by `systemd-journal-remote` from export format (journald's trusted fields
/// included), not the system journal.
@Suite(
  .enabled(
    if: JournalExportFile.remote != nil,
    "systemd-journal-remote is not installed (apt-get install systemd-journal-remote)"))
struct BindiagJournalTrustTests {
  static let run = "a1a1a1a1a1a1a1a1"

  /// An entry of `event` as journald would store it for a sender of `uid` and `pid`, named
  /// `comm` by the kernel.
  static func entry(_ event: MisuseEvent, index: Int, uid: Int, pid: Int, comm: String)
    -> JournalExportFile.Fields
  {
    JournalExportFile.fields(event, index: index).map { field in
      field.name == "_PID" ? (field.name, String(pid)) : field
    } + [("_UID", String(uid)), ("_GID", String(uid)), ("_COMM", comm)]
  }

  /// A root process's run (seq 1 and 2), then one entry from `nobody` claiming that run with a
  /// seq near 2^53: before, the run had 9 quadrillion lost records and `check` failed.
  @Test func anEntryFromAnotherUidClaimingARunIsForged() throws {
    let directory = try temporaryDirectory()
    let genuine = (1...2).map { seq in
      Self.entry(
        fixtureEvent(seq: seq, process: "Spoofed", run: Self.run), index: seq, uid: 0, pid: 100,
        comm: "InboxApp")
    }
    let forged = Self.entry(
      fixtureEvent(seq: 9_007_199_254_740_990, process: "InboxApp", run: Self.run), index: 3,
      uid: 65534, pid: 200, comm: "python3")
    try JournalExportFile.write(entries: genuine + [forged], to: directory + "/remote.journal")

    let summary = try bindiag(arguments: [
      "summary", "--format", "json", "--journal-dir", directory,
    ])
    #expect(summary.status == 0, "\(summary.stderr)")
    #expect(
      summary.stdout.hasPrefix(
        #"{"schema":1,"events":2,"records":2,"malformed":0,"other":0,"lost":0,"duplicates":0,"runs":{"ended":0,"running":1,"stale":0},"run_dropped":0,"forged":1,"#
      ), "\(summary.stdout)")

    let table = try bindiag(arguments: ["summary", "--journal-dir", directory])
    #expect(table.stdout.contains("Lost records: 0\n"), "\(table.stdout)")
    #expect(
      table.stdout.contains(
        "Forged journal entries: 1 (another uid, pid or boot than the run they claim; not counted)"
      ), "\(table.stdout)")

    let check = try bindiag(
      arguments: ["check", "--max-events", "10", "--journal-dir", directory])
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
  }

  /// The same run from another boot or pid of the same uid is forged too; an entry without
  /// trusted fields cannot take over a run that has them.
  @Test(
    arguments: [(0, 100, "ffffffffffffffffffffffffffffffff"), (0, 101, nil)]
      as [(Int, Int, String?)])
  func anotherBootOrPidIsForged(uid: Int, pid: Int, boot: String?) throws {
    let directory = try temporaryDirectory()
    let genuine = Self.entry(
      fixtureEvent(seq: 1, run: Self.run), index: 1, uid: 0, pid: 100, comm: "InboxApp")
    var other = Self.entry(
      fixtureEvent(seq: 5, run: Self.run), index: 2, uid: uid, pid: pid, comm: "InboxApp")
    if let boot {
      other = other.map { $0.name == "_BOOT_ID" ? ($0.name, boot) : $0 }
    }
    try JournalExportFile.write(entries: [genuine, other], to: directory + "/remote.journal")
    let summary = try bindiag(arguments: [
      "summary", "--format", "json", "--journal-dir", directory,
    ])
    #expect(
      summary.stdout.hasPrefix(
        #"{"schema":1,"events":1,"records":1,"malformed":0,"other":0,"lost":0,"duplicates":0,"runs":{"ended":0,"running":1,"stale":0},"run_dropped":0,"forged":1,"#
      ), "\(summary.stdout)")
  }

  /// `App/` and a byte that is never UTF-8, in the file of an otherwise valid event.
  static let invalidFile: [UInt8] = Array("App/".utf8) + [0xff] + Array(".swift".utf8)

  /// Every input a record can come in, with `CODE_FILE`/`file` set to ``invalidFile``, after one
  /// valid record: the invalid one is malformed in each (the journal used to read it with a
  /// replacement character).
  @Test(arguments: ["json", "logfmt", "journalctl", "journal"])
  func invalidUTF8IsMalformedInEveryInput(input: String) throws {
    let valid = fixtureEvent(seq: 1)
    let invalid = fixtureEvent(seq: 2, file: "App/PLACEHOLDER.swift")
    let placeholder = Array("App/PLACEHOLDER.swift".utf8)
    func replaced(_ bytes: [UInt8]) -> [UInt8] {
      guard let range = bytes.firstRange(of: placeholder) else { return bytes }
      var bytes = bytes
      bytes.replaceSubrange(range, with: Self.invalidFile)
      return bytes
    }
    let arguments: [String]
    var stdin: Data?
    switch input {
    case "json":
      stdin = Data(JSONLinesEncoder().encode(valid) + replaced(JSONLinesEncoder().encode(invalid)))
      arguments = ["-"]
    case "logfmt":
      stdin = Data(LogfmtEncoder().encode(valid) + replaced(LogfmtEncoder().encode(invalid)))
      arguments = ["-"]
    case "journalctl":
      // `journalctl -o json` writes a value that is not UTF-8 as an array of its bytes.
      func object(_ event: MisuseEvent, file: [UInt8]?) -> String {
        let fields =
          [("_PID", "4242"), ("_HOSTNAME", event.host)] + JournalFieldsEncoder().fields(event)
        return "{"
          + fields.map { name, value in
            let json =
              name == "CODE_FILE" && file != nil
              ? "[" + file!.map(String.init).joined(separator: ",") + "]"
              : "\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\""
            return "\"\(name)\":\(json)"
          }.joined(separator: ",") + "}\n"
      }
      stdin = Data((object(valid, file: nil) + object(invalid, file: Self.invalidFile)).utf8)
      arguments = ["-"]
    default:
      let directory = try temporaryDirectory()
      var export = Data()
      for (index, event) in [valid, invalid].enumerated() {
        for (name, value) in JournalExportFile.fields(event, index: index) {
          let bytes = replaced(Array(value.utf8))
          guard bytes != Array(value.utf8) else {
            export.append(Data((name + "=" + value + "\n").utf8))
            continue
          }
          // The binary-safe form for the value that is not text.
          export.append(Data((name + "\n").utf8))
          withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { export.append(contentsOf: $0) }
          export.append(Data(bytes + [0x0a]))
        }
        export.append(0x0a)
      }
      let made = try runProduct(
        JournalExportFile.remote!,
        ["--split-mode=none", "--output=\(directory)/remote.journal", "-"], stdin: export)
      #expect(made.status == 0, "\(made.stderr)")
      arguments = ["--journal-dir", directory]
    }
    let result = try bindiag(arguments: ["summary", "--format", "json"] + arguments, stdin: stdin)
    #expect(result.status == 0)
    #expect(
      result.stdout.hasPrefix(#"{"schema":1,"events":1,"records":1,"malformed":1,"other":0,"#),
      "\(input): \(result.stdout)")
    #expect(result.stderr.contains("UTF-8"), "\(input): \(result.stderr)")
  }

  /// A journal file cut to 4 MiB while `--journal-dir` reads it: the reader used to die of
  /// `SIGBUS` (exit 135). Now the pages that vanished read as zeros, that file is skipped with
  /// one warning, the other file counts, and the exit status is 0. Whether the cut lands during
  /// the read or after it, those hold.
  @Test func aJournalFileThatShrinksWhileReadIsSkipped() throws {
    let directory = try temporaryDirectory()
    try JournalExportFile.write(
      [fixtureEvent(seq: 1, host: "good", run: "b2b2b2b2b2b2b2b2")],
      to: directory + "/remote-good.journal")
    let big = (1...60_000).map { fixtureEvent(seq: $0, host: "big", run: Self.run) }
    try JournalExportFile.write(big, to: directory + "/remote-big.journal")
    let process = Process()
    process.executableURL = productsDirectory().appendingPathComponent("bindiag")
    process.arguments = [
      "summary", "--format", "json", "--group-by", "host", "--journal-dir", directory,
    ]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    Thread.sleep(forTimeInterval: 0.3)
    #expect(truncate(directory + "/remote-big.journal", 4 << 20) == 0)
    let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(stderr)")
    #expect(stdout.contains(#"{"key":{"host":"good"},"events":1,"records":1,"#), "\(stdout)")
    let lines = stderr.split(separator: "\n")
    #expect(lines.count <= 1, "\(stderr)")
    #expect(
      lines.allSatisfy {
        $0.hasPrefix("warning: skipped journal file '\(directory)/remote-big.journal': ")
      },
      "\(stderr)")
  }

  /// A journal file corrupt halfway (bytes overwritten around its 1 000th record, as a crash or
  /// a bad disk leaves one) beside a good one: libsystemd reads the records before the damage,
  /// then drops the file from its iteration without an error. `summary` counted the first
  /// half, said nothing, and `check` passed on half the input; the file is now named as skipped
  /// (what was read of it still counts), and `check` does not pass (exit 1).
  @Test func aJournalFileCorruptHalfwayIsNamedAndFailsCheck() throws {
    let directory = try temporaryDirectory()
    try JournalExportFile.write(
      [fixtureEvent(seq: 1, host: "good", run: "b3b3b3b3b3b3b3b3")],
      to: directory + "/remote-good.journal")
    let events = (1...2_000).map { seq in
      var event = fixtureEvent(seq: seq, host: "bad", run: Self.run)
      event.label = "label-\(seq)"
      return event
    }
    let bad = directory + "/remote-bad.journal"
    try JournalExportFile.write(events, to: bad)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: bad))
    let middle = try #require(bytes.range(of: Data("BINDING_LABEL=label-1000".utf8)))
    bytes.replaceSubrange(
      middle.lowerBound - 256..<middle.lowerBound + 4_096,
      with: Data(repeating: 0xab, count: 4_352))
    try bytes.write(to: URL(fileURLWithPath: bad))
    let summary = try bindiag(arguments: [
      "summary", "--format", "json", "--group-by", "host", "--journal-dir", directory,
    ])
    #expect(summary.status == 0, "\(summary.stderr)")
    #expect(summary.stdout.contains(#"{"key":{"host":"good"},"events":1,"records":1,"#))
    // The entry the damage began in may read as malformed, named before the file is.
    let lines = summary.stderr.split(separator: "\n")
    #expect(
      lines.last?.hasPrefix("warning: skipped journal file '\(bad)': ") == true
        && lines.dropLast().allSatisfy { $0.hasPrefix("warning: \(bad):") },
      "\(summary.stderr)")
    let check = try bindiag(arguments: [
      "check", "--max-events", "10000", "--journal-dir", directory,
    ])
    #expect(check.status == 1, "\(check.stderr)")
  }

  /// A corrupt journal file beside a good one: skipped with one warning, exit 0 (it was exit 1).
  @Test func aCorruptJournalFileBesideAGoodOneIsSkipped() throws {
    let directory = try temporaryDirectory()
    try JournalExportFile.write([fixtureEvent(seq: 1)], to: directory + "/remote-good.journal")
    try Data(repeating: 0x4c, count: 8192).write(
      to: URL(fileURLWithPath: directory + "/remote-bad.journal"))
    let result = try bindiag(arguments: ["summary", "--format", "json", "--journal-dir", directory])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix(#"{"schema":1,"events":1,"records":1,"#), "\(result.stdout)")
    #expect(
      result.stderr.hasPrefix("warning: skipped journal file '\(directory)/remote-bad.journal': ")
        && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
  }
}
