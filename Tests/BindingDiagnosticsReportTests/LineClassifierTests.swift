import BindingDiagnostics
import BindingDiagnosticsReport
import Foundation
import Testing

@Suite struct LineClassifierTests {
  @Test func contractLinesRoundTripThroughBothPaths() {
    var random = SeededGenerator(seed: 1)
    for _ in 0..<2000 {
      let event = randomEvent(&random)
      var bytes = JSONLinesEncoder().encode(event)
      bytes.removeLast()
      let (fast, exact) = classifyBytes(bytes)
      #expect(fast == .event(event))
      #expect(exact == .event(event))
    }
  }

  /// One classifier over a stream of lines whose timestamps share days and minutes (its cache
  /// of the last minute is hit), with seconds and fractions edited into other digits, other
  /// bytes and out-of-range values: every line reads as the exact parser reads it alone.
  @Test func timestampsOfOneMinuteReadAsTheExactParserReadsThem() {
    var random = SeededGenerator(seed: 5)
    var classifier = LineClassifier()
    var micros: Int64 = 1_796_000_000_000_000
    var disagreements = 0
    var events = 0
    var malformed = 0
    for _ in 0..<20_000 {
      micros += Int64.random(in: 0..<3_000_000, using: &random)
      var event = randomEvent(&random)
      event.timestamp = Timestamp(microsecondsSinceEpoch: micros)
      event.message = "plain"
      var bytes = Array(line(event).utf8)
      if Int.random(in: 0..<4, using: &random) == 0 {
        // `{"v":1,"ts":"` is 13 bytes; then the seconds at 17 and 18, the fraction at 20 to 25.
        let at = 13 + [17, 18, 20, 21, 22, 23, 24, 25].randomElement(using: &random)!
        bytes[at] = Array("0123456789:a/ ".utf8).randomElement(using: &random)!
      }
      let fast = bytes.withUnsafeBufferPointer { classifier.classify($0) }
      let exact = bytes.withUnsafeBufferPointer { LineClassifier.classifyExactly($0) }
      if fast != exact { disagreements += 1 }
      switch exact {
      case .event: events += 1
      case .malformed: malformed += 1
      default: break
      }
    }
    #expect(disagreements == 0)
    #expect(events > 15_000)
    #expect(malformed > 500)
  }

  @Test func logfmtLinesRoundTrip() {
    var random = SeededGenerator(seed: 2)
    for _ in 0..<2000 {
      let event = randomEvent(&random)
      var bytes = LogfmtEncoder().encode(event)
      bytes.removeLast()
      #expect(classifyBytes(bytes).fast == .event(event))
    }
  }

  @Test func fastAndExactPathsAgreeOnMutatedLines() {
    expectFastAndExactAgreeOnMutations(seed: 3) { randomEvent(&$0) }
  }

  @Test func reorderedAndSpacedObjectsTakeTheExactPath() throws {
    let event = sampleEvent()
    let reordered =
      #"{ "seq": 7, "run": "0123456789abcdef", "v": 1, "ts": "2026-11-30T04:12:33.123456Z", "level": "error", "kind": "mapped-bool-set-true", "message_id": "2b9f53b872d7905613eeb68e53797657", "msg": "hi", "file": "App/ContentView.swift", "line": 42, "function": "body", "value_type": "Swift.Optional<Swift.String>", "value_present": true, "process": "Demo", "pid": 4242, "host": "build-01", "suppressed": 0, "extra": [1, {"x": null}] }"#
    guard case .event(let decoded) = classify(reordered) else {
      Issue.record("not an event")
      return
    }
    #expect(decoded.seq == event.seq)
    #expect(decoded.message == "hi")
    #expect(decoded.value == nil)
  }

