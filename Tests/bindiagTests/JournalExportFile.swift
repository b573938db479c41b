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

  /// Each event as one export-format entry with what journald adds for a native-protocol sender
  /// (`_HOSTNAME`, `_PID`, `_TRANSPORT`, the entry's realtime at the event's time) and the
  /// contract's fields. Values holding a newline use the binary form.
  static func export(_ events: [MisuseEvent]) -> Data {
    var out = Data()
    for (index, event) in events.enumerated() {
      let micros = max(event.timestamp.microsecondsSinceEpoch, 1)
      let fields: [(name: String, value: String)] =
        [
          ("__REALTIME_TIMESTAMP", String(micros)), ("__MONOTONIC_TIMESTAMP", String(index + 1)),
          ("_BOOT_ID", "0123456789abcdef0123456789abcdef"), ("_TRANSPORT", "journal"),
          ("_HOSTNAME", event.host), ("_PID", String(event.pid)),
        ] + JournalFieldsEncoder().fields(event)
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
    guard let remote else { throw ExportError(message: "systemd-journal-remote is not installed") }
    let result = try runProduct(
      remote, ["--split-mode=none", "--output=\(path)", "-"], stdin: export(events))
    guard result.status == 0 else {
      throw ExportError(message: "systemd-journal-remote exited \(result.status): \(result.stderr)")
    }
  }

  struct ExportError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }
}
