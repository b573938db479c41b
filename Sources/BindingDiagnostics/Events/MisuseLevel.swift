/// The severity of a misuse report, ordered from least to most severe.
///
/// The raw values are the contract's `level` strings; ``syslogPriority`` is the journald
/// `PRIORITY` the journald sink writes beside `BINDING_LEVEL`.
public enum MisuseLevel: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
  /// Finest-grained detail.
  case trace
  /// Debugging detail.
  case debug
  /// Informational.
  case info
  /// Normal but significant.
  case notice
  /// A misuse whose effect was contained (for example a value returned from a stale cache).
  case warning
  /// A misuse that changed what the user sees (for example a presentation that never happens).
  case error
  /// A misuse that would have crashed the app.
  case critical

  /// The syslog priority journald stores in `PRIORITY` (7 7 6 5 4 3 2).
  public var syslogPriority: Int {
    switch self {
    case .trace, .debug: 7
    case .info: 6
    case .notice: 5
    case .warning: 4
    case .error: 3
    case .critical: 2
    }
  }

  /// 0 for `trace` … 6 for `critical`. Inlinable: the report reader ranks every record it
  /// aggregates, and a call into this module per record showed in its profile.
  @inlinable package var rank: Int {
    switch self {
    case .trace: 0
    case .debug: 1
    case .info: 2
    case .notice: 3
    case .warning: 4
    case .error: 5
    case .critical: 6
    }
  }

  /// Orders levels by severity: `trace < debug < … < critical`.
  public static func < (lhs: MisuseLevel, rhs: MisuseLevel) -> Bool { lhs.rank < rhs.rank }
}
