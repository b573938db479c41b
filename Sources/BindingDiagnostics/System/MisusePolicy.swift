/// What happens after a misuse is reported.
public enum MisusePolicy: String, Sendable, Hashable, CaseIterable {
  /// Report and go on. The default.
  case report
  /// Report, flush, then `assertionFailure` (debug builds stop in the debugger; release builds go on).
  case assert
}
