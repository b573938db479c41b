import BindingDiagnostics
import BindingDiagnosticsReport
import Foundation
import Testing

/// `bindiag export --format otlp` writes contract lines straight from their bytes
/// (``OTLPRecords``): the bytes must be those written for the event the line decodes to.
@Suite struct OTLPContractLineTests {
  /// The OTLP lines of `lines`, each taken as its bytes where the scanner takes it (`fast`) or
  /// as the event the exact reader decodes from it; `nil` for a line that is no event.
  static func encoded(_ lines: [[UInt8]], fast: Bool, batch: Int) -> (bytes: [UInt8], taken: Int) {
    var scanner = ContractLineScanner()
    var records = OTLPRecords()
    var taken = 0
    // The lines stay in place until they are encoded, as a chunk's buffer does.
    let joined = lines.map { $0 + [0x0a] }.joined()
    let all = Array(joined)
    return all.withUnsafeBufferPointer { buffer in
      var start = 0
      for line in lines {
        let bytes = UnsafeBufferPointer(rebasing: buffer[start..<(start + line.count)])
        start += line.count + 1
        if fast, records.append(contractLine: bytes, scanner: &scanner) {
          taken += 1
          continue
        }
        if case .event(let event) = LineClassifier.classifyExactly(bytes) { records.append(event) }
      }
      return (records.encoded(batch: batch, version: "9.9.9"), taken)
    }
  }

  /// ``OTLPEncoderTests/events(_:)`` (hostile text, times from year 0 to 9999, optional fields,
  /// run records, three runs), every other one with text a writer needs no escape for, as most
  /// records are (plain, empty, non-ASCII, `=`, DEL).
  static func events(_ count: Int) -> [MisuseEvent] {
    var random = SeededGenerator(seed: 36)
    let plain = ["plain", "", "ünïcode 😀", "a=b", "del\u{7f}", "App/Views/Screen5View.swift"]
    func text() -> String { plain.randomElement(using: &random)! }
    return OTLPEncoderTests.events(count).enumerated().map { index, event in
      guard index % 2 == 0 else { return event }
      var event = event
      (event.message, event.file, event.function) = (text(), text(), text())
      if event.value != nil { event.value = text() }
      if event.label != nil { event.label = text() }
      if event.test != nil { event.test = text() }
      return event
    }
  }

  /// Where two outputs first differ, with some text of each there; `nil` when they are equal.
  static func difference(_ fast: [UInt8], _ events: [UInt8]) -> String? {
    guard fast != events else { return nil }
    let at =
      (0..<min(fast.count, events.count)).first { fast[$0] != events[$0] }
      ?? min(fast.count, events.count)
    func around(_ bytes: [UInt8]) -> String {
      String(decoding: bytes[max(0, at - 60)..<min(bytes.count, at + 60)], as: UTF8.self)
    }
    return "byte \(at): \(around(fast)) | \(around(events))"
  }

  @Test func contractLinesEncodeAsTheirEvents() {
    let lines = OTLPContractLineTests.events(1500).map { Array(line($0).utf8) }
    for batch in [1, 7, 1000] {
      let fast = OTLPContractLineTests.encoded(lines, fast: true, batch: batch)
      let events = OTLPContractLineTests.encoded(lines, fast: false, batch: batch)
      #expect(OTLPContractLineTests.difference(fast.bytes, events.bytes) == nil, "batch \(batch)")
      // Most lines take the fast way, or this proves little.
      #expect(fast.taken > 500, "batch \(batch): \(fast.taken) of 1500 taken")
    }
  }

  @Test func editedLinesEncodeAsTheirEventsOrAreLeftToTheReader() {
    // Lines edited one to three times (blanks, escapes, dropped keys, retyped numbers, cuts,
    // flipped bytes…): whatever the scanner takes encodes as the exact reader's event.
    var random = SeededGenerator(seed: 35)
    let lines = OTLPContractLineTests.events(6000).map { event in
      var bytes = Array(line(event).utf8)
      for _ in 0..<Int.random(in: 0...3, using: &random) { mutate(&bytes, &random) }
      return bytes
    }
    let fast = OTLPContractLineTests.encoded(lines, fast: true, batch: 50)
    let events = OTLPContractLineTests.encoded(lines, fast: false, batch: 50)
    #expect(OTLPContractLineTests.difference(fast.bytes, events.bytes) == nil)
    #expect(fast.taken > 600)
    #expect(fast.taken < 5800)
  }

  /// `line` with a byte that is not UTF-8 at the start of its host.
  static func notUTF8(_ line: [UInt8]) -> [UInt8] {
    let key = Array(#""host":""#.utf8)
    var bytes = line
    let at = (0...(bytes.count - key.count)).first { Array(bytes[$0..<($0 + key.count)]) == key }!
    bytes.insert(0xff, at: at + key.count)
    return bytes
  }

  @Test func aLineIsTakenOnlyWhenItsEventWouldBe() {
    // Text that is not UTF-8, a kind or run out of format, an escape: each left to the reader.
    let good = Array(line(OTLPContractLineTests.events(1)[0]).utf8)
    let text = String(decoding: good, as: UTF8.self)
    let bad: [[UInt8]] = [
      Array(text.replacingOccurrences(of: #""host":""#, with: #""host":"\u00e9"#).utf8),
      Array(text.replacingOccurrences(of: #""kind":""#, with: #""kind":"Bad-"#).utf8),
      Array(text.replacingOccurrences(of: #""run":""#, with: #""run":"x"#).utf8),
      OTLPContractLineTests.notUTF8(good),
    ]
    var scanner = ContractLineScanner()
    var records = OTLPRecords()
    #expect(good.withUnsafeBufferPointer { records.append(contractLine: $0, scanner: &scanner) })
    for line in bad {
      #expect(!line.withUnsafeBufferPointer { records.append(contractLine: $0, scanner: &scanner) })
    }
    #expect(records.count == 1)
  }
}
