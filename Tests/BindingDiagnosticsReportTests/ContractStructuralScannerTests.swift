import BindingDiagnostics
import Testing

@testable import BindingDiagnosticsReport

/// The structural scan (quote bits, then fields in key order) must return, for every line it
/// takes, exactly the fields of the byte-by-byte scan, and leave to it every line it does not.
@Suite struct ContractStructuralScannerTests {
  /// 20 000 contract lines of every text variety, numbers of every width, lengths across the
  /// 64-byte blocks and past the longest line scanned, blanks after the object; most edited one
  /// to three times by ``mutate(_:_:)``.
  @Test func structuralScanEqualsTheByteByByteScan() {
    var random = SeededGenerator(seed: 31)
    var taken = 0
    var left = 0
    var disagreements: [String] = []
    for index in 0..<20_000 {
      var event = randomEvent(&random, seq: Self.number(&random, atLeast: 1))
      event.line = Self.number(&random, atLeast: 0)
      event.pid = Self.number(&random, atLeast: 0)
      if Bool.random(using: &random) {
        // Plain ASCII text, so that the structural scan takes most of these lines.
        event.message = String(repeating: "m", count: Int.random(in: 0..<700, using: &random))
        event.file = "App/" + String(repeating: "f", count: Int.random(in: 0..<40, using: &random))
        event.function = "body"
        event.value = Bool.random(using: &random) ? nil : "<private>"
        event.label = Bool.random(using: &random) ? nil : "label"
        event.test = Bool.random(using: &random) ? nil : "Suite/test()"
        event.suppressed = Self.number(&random, atLeast: 0)
      }
      if index % 5 == 0 {
        // A run record's counts.
        event.runRecords = Self.number(&random, atLeast: 0)
        event.runEvents = Self.number(&random, atLeast: 0)
        event.runDropped = Self.number(&random, atLeast: 0)
      }
      var bytes = Array(line(event).utf8)
      if index % 3 != 0 {
        for _ in 0..<Int.random(in: 1...3, using: &random) { mutate(&bytes, &random) }
      }
      if index % 7 == 0 {
        bytes += Array(repeating: 0x20, count: Int.random(in: 1...3, using: &random))
      }
      bytes.withUnsafeBufferPointer { line in
        var structuralDay = ContractDay()
        var day = ContractDay()
        var structural = ContractStructuralScanner.blank
        let byteByByte = ContractFastParser.scan(line, day: &day)
        guard ContractStructuralScanner.scan(line, day: &structuralDay, into: &structural) else {
          if byteByByte != nil { left += 1 }
          return
        }
        taken += 1
        guard let byteByByte, Self.same(structural, byteByByte, in: line) else {
          if disagreements.count < 3 { disagreements.append(String(decoding: line, as: UTF8.self)) }
          return
        }
      }
    }
    #expect(disagreements == [])
    // Both paths must be exercised, or the comparison proves little.
    #expect(taken > 2000)
    #expect(left > 400)
  }

  /// A number, `minimum` or more: mostly of one to seven digits (read from one load), one in
  /// four of one to eighteen (read byte by byte, some out of the contract's range).
  static func number(_ random: inout SeededGenerator, atLeast minimum: Int) -> Int {
    let digits = Int.random(
      in: 1...(Int.random(in: 0..<4, using: &random) == 0 ? 18 : 7), using: &random)
    var limit = 1
    for _ in 0..<digits { limit *= 10 }
    return max(minimum, Int.random(in: (limit / 10)..<limit, using: &random))
  }

  /// Whether two scans' fields are the same; a hash the byte-by-byte scan gives must be the
  /// table's hash of the field's bytes, and each set hash the structural scan gives must be
  /// that of its fields' bytes and lengths (``setHash(_:in:)``).
  static func same(
    _ a: ContractFastParser.Fields, _ b: ContractFastParser.Fields,
    in line: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    func same(_ x: ContractFastParser.Text?, _ y: ContractFastParser.Text?) -> Bool {
      guard let x, let y else { return x == nil && y == nil }
      guard x.start == y.start, x.end == y.end, x.ascii == y.ascii else { return false }
      if let hash = x.hash, hash != StringTable.hash(x.bytes(in: line)) { return false }
      if let hash = x.hash, let other = y.hash, hash != other { return false }
      return true
    }
    return a.timestamp == b.timestamp && a.level == b.level && same(a.kind, b.kind)
      && same(a.messageID, b.messageID) && same(a.message, b.message) && same(a.file, b.file)
      && a.line == b.line && same(a.function, b.function) && same(a.valueType, b.valueType)
      && a.valuePresent == b.valuePresent && same(a.value, b.value) && same(a.label, b.label)
      && same(a.test, b.test) && same(a.writer, b.writer) && same(a.process, b.process)
      && a.pid == b.pid && same(a.host, b.host) && same(a.run, b.run) && a.seq == b.seq
      && a.suppressed == b.suppressed && a.runRecords == b.runRecords
      && a.runEvents == b.runEvents && a.runDropped == b.runDropped
      && a.siteHash == setHash([a.kind, a.file, a.function, a.valueType], in: line)
      && a.runHash == setHash([a.run], in: line)
      && (a.label == nil && a.test == nil && a.writer == nil
        || a.extraHash == setHash([a.label, a.test, a.writer], in: line))
  }

  /// The hash of a set of fields (``ContractFieldSets``): each present field's bytes, then its
  /// length, fed to one ``StringTable/Hasher``.
  static func setHash(_ fields: [ContractFastParser.Text?], in line: UnsafeBufferPointer<UInt8>)
    -> UInt64
  {
    var hasher = StringTable.Hasher()
    for case let field? in fields {
      let bytes = Array(field.bytes(in: line))
      var offset = 0
      while offset < bytes.count {
        var word: UInt64 = 0
        for index in offset..<min(offset + 8, bytes.count) {
          word |= UInt64(bytes[index]) << (8 * (index - offset))
        }
        if bytes.count - offset >= 8 {
          hasher.combine(word)
        } else {
          hasher.combinePartial(word, count: bytes.count - offset)
        }
        offset += 8
      }
      hasher.combine(UInt64(bytes.count))
    }
    return hasher.finish(count: 0)
  }
}
