import BindingDiagnostics

/// A `StaticString` made from a run-time string, for `XCTFail`, which takes its file only so.
///
/// `StaticString` is a frozen type: a pointer to UTF-8 bytes, their count and flags (none: a
/// pointer form, not known to be ASCII). The bytes are copied once per distinct text and never
/// freed, so the `StaticString` stays valid for the life of the process, as a literal's would.
enum InternedStaticString {
  private struct Layout {
    let start: UnsafeRawPointer
    let count: Int
    let flags: UInt8
  }

  private static let interned = Lock<[String: Int]>([:])

  /// A `StaticString` holding `text`'s UTF-8 bytes.
  /// - Parameter text: The text, usually a file path.
  /// - Returns: The static string.
  static func of(_ text: String) -> StaticString {
    let address = interned.withLock { interned -> Int in
      if let known = interned[text] { return known }
      let bytes = Array(text.utf8)
      let storage = UnsafeMutableRawPointer.allocate(byteCount: bytes.count + 1, alignment: 1)
      storage.copyMemory(from: bytes, byteCount: bytes.count)
      storage.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self)
      interned[text] = Int(bitPattern: storage)
      return Int(bitPattern: storage)
    }
    guard let start = UnsafeRawPointer(bitPattern: address),
      MemoryLayout<Layout>.size == MemoryLayout<StaticString>.size
    else { return "<unknown>" }
    return unsafeBitCast(
      Layout(start: start, count: text.utf8.count, flags: 0), to: StaticString.self)
  }
}
