/// The day of the last contract timestamp read: the lines of a file share a few days, so the
/// date's digits are checked and converted once per day, not once per line.
struct ContractDay: Sendable {
  var date: UInt64 = 0
  var tail: UInt16 = 0
  var days: Int64 = 0
  var known = false
}
