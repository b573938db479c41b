import BindingDiagnostics
import Foundation
import TestSupport

/// Journal files made the way a central journal server makes them: events written as journal
/// export format (`journalctl -o export`) into `systemd-journal-remote`, which writes the file.
enum JournalExportFile {
  /// Where Debian and others install systemd's helpers.
  static func systemdHelper(_ name: String) -> String? {
    ["/lib/systemd/", "/usr/lib/systemd/"].map { $0 + name }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// `systemd-journal-remote`, when installed (`.ci/run` installs it).
  static let remote = systemdHelper("systemd-journal-remote")

  /// One entry's fields as `systemd-journal-remote` reads them: journald's own (`__` and `_`)
  /// names included.
  typealias Fields = [(name: String, value: String)]

  /// What journald adds for a native-protocol sender (`_HOSTNAME`, `_PID`, `_TRANSPORT`, the
  /// entry's realtime at the event's time), then the contract's fields. `index` numbers the
  /// entry for its monotonic time.
  static func fields(_ event: MisuseEvent, index: Int) -> Fields {
    [
      ("__REALTIME_TIMESTAMP", String(max(event.timestamp.microsecondsSinceEpoch, 1))),
      ("__MONOTONIC_TIMESTAMP", String(index + 1)),
      ("_BOOT_ID", "0123456789abcdef0123456789abcdef"), ("_TRANSPORT", "journal"),
      ("_HOSTNAME", event.host), ("_PID", String(event.pid)),
    ] + JournalFieldsEncoder().fields(event)
  }

  /// Each event as one export-format entry (``fields(_:index:)``).
  static func export(_ events: [MisuseEvent]) -> Data {
    export(entries: events.enumerated().map { fields($1, index: $0) })
  }

  /// Each entry in journal export format. Values holding a newline use the binary form.
  static func export(entries: [Fields]) -> Data {
    var out = Data()
    for fields in entries {
      for (name, value) in fields {
        if value.contains("\n") {
          out.append(Data((name + "\n").utf8))
          withUnsafeBytes(of: UInt64(value.utf8.count).littleEndian) { out.append(contentsOf: $0) }
          out.append(Data((value + "\n").utf8))
        } else {
          out.append(Data((name + "=" + value + "\n").utf8))
        }
      }
      out.append(Data("\n".utf8))
    }
    return out
  }

  /// Writes `events` into a new journal file at `path` (its directory must exist).
  static func write(_ events: [MisuseEvent], to path: String) throws {
    try write(export(events), to: path)
  }

  /// Writes entries given field by field into a new journal file at `path`.
  static func write(entries: [Fields], to path: String) throws {
    try write(export(entries: entries), to: path)
  }

  private static func write(_ export: Data, to path: String) throws {
    guard let remote else { throw ExportError(message: "systemd-journal-remote is not installed") }
    let result = try runProduct(
      remote, ["--split-mode=none", "--output=\(path)", "-"], stdin: export)
    guard result.status == 0 else {
      throw ExportError(message: "systemd-journal-remote exited \(result.status): \(result.stderr)")
    }
  }

  struct ExportError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }
}
