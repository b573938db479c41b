/// SipHash-2-4 (Aumasson and Bernstein), the keyed hash behind `hash:` values and derived ids.
enum SipHash24 {
  /// Hashes `bytes` under the 128-bit key `(k0, k1)` (each the little-endian half of the key).
  static func hash(_ bytes: some Collection<UInt8>, key: (UInt64, UInt64)) -> UInt64 {
    var v0: UInt64 = 0x736f_6d65_7073_6575 ^ key.0
    var v1: UInt64 = 0x646f_7261_6e64_6f6d ^ key.1
    var v2: UInt64 = 0x6c79_6765_6e65_7261 ^ key.0
    var v3: UInt64 = 0x7465_6462_7974_6573 ^ key.1

    @inline(__always) func round() {
      v0 &+= v1
      v1 = v1.rotateLeft(13)
      v1 ^= v0
      v0 = v0.rotateLeft(32)
      v2 &+= v3
      v3 = v3.rotateLeft(16)
      v3 ^= v2
      v0 &+= v3
      v3 = v3.rotateLeft(21)
      v3 ^= v0
      v2 &+= v1
      v1 = v1.rotateLeft(17)
      v1 ^= v2
      v2 = v2.rotateLeft(32)
    }

    var word: UInt64 = 0
    var shift: UInt64 = 0
    var count = 0
    for byte in bytes {
      word |= UInt64(byte) << shift
      shift += 8
      count += 1
      if shift == 64 {
        v3 ^= word
        round()
        round()
        v0 ^= word
        word = 0
        shift = 0
      }
    }
    word |= UInt64(truncatingIfNeeded: count) << 56
    v3 ^= word
    round()
    round()
    v0 ^= word
    v2 ^= 0xff
    round()
    round()
    round()
    round()
    return v0 ^ v1 ^ v2 ^ v3
  }
}

extension UInt64 {
  @inline(__always) fileprivate func rotateLeft(_ count: UInt64) -> UInt64 {
    (self << count) | (self >> (64 - count))
  }
}
