#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Remembers recent byte strings of one field and their `String`s (32 sets of 2 slots, the set
/// picked by a cheap hash of the length and the first and last eight bytes), so the reader builds a `String`, and checks its format, only
/// when a value is new: runs, hosts and processes interleave, but come from a small set.
struct StringCache: Sendable {
  private struct Slot: Sendable {
    var bytes: [UInt8] = []
    var text = ""
    var checked = false
  }

  private var slots = [Slot](repeating: Slot(), count: 64)
  /// Per set, the slot to replace next (the one used least recently).
  private var victims = [UInt8](repeating: 0, count: 32)
  private var current = 0

  /// Whether the string last returned passed the caller's format check.
  var checked: Bool {
    get { slots[current].checked }
    set { slots[current].checked = newValue }
  }

  /// The string for `slice`, reusing a remembered one when the bytes are the same.
  /// `nil` when the bytes are not valid UTF-8 (checked only for non-ASCII input).
  mutating func string(_ slice: UnsafeBufferPointer<UInt8>, ascii: Bool) -> String? {
    let count = slice.count
    var hash = count
    if count > 0 {
      hash =
        hash &* 31 &+ Int(slice[0]) &* 7 &+ Int(slice[count - 1]) &+ Int(slice[count / 2]) &* 13
    }
    let index = hash & 15
    current = index
    if slots[index].bytes.count == count,
      count == 0
        || slots[index].bytes.withUnsafeBufferPointer({
          memcmp($0.baseAddress!, slice.baseAddress!, count) == 0
        })
    {
      return slots[index].text
    }
    let decoded: String
    if ascii {
      decoded = String(decoding: slice, as: UTF8.self)
    } else {
      guard let validated = String(validating: slice, as: UTF8.self) else { return nil }
      decoded = validated
    }
    slots[index] = Slot(bytes: Array(slice), text: decoded, checked: false)
    return decoded
  }
}