  @Test func journalctlJSONEntriesAreEvents() throws {
    let entry = #"""
      {"__CURSOR":"s=1","__REALTIME_TIMESTAMP":"1796011953123456","_PID":"4242","_HOSTNAME":"build-01","SYSLOG_IDENTIFIER":["Demo","Demo"],"MESSAGE":[104,105,10,116,104,101,114,101],"MESSAGE_ID":"2b9f53b872d7905613eeb68e53797657","PRIORITY":"3","CODE_FILE":"App/ContentView.swift","CODE_LINE":"42","CODE_FUNC":"body","BINDING_SCHEMA":"1","BINDING_TS":"2026-11-30T04:12:33.123456Z","BINDING_LEVEL":"error","BINDING_KIND":"mapped-bool-set-true","BINDING_VALUE_TYPE":"Swift.Optional<Swift.String>","BINDING_VALUE_PRESENT":"1","BINDING_VALUE":"<private>","BINDING_RUN":"0123456789abcdef","BINDING_SEQ":"7","BINDING_SUPPRESSED":"0"}
      """#
    var expected = sampleEvent()
    expected.message = "hi\nthere"
    #expect(classify(entry) == .event(expected))
  }

  /// A contract field as an array of numbers that are not bytes is malformed, not absent (a
  /// label `[300,-1]` became no label).
  @Test func aContractFieldOfNumbersThatAreNotBytesIsMalformed() throws {
    let entry = #"""
      {"__CURSOR":"s=1","__REALTIME_TIMESTAMP":"1796011953123456","_PID":"4242","_HOSTNAME":"build-01","SYSLOG_IDENTIFIER":"Demo","MESSAGE":"hi","MESSAGE_ID":"2b9f53b872d7905613eeb68e53797657","PRIORITY":"3","CODE_FILE":"App/ContentView.swift","CODE_LINE":"42","CODE_FUNC":"body","BINDING_SCHEMA":"1","BINDING_TS":"2026-11-30T04:12:33.123456Z","BINDING_LEVEL":"error","BINDING_KIND":"mapped-bool-set-true","BINDING_VALUE_TYPE":"Swift.Optional<Swift.String>","BINDING_VALUE_PRESENT":"1","BINDING_VALUE":"<private>","BINDING_LABEL":[300,-1],"BINDING_RUN":"0123456789abcdef","BINDING_SEQ":"7","BINDING_SUPPRESSED":"0"}
      """#
    #expect(
      classify(entry)
        == .malformed("BINDING_LABEL is an array of numbers that are not bytes (0 to 255)"))
    // journald's own fields may be any bytes: such a one is left out, the entry still an event.
    let own = entry.replacingOccurrences(
      of: #""BINDING_LABEL":[300,-1]"#, with: #""_COMM":[300,-1]"#)
    guard case .event = classify(own) else {
      Issue.record("\(classify(own))")
      return
    }
  }

  /// A contract field journalctl wrote as `null` (4 096 bytes or more, without `--all`) is
  /// malformed, saying so: its value was lost (a long label became no label, in silence). A
  /// journald field of its own that is `null` is left out.
  @Test func aNullContractFieldIsMalformedAndNamesJournalctlsAll() throws {
    let entry = #"""
      {"__CURSOR":"s=1","__REALTIME_TIMESTAMP":"1796011953123456","_PID":"4242","_HOSTNAME":"build-01","SYSLOG_IDENTIFIER":"Demo","MESSAGE":"hi","MESSAGE_ID":"2b9f53b872d7905613eeb68e53797657","PRIORITY":"3","CODE_FILE":"App/ContentView.swift","CODE_LINE":"42","CODE_FUNC":"body","BINDING_SCHEMA":"1","BINDING_TS":"2026-11-30T04:12:33.123456Z","BINDING_LEVEL":"error","BINDING_KIND":"mapped-bool-set-true","BINDING_VALUE_TYPE":"Swift.Optional<Swift.String>","BINDING_VALUE_PRESENT":"1","BINDING_VALUE":"<private>","BINDING_LABEL":null,"BINDING_RUN":"0123456789abcdef","BINDING_SEQ":"7","BINDING_SUPPRESSED":"0"}
      """#
    #expect(
      classify(entry)
        == .malformed(
          MalformedReason(
            stringLiteral: "BINDING_LABEL is null (journalctl writes a field of 4096 bytes or "
              + "more as null: run journalctl with --all)")))
    let own = entry.replacingOccurrences(of: #""BINDING_LABEL":null"#, with: #""_EXE":null"#)
    guard case .event = classify(own) else {
      Issue.record("\(classify(own))")
      return
    }
  }

  @Test func journalEntriesThatAreNotOursAreOther() {
    #expect(
      classify(#"{"__CURSOR":"s=1","__REALTIME_TIMESTAMP":"1","MESSAGE":"sshd started"}"#) == .other
    )
  }

  @Test(arguments: [
    (#"{"v":1"#, "unexpected end of line"),
    (#"{"v":2}"#, "unsupported schema version 2"),
    (#"{"ts":"x"}"#, #"missing key "v""#),
    (#"{"a":[1,2]}"#, #"missing key "v""#),
    (#"{"v":"1"}"#, #""v" must be an integer"#),
    (#"{"v":1,"ts":"yesterday"}"#, #""ts" is not an RFC 3339 time"#),
    (#"{"v":1} trailing"#, "trailing characters after the object"),
    ("{\"v\":1,\"msg\":\"a\u{0}b\"}", "control character in a string at byte 16"),
    (#"{"v":1,"ts":"2026-11-30T04:12:33.123456Z","level":"loud"}"#, #"unknown level "loud""#),
    ("v=1 kind=mapped-bool-set-true", #"missing key "ts""#),
    ("v=1 kind=x msg=\"unterminated", "not valid logfmt"),
    (#"{"v":1,"v":1}"#, #"duplicate key "v""#),
    (#"{"a":{"b":1,"b":2}}"#, #"duplicate key "b""#),
    ("v=1 kind=a-b v=1", #"duplicate key "v""#),
  ])
  func malformedLinesSayWhy(text: String, reason: String) {
    #expect(classify(text) == .malformed(MalformedReason(stringLiteral: reason)))
  }

  @Test func invalidUTF8IsMalformed() {
    var bytes = Array(line(sampleEvent()).utf8)
    let index = bytes.firstIndex(of: UInt8(ascii: "<"))!
    bytes[index] = 0xff
    let (fast, exact) = classifyBytes(bytes)
    #expect(fast == .malformed("invalid UTF-8 in a string"))
    #expect(exact == fast)
  }

  @Test(arguments: [
    "[1,2]", "hello world", "Listening on port 8080", "v=1 only version", "kind=x only kind",
    "2026-11-30 INFO started",
  ])
  func ordinaryOutputIsOther(text: String) {
    #expect(classify(text) == .other)
  }

  @Test(arguments: ["", "   ", "\t\r"])
  func blankLinesAreBlank(text: String) {
    #expect(classify(text) == .blank)
  }

  @Test func randomBytesNeverCrashAndAlwaysClassify() {
    var random = SeededGenerator(seed: 4)
    var counts = [0, 0, 0, 0]
    let total = 20_000
    for _ in 0..<total {
      var bytes = Array(line(randomEvent(&random)).utf8)
      let cut = Int.random(in: 0..<bytes.count, using: &random)
      bytes =
        Array(bytes[..<cut])
        + (0..<Int.random(in: 0..<20, using: &random)).map { _ in
          UInt8.random(in: 0...255, using: &random)
        }
      bytes.removeAll { $0 == 0x0a }
      switch classifyBytes(bytes).fast {
      case .event: counts[0] += 1
      case .malformed: counts[1] += 1
      case .other: counts[2] += 1
      case .blank: counts[3] += 1
      }
    }
    #expect(counts.reduce(0, +) == total)
    #expect(counts[1] > total / 2)
  }
}

/// 20 000 JSON lines of `make`'s events, each edited one to three times by ``mutate(_:_:)``:
/// the fast and the exact readers agree on every one, and the edits give over a thousand events
/// and a thousand malformed lines (or the test proves little).
func expectFastAndExactAgreeOnMutations(
  seed: UInt64, _ make: (inout SeededGenerator) -> MisuseEvent,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  var random = SeededGenerator(seed: seed)
  var disagreements = 0
  var events = 0
  var malformed = 0
  for _ in 0..<20_000 {
    var bytes = Array(line(make(&random)).utf8)
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      mutate(&bytes, &random)
    }
    let (fast, exact) = classifyBytes(bytes)
    if fast != exact { disagreements += 1 }
    switch exact {
    case .event: events += 1
    case .malformed: malformed += 1
    default: break
    }
  }
  #expect(disagreements == 0, sourceLocation: sourceLocation)
  #expect(events > 1000, sourceLocation: sourceLocation)
  #expect(malformed > 1000, sourceLocation: sourceLocation)
}

/// One random edit of a line: reorder, add blanks, escape, drop, retype, truncate, flip a byte,
/// repeat a key.
func mutate(_ bytes: inout [UInt8], _ random: inout SeededGenerator) {
  guard !bytes.isEmpty else { return }
  switch Int.random(in: 0..<10, using: &random) {
  case 0:  // a blank after a comma
    if let comma = bytes.indices.filter({ bytes[$0] == UInt8(ascii: ",") }).randomElement(
      using: &random)
    {
      bytes.insert(0x20, at: comma + 1)
    }
  case 1:  // escape a plain letter inside a string as \u00XX
    if let index = bytes.indices.filter({
      bytes[$0] >= UInt8(ascii: "a") && bytes[$0] <= UInt8(ascii: "z")
    }).randomElement(using: &random) {
      let hex = Array(String(format16(UInt64(bytes[index]))).suffix(2).utf8)
      bytes.replaceSubrange(index...index, with: Array(#"\u00"#.utf8) + hex)
    }
  case 2:  // drop a key-value pair by cutting between two commas
    let commas = bytes.indices.filter { bytes[$0] == UInt8(ascii: ",") }
    if commas.count > 2 {
      let start = Int.random(in: 0..<(commas.count - 1), using: &random)
      bytes.removeSubrange(commas[start]..<commas[start + 1])
    }
  case 3:  // a number becomes a string
    if let index = bytes.indices.filter({
      bytes[$0] == UInt8(ascii: ":") && $0 + 1 < bytes.count
        && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0 + 1])
    }).randomElement(using: &random) {
      bytes.insert(UInt8(ascii: "\""), at: index + 1)
      if let end = bytes[(index + 2)...].firstIndex(where: {
        $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "}")
      }) {
        bytes.insert(UInt8(ascii: "\""), at: end)
      }
    }
  case 4:  // truncate
    bytes.removeLast(Int.random(in: 1...min(40, bytes.count), using: &random))
  case 5:  // flip a byte
    let index = Int.random(in: 0..<bytes.count, using: &random)
    bytes[index] = UInt8.random(in: 0...255, using: &random)
    if bytes[index] == 0x0a { bytes[index] = 0x20 }
  case 6:  // an unknown key at the end
    if bytes.last == UInt8(ascii: "}") {
      bytes.insert(contentsOf: Array(#","extra":{"n":[1,2.5e3,null]}"#.utf8), at: bytes.count - 1)
    }
  case 7:  // a number in another form
    if let range = bytes.firstRange(of: Array(#""line":"#.utf8)) {
      bytes.insert(
        contentsOf: Array("1.0e1".utf8).prefix(Int.random(in: 1...5, using: &random)),
        at: range.upperBound)
    }
  case 9:  // a member given again, with its value or another one, anywhere
    let commas = bytes.indices.filter { bytes[$0] == UInt8(ascii: ",") }
    if commas.count > 2 {
      let pick = Int.random(in: 0..<(commas.count - 1), using: &random)
      var member = Array(bytes[commas[pick]..<commas[pick + 1]])
      if Bool.random(using: &random), let colon = member.firstIndex(of: UInt8(ascii: ":")) {
        member.replaceSubrange((colon + 1)..., with: Array("7".utf8))
      }
      let at = commas.randomElement(using: &random)!
      bytes.insert(contentsOf: member, at: at)
    }
  default:  // swap two adjacent members
    let commas = bytes.indices.filter { bytes[$0] == UInt8(ascii: ",") }
    if commas.count > 3 {
      let first = Int.random(in: 0..<(commas.count - 2), using: &random)
      let a = Array(bytes[(commas[first] + 1)..<commas[first + 1]])
      let b = Array(bytes[(commas[first + 1] + 1)..<commas[first + 2]])
      bytes.replaceSubrange(
        (commas[first] + 1)..<commas[first + 2], with: b + [UInt8(ascii: ",")] + a)
    }
  }
}

/// The fixed event of the exact-output tests.
func sampleEvent() -> MisuseEvent {
  MisuseEvent(
    timestamp: Timestamp(rfc3339: "2026-11-30T04:12:33.123456Z")!, level: .error,
    kind: .mappedBoolSetTrue,
    message: "A Binding<Bool> mapped from an optional was set to true; the write had no effect.",
    file: "App/ContentView.swift", line: 42, function: "body",
    valueType: "Swift.Optional<Swift.String>",
    valuePresent: true, value: "<private>", process: "Demo", pid: 4242, host: "build-01",
    run: "0123456789abcdef", seq: 7)
}
