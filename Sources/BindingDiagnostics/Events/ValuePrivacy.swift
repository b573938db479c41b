/// How the optional's value appears in a report (`value`, `BINDING_VALUE`).
public enum ValuePrivacy: Sendable, Hashable {
  /// The value is written as `<private>`. The default.
  case `private`
  /// The value is written as `hash:` and 16 hex digits of SipHash-2-4 of its
  /// `String(describing:)` text under `key`: equal values give equal hashes, under the same key.
  case hash(key: HashKey)
  /// The value's `String(describing:)` text, cut at ``ValuePrivacy/publicValueLimit`` bytes with `…`.
  case `public`

  /// The longest public value, in UTF-8 bytes, before it is cut and ends with `…`.
  public static let publicValueLimit = 1024

  /// The text for `value` under this setting. `String(describing:)` runs only for `.hash` and `.public`.
  /// - Parameter value: The optional's wrapped value.
  public func render(_ value: Any) -> String {
    switch self {
    case .private:
      return "<private>"
    case .hash(let key):
      let text = String(describing: value)
      return "hash:" + Hex.littleEndianBytes(SipHash24.hash(text.utf8, key: key.words))
    case .public:
      return Truncation.cut(String(describing: value), maxBytes: ValuePrivacy.publicValueLimit)
    }
  }

  /// The name used in configuration: `private`, `hash` or `public`.
  public var name: String {
    switch self {
    case .private: "private"
    case .hash: "hash"
    case .public: "public"
    }
  }
}

/// A 128-bit SipHash key.
public struct HashKey: Sendable, Hashable {
  let words: (UInt64, UInt64)

  /// A key from 16 bytes; the first 8 form k0 and the last 8 k1, each little-endian (SipHash's layout).
  /// - Parameter bytes: Exactly 16 bytes, or the initializer fails.
  public init?(bytes: [UInt8]) {
    guard bytes.count == 16 else { return nil }
    var k0: UInt64 = 0
    var k1: UInt64 = 0
    for index in 0..<8 {
      k0 |= UInt64(bytes[index]) << (UInt64(index) * 8)
      k1 |= UInt64(bytes[index + 8]) << (UInt64(index) * 8)
    }
    words = (k0, k1)
  }

  /// A key from 32 hex digits (the configuration form).
  /// - Parameter hex: 32 hex digits, or the initializer fails.
  public init?(hex: String) {
    guard let bytes = Hex.bytes(hex, count: 16) else { return nil }
    self.init(bytes: bytes)
  }

  /// A key from the system's random source; hashes under it match only within this process.
  public static func random() -> HashKey {
    var generator = SystemRandomNumberGenerator()
    return HashKey(words: (generator.next(), generator.next()))
  }

  private init(words: (UInt64, UInt64)) { self.words = words }

  /// Keys are equal when their 128 bits are.
  public static func == (lhs: HashKey, rhs: HashKey) -> Bool {
    lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1
  }

  /// Hashes the key's bits.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(words.0)
    hasher.combine(words.1)
  }
}

extension HashKey {
  /// SipHash-2-4 of `bytes` under this key, as the 8 output bytes in hex (the reference vectors' order).
  /// - Parameter bytes: The message.
  public func sipHash24Hex(_ bytes: [UInt8]) -> String {
    Hex.littleEndianBytes(SipHash24.hash(bytes, key: words))
  }
}
