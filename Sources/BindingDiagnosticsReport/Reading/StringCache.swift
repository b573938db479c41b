#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Remembers recent byte strings of one field and their `String`s, so the reader builds a
/// `String`, and checks its format, only when a value is new: runs, hosts and processes
/// interleave, but come from a small set. 32 sets of 2 slots; the set is picked by a hash of
/// the length and the first and last eight bytes, the slot replaced is the one used least
/// recently.
struct StringCache: Sendable {
  private struct Slot: Sendable {
    var bytes: [UInt8] = []
    var text = ""
    var checked = false
  }

  private var slots = [Slot](repeating: Slot(), count: 64)
  /// Per set, the way to replace next.
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
    let set = StringCache.set(of: slice)
    for way in 0..<2 {
      let index = set &* 2 &+ way
      if slots[index].bytes.count == count,
        count == 0
          || slots[index].bytes.withUnsafeBufferPointer({
            memcmp($0.baseAddress!, slice.baseAddress!, count) == 0
          })
      {
        current = index
        victims[set] = UInt8(1 - way)
        return slots[index].text
      }
    }
    let decoded: String
    if ascii {
      decoded = String(decoding: slice, as: UTF8.self)
    } else {
      guard let validated = String(validating: slice, as: UTF8.self) else { return nil }
      decoded = validated
    }
    let index = set &* 2 &+ Int(victims[set])
    victims[set] = 1 - victims[set]
    current = index
    slots[index] = Slot(bytes: Array(slice), text: decoded, checked: false)
    return decoded
  }

  /// The string of a contract line's text field.
  @inline(__always)
  mutating func string(_ text: ContractFastParser.Text, in line: UnsafeBufferPointer<UInt8>)
    -> String?
  {
    string(text.bytes(in: line), ascii: text.ascii)
  }

  /// 0…31 from the length and the first and last eight bytes, well mixed.
  private static func set(of slice: UnsafeBufferPointer<UInt8>) -> Int {
    let count = slice.count
    var mix = UInt64(truncatingIfNeeded: count) &* 0x9e37_79b9_7f4a_7c15
    if count >= 8 {
      let raw = UnsafeRawPointer(slice.baseAddress!)
      mix ^= raw.loadUnaligned(as: UInt64.self)
      mix = (mix ^ (mix >> 29)) &* 0xbf58_476d_1ce4_e5b9
      mix ^= raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    } else {
      for byte in slice { mix = (mix ^ UInt64(byte)) &* 0x0100_0000_01b3 }
    }
    mix = (mix ^ (mix >> 31)) &* 0x94d0_49bb_1331_11eb
    mix ^= mix >> 29
    return Int(truncatingIfNeeded: mix >> 59)
  }
}
