/// Remembers the last byte string seen for one field and its `String`, so the reader builds a
/// `String` only when a field's value changes from one line to the next.
struct StringCache {
  private var bytes: [UInt8] = []
  private var text = ""

  /// The string for `slice`, reusing the last one when the bytes are the same.
  /// `nil` when the bytes are not valid UTF-8 (checked only for non-ASCII input).
  mutating func string(_ slice: UnsafeBufferPointer<UInt8>, ascii: Bool) -> String? {
    if slice.count == bytes.count,
      slice.isEmpty
        || bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, slice.baseAddress!, slice.count) == 0 })
    {
      return text
    }
    let decoded: String
    if ascii {
      decoded = String(decoding: slice, as: UTF8.self)
    } else {
      guard let validated = String(validating: slice, as: UTF8.self) else { return nil }
      decoded = validated
    }
    bytes = Array(slice)
    text = decoded
    return decoded
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
