#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A point in time with microsecond precision, as the contract's `ts` carries it.
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  /// Microseconds since 1970-01-01T00:00:00Z.
  public var microsecondsSinceEpoch: Int64

  /// A timestamp at `microsecondsSinceEpoch` microseconds after the Unix epoch.
  public init(microsecondsSinceEpoch: Int64) {
    self.microsecondsSinceEpoch = microsecondsSinceEpoch
  }

  /// The current wall-clock time (`clock_gettime(CLOCK_REALTIME)`).
  public static func now() -> Timestamp {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    return Timestamp(
      microsecondsSinceEpoch: Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000)
  }

  /// Orders timestamps in time.
  public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
    lhs.microsecondsSinceEpoch < rhs.microsecondsSinceEpoch
  }

  /// The contract form, `2026-11-30T04:12:33.123456Z` (clamped to years 0000–9999).
  public var description: String { rfc3339 }

  /// RFC 3339 in UTC with exactly six fractional digits and `Z`.
  public var rfc3339: String {
    var bytes = [UInt8]()
    bytes.reserveCapacity(27)
    appendRFC3339(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the contract form to `bytes` without building an intermediate string.
  package func appendRFC3339(to bytes: inout [UInt8]) {
    bytes.appendWriting(upTo: 27) { write(to: &$0) }
  }

  /// The earliest time the contract form can show: 0000-01-01T00:00:00.000000Z.
  package static let earliest: Int64 = -62_167_219_200_000_000
  /// The latest time the contract form can show: 9999-12-31T23:59:59.999999Z.
  package static let latest: Int64 = 253_402_300_799_999_999

  /// Writes the contract form, 27 bytes. Times outside years 0000–9999, which RFC 3339 cannot
  /// write, are written as the nearest end of that range, so the output is always valid.
  func write(to out: inout ByteWriter) {
    let micros = min(max(microsecondsSinceEpoch, Timestamp.earliest), Timestamp.latest)
    var seconds = micros / 1_000_000
    var fraction = micros % 1_000_000
    if fraction < 0 {
      fraction += 1_000_000
      seconds -= 1
    }
    var days = seconds / 86_400
    var secondOfDay = seconds % 86_400
    if secondOfDay < 0 {
      secondOfDay += 86_400
      days -= 1
    }
    let (year, month, day) = Timestamp.civil(fromDays: days)
    out.twoDigits(year / 100 % 100)
    out.twoDigits(year % 100)
    out.byte(UInt8(ascii: "-"))
    out.twoDigits(month)
    out.byte(UInt8(ascii: "-"))
    out.twoDigits(day)
    out.byte(UInt8(ascii: "T"))
    out.twoDigits(secondOfDay / 3600)
    out.byte(UInt8(ascii: ":"))
    out.twoDigits(secondOfDay / 60 % 60)
    out.byte(UInt8(ascii: ":"))
    out.twoDigits(secondOfDay % 60)
    out.byte(UInt8(ascii: "."))
    out.twoDigits(fraction / 10_000)
    out.twoDigits(fraction / 100 % 100)
    out.twoDigits(fraction % 100)
    out.byte(UInt8(ascii: "Z"))
  }

  /// Parses RFC 3339: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; `t`/space accepted for `T`.
  ///
  /// Fractions beyond microseconds are truncated. Returns `nil` for anything else.
  public init?(rfc3339 text: some StringProtocol) {
    var bytes = Array(text.utf8)
    guard bytes.count >= 20 else { return nil }
    func number(_ start: Int, _ count: Int) -> Int64? {
      var value: Int64 = 0
      for index in start..<(start + count) {
        let byte = bytes[index]
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int64(byte - UInt8(ascii: "0"))
      }
      return value
    }
    if bytes[10] == UInt8(ascii: "t") || bytes[10] == UInt8(ascii: " ") {
      bytes[10] = UInt8(ascii: "T")
    }
    guard let year = number(0, 4), bytes[4] == UInt8(ascii: "-"), let month = number(5, 2),
      bytes[7] == UInt8(ascii: "-"), let day = number(8, 2), bytes[10] == UInt8(ascii: "T"),
      let hour = number(11, 2), bytes[13] == UInt8(ascii: ":"), let minute = number(14, 2),
      bytes[16] == UInt8(ascii: ":"), let second = number(17, 2),
      (1...12).contains(month), day >= 1, day <= Timestamp.daysIn(month: month, year: year),
      hour < 24, minute < 60, second < 61
    else { return nil }
    var index = 19
    var fraction: Int64 = 0
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      var digitsSeen = 0
      while index < bytes.count, bytes[index] >= UInt8(ascii: "0"),
        bytes[index] <= UInt8(ascii: "9")
      {
        if digitsSeen < 6 { fraction = fraction * 10 + Int64(bytes[index] - UInt8(ascii: "0")) }
        digitsSeen += 1
        index += 1
      }
      guard digitsSeen > 0 else { return nil }
      for _ in min(digitsSeen, 6)..<6 { fraction *= 10 }
    }
    guard index < bytes.count else { return nil }
    var offsetSeconds: Int64 = 0
    switch bytes[index] {
    case UInt8(ascii: "Z"), UInt8(ascii: "z"):
      guard index + 1 == bytes.count else { return nil }
    case UInt8(ascii: "+"), UInt8(ascii: "-"):
      guard index + 6 == bytes.count, let offsetHour = number(index + 1, 2),
        bytes[index + 3] == UInt8(ascii: ":"), let offsetMinute = number(index + 4, 2),
        offsetHour < 24, offsetMinute < 60
      else { return nil }
      offsetSeconds = (offsetHour * 3600 + offsetMinute * 60)
      if bytes[index] == UInt8(ascii: "+") { offsetSeconds = -offsetSeconds }
    default: return nil
    }
    let days = Timestamp.days(fromCivil: year, month, day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) + offsetSeconds
    self.microsecondsSinceEpoch = seconds * 1_000_000 + fraction
  }

  package static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
  package static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The proleptic Gregorian date of a day count since 1970-01-01.
  static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
