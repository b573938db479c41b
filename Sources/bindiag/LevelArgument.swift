import BindingDiagnostics

/// `--level` and `-p` values: our level names, and journalctl's priority names and numbers
/// (`emerg` to `debug`, `0` to `7`), each meaning the least severe level journalctl's `-p`
/// would show.
enum LevelArgument {
  /// journalctl's names and numbers and the levels they stand for. Priority 7 covers both
  /// `debug` and `trace` (both are written at syslog priority 7), so `7` keeps trace events.
  private static let journalctl: [(name: String, level: MisuseLevel)] = [
    ("emerg", .critical), ("alert", .critical), ("crit", .critical), ("err", .error),
    ("warn", .warning), ("0", .critical), ("1", .critical), ("2", .critical), ("3", .error),
    ("4", .warning), ("5", .notice), ("6", .info), ("7", .trace),
  ]

  /// Every name accepted, ours first.
  static let names: [String] =
    MisuseLevel.allCases.map(\.rawValue) + journalctl.map(\.name)

  /// What help says `--level` takes: our names, then journalctl's priorities.
  static let help =
    MisuseLevel.allCases.map(\.rawValue).joined(separator: ", ")
    + ", or journalctl's priorities (emerg, alert, crit, err, warning, notice, info, debug, or 0 to 7)"

  /// What a usage error says is expected.
  static let expected =
    MisuseLevel.allCases.map(\.rawValue).joined(separator: ", ")
    + ", emerg, alert, crit, err, warn or 0 to 7"

  /// The level `text` names, or `nil`.
  static func parse(_ text: String) -> MisuseLevel? {
    MisuseLevel(rawValue: text) ?? journalctl.first { $0.name == text }?.level
  }
}
