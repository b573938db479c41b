/// The day of the last contract timestamp read: the lines of a file share a few days, so the
/// date's digits are checked and converted once per day, not once per line.
struct ContractDay: Sendable {
  var date: UInt64 = 0
  var tail: UInt16 = 0
  var days: Int64 = 0
  var known = false
  /// Bytes 8 to 15 (`DDTHH:MM`) of the last timestamp read, and the seconds since the epoch of
  /// its minute: the lines of a file share far fewer minutes than lines, so the hour and minute
  /// too are checked and converted once per minute.
  var minute: UInt64 = 0
  var minuteSeconds: Int64 = 0
  var minuteKnown = false
}
