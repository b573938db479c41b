import BindingDiagnostics
import Testing

@Suite struct PrivacyTests {
  /// The first 16 entries of `vectors_sip64` of the SipHash reference implementation:
  /// key 00 01 … 0f, message 00 01 … (n-1).
  static let referenceVectors = [
    "310e0edd47db6f72", "fd67dc93c539f874", "5a4fa9d909806c0d", "2d7efbd796666785",
    "b7877127e09427cf", "8da699cd64557618", "cee3fe586e46c9cb", "37d1018bf50002ab",
    "6224939a79f5f593", "b0e4a90bdf82009e", "f3b9dd94c5bb5d7a", "a7ad6b22462fb3f4",
    "fbe50e86bc8f1e75", "903d84c02756ea14", "eef27a8e90ca23f7", "e545be4961ca29a1",
  ]

  @Test(arguments: 0..<16)
  func sipHashMatchesTheReferenceVectors(length: Int) throws {
    let key = try #require(HashKey(bytes: Array(0..<16)))
    #expect(key.sipHash24Hex(Array(0..<UInt8(length))) == PrivacyTests.referenceVectors[length])
  }

  @Test func hashKeyParsesHexAndRejectsOtherText() throws {
    let fromHex = try #require(HashKey(hex: "000102030405060708090a0b0c0d0e0f"))
    #expect(fromHex == HashKey(bytes: Array(0..<16)))
    #expect(HashKey(hex: "0001") == nil)
    #expect(HashKey(hex: String(repeating: "zz", count: 16)) == nil)
  }

  @Test func privateHidesHashIsStablePublicShows() throws {
    let key = try #require(HashKey(bytes: Array(0..<16)))
    #expect(ValuePrivacy.private.render("secret") == "<private>")
    let hashed = ValuePrivacy.hash(key: key).render("secret")
    #expect(hashed.hasPrefix("hash:"))
    #expect(hashed.count == 21)
    #expect(hashed == "hash:" + key.sipHash24Hex(Array("secret".utf8)))
    #expect(ValuePrivacy.hash(key: key).render("other") != hashed)
    #expect(ValuePrivacy.public.render(42) == "42")
  }

  @Test func publicValuesAreCutAtOneKiB() {
    let long = String(repeating: "é", count: 1000)  // 2000 bytes
    let rendered = ValuePrivacy.public.render(long)
    #expect(rendered.utf8.count <= 1024)
    #expect(rendered.hasSuffix("…"))
    #expect(rendered.dropLast().allSatisfy { $0 == "é" })
  }
}
