import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Timestamp {
  /// Parses the contract's exact 27-byte form without allocating; `nil` for anything else.
  init?(contractBytes b: UnsafeBufferPointer<UInt8>) {
    var day = ContractDay()
    self.init(contractBytes: b, day: &day)
  }

  /// Parses the contract's exact 27-byte form, reusing `day` when the date is the same.
  init?(contractBytes b: UnsafeBufferPointer<UInt8>, day: inout ContractDay) {
    guard b.count == 27, b[10] == UInt8(ascii: "T"), b[13] == UInt8(ascii: ":"),
      b[16] == UInt8(ascii: ":"), b[19] == UInt8(ascii: "."), b[26] == UInt8(ascii: "Z")
    else { return nil }
    // Every digit position at once: any byte that is not 0-9 makes `bad` non-zero.
    var bad: UInt8 = 0
    @inline(__always) func digit(_ offset: Int) -> Int64 {
      let value = b[offset] &- UInt8(ascii: "0")
      bad |= value > 9 ? 1 : 0
      return Int64(value)
    }
    let raw = UnsafeRawPointer(b.baseAddress!)
    let date = raw.loadUnaligned(as: UInt64.self)
    let minuteBytes = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    if day.minuteKnown, date == day.date, minuteBytes == day.minute {
      // The same minute as the last timestamp: only `SS` and `ffffff` are new. The fraction is
      // bytes 1 to 6 of the word at 19 (`.ffffffZ`), its digits checked and converted at once.
      let second = digit(17) * 10 + digit(18)
      let digits = raw.loadUnaligned(fromByteOffset: 19, as: UInt64.self) ^ 0x3030_3030_3030_3030
      let notDigit =
        (digits & 0xf0f0_f0f0_f0f0_f0f0)
        | (((digits & 0x0f0f_0f0f_0f0f_0f0f) &+ 0x0606_0606_0606_0606) & 0x1010_1010_1010_1010)
      guard bad == 0, notDigit & 0x00ff_ffff_ffff_ff00 == 0, second < 61 else { return nil }
      var fraction = (digits &<< 8) & 0xffff_ffff_ffff_0000
      fraction = ((fraction &* 10) &+ (fraction &>> 8)) & 0x00ff_00ff_00ff_00ff
      fraction = ((fraction &* 100) &+ (fraction &>> 16)) & 0x0000_ffff_0000_ffff
      fraction = ((fraction &* 10000) &+ (fraction &>> 32)) & 0xffff_ffff
      self.init(
        microsecondsSinceEpoch: (day.minuteSeconds + min(second, 59)) * 1_000_000
          + Int64(fraction))
      return
    }
    let tail = raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
    let days: Int64
    if day.known, date == day.date, tail == day.tail {
      days = day.days
    } else {
      guard b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-") else { return nil }
      let year = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3)
      let month = digit(5) * 10 + digit(6)
      let dayOfMonth = digit(8) * 10 + digit(9)
      guard bad == 0, (1...12).contains(month), dayOfMonth >= 1,
        dayOfMonth <= Timestamp.daysIn(month: month, year: year)
      else { return nil }
      days = Timestamp.days(fromCivil: year, month, dayOfMonth)
      day = ContractDay(date: date, tail: tail, days: days, known: true)
    }
    let hour = digit(11) * 10 + digit(12)
    let minute = digit(14) * 10 + digit(15)
    let second = digit(17) * 10 + digit(18)
    var fraction: Int64 = 0
    for offset in 20..<26 { fraction = fraction * 10 + digit(offset) }
    guard bad == 0, hour < 24, minute < 60, second < 61 else { return nil }
    day.minute = minuteBytes
    day.minuteSeconds = days * 86_400 + hour * 3600 + minute * 60
    day.minuteKnown = true
    let seconds = day.minuteSeconds + min(second, 59)
    self.init(microsecondsSinceEpoch: seconds * 1_000_000 + fraction)
  }
}
