import BindingDiagnostics
import Foundation

/// A morning of reports from a mail app on two build hosts: the sample the README's table and
/// screenshot show. Committed as `Snapshots/triage-day.jsonl` so readers can run `bindiag` on
/// it; the tests check the file is still what this code makes.
enum TriageDay {
  static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Snapshots")
  static let path = snapshots.appendingPathComponent("triage-day.jsonl").path

  static let events: [MisuseEvent] = {
    struct Planned {
      var minute: Int
      var kind: MisuseKind
      var file: String
      var line: Int
      var label: String?
      var suppressed: Int
      var process = "Mail"
      var host = "build-01"
    }
    let sheetTwice = MisuseKind(code: "sheet-presented-twice", defaultLevel: .notice)!
    var plan: [Planned] = []
    for index in 0..<30 {
      plan.append(
        Planned(
          minute: index * 6, kind: .mappedBoolSetTrue, file: "MailApp/Compose/ComposeView.swift",
          line: 118, label: "discard-draft-alert", suppressed: 39,
          host: index % 3 == 0 ? "build-02" : "build-01"))
    }
    for index in 0..<20 {
      plan.append(
        Planned(
          minute: 90 + index * 3, kind: .unwrappedReadAfterNil,
          file: "MailApp/Inbox/MessageDetailView.swift", line: 61, label: "message-detail",
          suppressed: 16))
    }
    for index in 0..<12 {
      plan.append(
        Planned(
          minute: 95 + index * 5, kind: .unwrappedWriteAfterNil,
          file: "MailApp/Inbox/MessageDetailView.swift", line: 64, label: "message-detail",
          suppressed: index < 7 ? 10 : 0, host: "build-02"))
    }
    for index in 0..<12 {
      plan.append(
        Planned(
          minute: 120 + index * 5, kind: .mappedBoolSetTrue,
          file: "MailApp/Settings/AccountSettingsView.swift", line: 42,
          label: "sign-out-confirmation", suppressed: 0))
    }
    for minute in [15, 70, 160] {
      plan.append(
        Planned(
          minute: minute, kind: sheetTwice, file: "MailApp/Compose/ComposeSheet.swift", line: 20,
          label: "compose-sheet", suppressed: 0))
    }
    for minute in [40, 150] {
      plan.append(
        Planned(
          minute: minute, kind: .unwrappedWriteAfterNil,
          file: "MailSync/Sources/MailSync/Workers/SyncWorker.swift", line: 88, label: "sync-job",
          suppressed: 0, process: "MailSync", host: "build-02"))
    }
    plan.sort { ($0.minute, $0.line) < ($1.minute, $1.line) }
    let start = Timestamp(rfc3339: "2026-11-30T04:00:00Z")!.microsecondsSinceEpoch
    var seqs: [String: Int] = [:]
    return plan.map { planned in
      let run =
        planned.process == "MailSync"
        ? "5c0ffee5c0ffee42" : planned.host == "build-01" ? "a1b2c3d4e5f60718" : "0f1e2d3c4b5a6978"
      // The sync worker lost three records between its two.
      seqs[run, default: 0] += planned.process == "MailSync" && seqs[run] != nil ? 4 : 1
      return MisuseEvent(
        timestamp: Timestamp(
          microsecondsSinceEpoch: start + Int64(planned.minute) * 60_000_000 + 250_000),
        level: planned.kind.defaultLevel, kind: planned.kind, message: "A misuse.",
        file: planned.file, line: planned.line, function: "body",
        valueType: "Swift.Optional<Swift.String>", valuePresent: false, value: "<private>",
        label: planned.label, process: planned.process,
        pid: planned.process == "Mail" ? 4242 : 4343,
        host: planned.host, run: run, seq: seqs[run]!, suppressed: planned.suppressed)
    }
  }()
}
