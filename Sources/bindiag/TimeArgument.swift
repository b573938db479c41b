import BindingDiagnostics
import Foundation

/// `--since`/`--until` values: RFC 3339, `-30s`, `-30m`, `-1h`, `-7d`, `now`, and `today`,
/// `yesterday`, `tomorrow`: midnight in local time (`TZ`), as journalctl reads them.
enum TimeArgument {
  /// The words taken besides times, as completions offer them.
  static let words = ["today", "yesterday", "tomorrow", "now"]

  /// The times the contract can write: years 0000 to 9999.
  static let range = Timestamp.earliest...Timestamp.latest

  /// The time `text` names, or `nil` when it names none. A relative time too far back for
  /// `Int64` gives `Int64.min`, which is out of ``range``.
  ///
  /// Times are kept in microseconds: an RFC 3339 time with finer digits is rounded down, or up
  /// when `roundingUp` (a `--since`: a record at `.347497` is before `.3474971`, so it must not
  /// be taken).
  static func parse(_ text: String, now: Timestamp, roundingUp: Bool = false) -> Timestamp? {
    if let time = Timestamp(rfc3339: text) {
      guard roundingUp, hasSubMicrosecondDigits(text),
        time.microsecondsSinceEpoch < Timestamp.latest
      else { return time }
      return Timestamp(microsecondsSinceEpoch: time.microsecondsSinceEpoch + 1)
    }
    if text == "now" { return now }
    if let days = ["today": 0, "yesterday": -1, "tomorrow": 1][text] {
      return midnight(days, from: now)
    }
    let digits = text.utf8.dropFirst().dropLast()
    guard text.utf8.first == UInt8(ascii: "-"), !digits.isEmpty,
      digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { return nil }
    let unitMicros: Int64
    switch text.utf8.last {
    case UInt8(ascii: "s"): unitMicros = 1_000_000
    case UInt8(ascii: "m"): unitMicros = 60_000_000
    case UInt8(ascii: "h"): unitMicros = 3_600_000_000
    case UInt8(ascii: "d"): unitMicros = 86_400_000_000
    default: return nil
    }
    guard let amount = Int64(String(decoding: digits, as: UTF8.self)) else {
      return Timestamp(microsecondsSinceEpoch: .min)
    }
    let (back, overflow) = amount.multipliedReportingOverflow(by: unitMicros)
    let (micros, under) = now.microsecondsSinceEpoch.subtractingReportingOverflow(back)
    return Timestamp(microsecondsSinceEpoch: overflow || under ? .min : micros)
  }

  /// Whether the fraction of an RFC 3339 time has a non-zero digit past the sixth.
  private static func hasSubMicrosecondDigits(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count > 19, bytes[19] == UInt8(ascii: ".") else { return false }
    let digits = bytes[20...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    return digits.dropFirst(6).contains { $0 != UInt8(ascii: "0") }
  }

  /// Local midnight `days` days from the day of `now` (the day's first moment where a time
  /// zone change skips midnight).
  private static func midnight(_ days: Int, from now: Timestamp) -> Timestamp? {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone.current
    let today = calendar.startOfDay(
      for: Date(timeIntervalSince1970: Double(now.microsecondsSinceEpoch) / 1_000_000))
    guard let day = calendar.date(byAdding: .day, value: days, to: today) else { return nil }
    return Timestamp(
      microsecondsSinceEpoch: Int64((day.timeIntervalSince1970 * 1_000_000).rounded()))
  }
}
