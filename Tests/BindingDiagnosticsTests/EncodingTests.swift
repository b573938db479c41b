import BindingDiagnostics
import Foundation
import Testing

/// A fixed event for exact-output tests.
func sampleEvent(
  message: String =
    "A Binding<Bool> mapped from an optional was set to true; the write had no effect.",
  value: String? = "<private>", label: String? = nil, suppressed: Int = 0
) -> MisuseEvent {
  MisuseEvent(
    timestamp: Timestamp(rfc3339: "2026-11-30T04:12:33.123456Z")!, level: .error,
    kind: .mappedBoolSetTrue, message: message, file: "App/ContentView.swift", line: 42,
    function: "body", valueType: "Swift.Optional<Swift.String>", valuePresent: true, value: value,
    label: label, process: "Demo", pid: 4242, host: "build-01", run: "0123456789abcdef", seq: 7,
    suppressed: suppressed)
}

@Suite struct EncodingTests {
  @Test func jsonLinesIsTheExactContractForm() {
    let line = String(
      decoding: JSONLinesEncoder().encode(sampleEvent(label: "alert")), as: UTF8.self)
    #expect(
      line
        == #"{"v":1,"ts":"2026-11-30T04:12:33.123456Z","level":"error","kind":"mapped-bool-set-true","message_id":"2b9f53b872d7905613eeb68e53797657","msg":"A Binding<Bool> mapped from an optional was set to true; the write had no effect.","file":"App/ContentView.swift","line":42,"function":"body","value_type":"Swift.Optional<Swift.String>","value_present":true,"value":"<private>","label":"alert","process":"Demo","pid":4242,"host":"build-01","run":"0123456789abcdef","seq":7,"suppressed":0}"#
        + "\n")
  }

  @Test func jsonLinesOmitsAbsentOptionalFields() {
    let line = String(decoding: JSONLinesEncoder().encode(sampleEvent(value: nil)), as: UTF8.self)
    #expect(!line.contains("\"value\""))
    #expect(!line.contains("\"label\""))
    #expect(line.contains(#""value_present":true,"process":"Demo""#))
  }

  @Test func jsonLinesEscapesControlsQuotesAndBackslashes() throws {
    let nasty = "a\"b\\c\nd\re\tf\u{1}g\u{7f}h😀"
    let bytes = JSONLinesEncoder().encode(sampleEvent(message: nasty))
    let line = String(decoding: bytes, as: UTF8.self)
    #expect(line.contains(#""msg":"a\"b\\c\u000ad\u000de\u0009f\u0001g"#))
    #expect(line.filter { $0 == "\n" }.count == 1)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    #expect(object["msg"] as? String == nasty)
  }

  @Test func logfmtIsTheExactContractForm() {
    let line = String(decoding: LogfmtEncoder().encode(sampleEvent()), as: UTF8.self)
    #expect(
      line
        == #"v=1 ts=2026-11-30T04:12:33.123456Z level=error kind=mapped-bool-set-true message_id=2b9f53b872d7905613eeb68e53797657 msg="A Binding<Bool> mapped from an optional was set to true; the write had no effect." file=App/ContentView.swift line=42 function=body value_type=Swift.Optional<Swift.String> value_present=true value=<private> process=Demo pid=4242 host=build-01 run=0123456789abcdef seq=7 suppressed=0"#
        + "\n")
  }

  @Test(arguments: [
    ("", #"label="""#),
    ("a b", #"label="a b""#),
    ("k=v", #"label="k=v""#),
    ("say \"hi\"", #"label="say \"hi\"""#),
    (#"back\slash"#, #"label="back\\slash""#),
    ("two\nlines", #"label="two\nlines""#),
    ("cr\rtab\t", #"label="cr\rtab\t""#),
    ("bell\u{7}", #"label="bell\u0007""#),
    ("del\u{7f}", #"label="del\u007f""#),
    ("nel\u{85}", #"label="nel\u0085""#),
    ("ls\u{2028}", #"label="ls\u2028""#),
    ("plain-ok", "label=plain-ok"),
    ("ünïcode", "label=ünïcode"),
  ])
  func logfmtQuotesAndEscapes(label: String, expected: String) {
    let line = String(decoding: LogfmtEncoder().encode(sampleEvent(label: label)), as: UTF8.self)
    #expect(line.contains(" \(expected) process=Demo"))
  }

  @Test func oneEventIsAlwaysOneLine() {
    let invalid = String(decoding: [0x61, 0xff, 0xfe, 0x0a, 0x62, 0xc3], as: UTF8.self)
    let forged = "ok\nv=1 ts=2026-01-01T00:00:00.000000Z level=error kind=forged\r\n"
    for text in [invalid, forged, "\u{0}\u{1b}[31m", String(repeating: "\n", count: 100)] {
      for bytes in [
        LogfmtEncoder().encode(sampleEvent(message: text, value: text, label: text)),
        JSONLinesEncoder().encode(sampleEvent(message: text, value: text, label: text)),
      ] {
        #expect(bytes.filter { $0 == 0x0a }.count == 1)
        #expect(bytes.last == 0x0a)
        #expect(!bytes.contains(0x0d))
        #expect(!bytes.contains(0x00))
      }
    }
  }

  @Test func journalFieldsFollowTheContract() {
    var event = sampleEvent(label: "x")
    event.test = "InboxTests/saving()"
    event.writer = "InboxKit/InboxModel.swift:35"
    (event.runRecords, event.runEvents, event.runDropped) = (9, 12, 1)
    let fields = JournalFieldsEncoder().fields(event)
    #expect(
      fields.map(\.name) == [
        "BINDING_SCHEMA", "BINDING_TS", "BINDING_LEVEL", "PRIORITY", "BINDING_KIND", "MESSAGE_ID",
        "MESSAGE", "CODE_FILE", "CODE_LINE", "CODE_FUNC", "BINDING_VALUE_TYPE",
        "BINDING_VALUE_PRESENT", "BINDING_VALUE", "BINDING_LABEL", "BINDING_TEST",
        "BINDING_WRITER", "SYSLOG_IDENTIFIER", "BINDING_RUN", "BINDING_SEQ", "BINDING_SUPPRESSED",
        "BINDING_RUN_RECORDS", "BINDING_RUN_EVENTS", "BINDING_RUN_DROPPED",
      ])
    #expect(fields.map(\.name) == JournalFieldsEncoder.fieldNames)
    let values = Dictionary(uniqueKeysWithValues: fields.map { ($0.name, $0.value) })
    #expect(
      values["MESSAGE"]
        == "A Binding<Bool> mapped from an optional was set to true; the write had no effect."
        + " (App/ContentView.swift:42, x)")
    #expect(values["BINDING_TEST"] == "InboxTests/saving()")
    #expect(values["BINDING_WRITER"] == "InboxKit/InboxModel.swift:35")
    #expect(values["BINDING_RUN_RECORDS"] == "9")
    #expect(values["BINDING_RUN_DROPPED"] == "1")
    #expect(values["PRIORITY"] == "3")
    #expect(values["BINDING_VALUE_PRESENT"] == "1")
    #expect(values["MESSAGE_ID"] == "2b9f53b872d7905613eeb68e53797657")
    #expect(values["CODE_LINE"] == "42")
    #expect(values["SYSLOG_IDENTIFIER"] == "Demo")
    #expect(JournalFieldsEncoder.fieldNames.allSatisfy(JournalFieldsEncoder.isValidFieldName))
  }

  @Test(arguments: [
    ("MESSAGE", true), ("BINDING_SEQ", true), ("A", true), ("_PID", false), ("1ABC", false),
    ("lower", false), ("", false), (String(repeating: "A", count: 65), false),
    (String(repeating: "A", count: 64), true), ("WITH-DASH", false),
  ])
  func journalFieldNamesAreValidated(name: String, valid: Bool) {
    #expect(JournalFieldsEncoder.isValidFieldName(name) == valid)
  }
}

@Suite struct TimestampTests {
  @Test(arguments: [
    ("1970-01-01T00:00:00.000000Z", Int64(0)),
    ("2026-11-30T04:12:33.123456Z", Int64(1_796_011_953_123_456)),
    ("2000-02-29T23:59:59.999999Z", Int64(951_868_799_999_999)),
    ("1969-12-31T23:59:59.500000Z", Int64(-500_000)),
  ])
  func roundTrips(text: String, micros: Int64) throws {
    let timestamp = try #require(Timestamp(rfc3339: text))
    #expect(timestamp.microsecondsSinceEpoch == micros)
    #expect(timestamp.rfc3339 == text)
  }

  @Test func parsesOffsetsAndShortFractions() {
    #expect(
      Timestamp(rfc3339: "2026-11-30T05:12:33+01:00")?.rfc3339 == "2026-11-30T04:12:33.000000Z")
    #expect(Timestamp(rfc3339: "2026-11-30T04:12:33.5Z")?.rfc3339 == "2026-11-30T04:12:33.500000Z")
    #expect(
      Timestamp(rfc3339: "2026-11-30T04:12:33.123456789Z")?.rfc3339 == "2026-11-30T04:12:33.123456Z"
    )
  }

  @Test(arguments: [
    "", "2026-11-30", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-11-30T24:00:00Z",
    "2026-11-30T04:12:33", "2026-11-30T04:12:33.Z", "2026-11-30T04:12:33Zjunk",
  ])
  func rejectsInvalid(text: String) {
    #expect(Timestamp(rfc3339: text) == nil)
  }

  @Test func timesOutsideTheFourDigitYearsAreClampedNotGarbled() {
    #expect(Timestamp(microsecondsSinceEpoch: .min).rfc3339 == "0000-01-01T00:00:00.000000Z")
    #expect(Timestamp(microsecondsSinceEpoch: .max).rfc3339 == "9999-12-31T23:59:59.999999Z")
    #expect(
      Timestamp(microsecondsSinceEpoch: -62_167_219_200_000_000).rfc3339
        == "0000-01-01T00:00:00.000000Z")
    #expect(
      Timestamp(microsecondsSinceEpoch: 253_402_300_799_999_999).rfc3339
        == "9999-12-31T23:59:59.999999Z")
  }

  @Test func agreesWithFoundation() {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    for seconds in stride(from: Int64(-86_400 * 400), to: 4_102_444_800, by: 7_654_321) {
      let timestamp = Timestamp(microsecondsSinceEpoch: seconds * 1_000_000)
      let expected = formatter.string(from: Date(timeIntervalSince1970: Double(seconds)))
      #expect(timestamp.rfc3339 == expected.dropLast() + ".000000Z")
    }
  }
}
