import Testing

@testable import BindingDiagnosticsReport

/// The table keys strings by a seeded 64-bit hash, so two strings share one only by chance; their
/// bytes decide. Here every string is given the same hash, so only the byte comparison tells
/// them apart: strings of every length from 0 to 40 bytes, each differing from the one before
/// in a single byte (first, last or inside), keep ids of their own.
@Suite struct StringTableTests {
  @Test func stringsWithOneHashAreToldApartByTheirBytes() {
    var strings: [[UInt8]] = []
    for length in 0...40 {
      let base = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
      strings.append(base)
      for position in Set([0, length / 2, length - 1]) where position >= 0 && position < length {
        var other = base
        other[position] = UInt8(ascii: "Z")
        strings.append(other)
      }
    }
    var table = StringTable()
    var ids: [UInt32] = []
    for string in strings {
      let (id, new) = string.withUnsafeBufferPointer { table.intern($0, hash: 42) }
      #expect(new, "\(String(decoding: string, as: UTF8.self))")
      ids.append(id)
    }
    #expect(Set(ids).count == strings.count)
    // Each again: found, with its own id.
    for (string, id) in zip(strings, ids) {
      let (again, new) = string.withUnsafeBufferPointer { table.intern($0, hash: 42) }
      #expect(!new && again == id, "\(String(decoding: string, as: UTF8.self))")
    }
  }
}
