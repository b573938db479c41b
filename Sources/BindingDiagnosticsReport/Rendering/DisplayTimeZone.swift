import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The zone human formats show times in: the local one by default (`TZ`, else
/// `/etc/localtime`), as journalctl does, or UTC (`--utc`). Machine formats always write
/// RFC 3339 UTC.
package enum DisplayTimeZone: Sendable, Hashable {
  /// Coordinated Universal Time.
  case utc
  /// The process's local time zone.
  case local

  /// A time as a wall clock shows it.
  struct WallClock: Hashable {
    /// `2026-11-30`.
    var date: String
    /// `04:12:33`.
    var time: String
    /// The zone's abbreviation: `UTC`, `CET`, `IST`.
    var zone: String
  }

  /// `timestamp` on this zone's wall clock, to the second (years clamped to 0000–9999 as the
  /// contract form is).
  func wallClock(_ timestamp: Timestamp) -> WallClock {
    var micros = timestamp.microsecondsSinceEpoch
    var zone = "UTC"
    if self == .local, let local = DisplayTimeZone.localOffset(micros) {
      let (shifted, overflow) = micros.addingReportingOverflow(Int64(local.seconds) * 1_000_000)
      micros = overflow ? micros : shifted
      zone = local.zone
    }
    let text = Timestamp(microsecondsSinceEpoch: micros).rfc3339
    return WallClock(
      date: String(text.prefix(10)), time: String(text.dropFirst(11).prefix(8)), zone: zone)
  }

  /// The local zone's offset from UTC and its abbreviation at `micros` (`localtime_r`), or `nil`
  /// when the C library cannot place that time.
  private static func localOffset(_ micros: Int64) -> (seconds: Int, zone: String)? {
    var seconds = time_t(micros / 1_000_000)
    var parts = tm()
    guard localtime_r(&seconds, &parts) != nil else { return nil }
    let zone = parts.tm_zone.map { String(cString: $0) } ?? ""
    return (Int(parts.tm_gmtoff), zone.isEmpty ? "local" : zone)
  }
}
