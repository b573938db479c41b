import BindingDiagnostics
import BindingDiagnosticsReport
import Foundation
import Testing

/// What `OSLogSink` logs, read back from a unified-log export line: the same event.
@Suite struct UnifiedLogEntriesTests {
  @Test(arguments: [
    (MisuseLevel.critical, "Fault"), (.error, "Error"), (.warning, "Default"),
    (.notice, "Default"), (.info, "Info"), (.debug, "Debug"), (.trace, "Debug"),
  ])
  func eachLevelMapsToItsUnifiedLogTypeAndReadsBack(level: MisuseLevel, messageType: String)
    throws
  {
    var random = SeededGenerator(seed: 9)
    for _ in 0..<200 {
      var event = randomEvent(&random)
      event.level = level
      let logged = UnifiedLogEntry(event)
      #expect(logged.level.rawValue == messageType)
      var logfmt = LogfmtEncoder().encode(event)
      logfmt.removeLast()
      #expect(logged.message == String(decoding: logfmt, as: UTF8.self))
      let object: [String: Any] = [
        "eventMessage": logged.message, "messageType": messageType, "subsystem": "com.example",
        "category": "BindingDiagnostics", "processID": 4242, "eventType": "logEvent",
      ]
      let line = try JSONSerialization.data(withJSONObject: object)
      #expect(classifyBytes(Array(line)).fast == .event(event))
      #expect(classifyBytes(Array(line)).exact == .event(event))
    }
  }

  @Test func otherMessagesAndTheTrailerAreOther() {
    #expect(classify(#"{"eventMessage":"Loaded 12 notes","messageType":"Default"}"#) == .other)
    #expect(classify(#"{"eventMessage":null,"eventType":"activityCreateEvent"}"#) == .other)
    #expect(classify(#"{"eventMessage":"","eventType":"logEvent"}"#) == .other)
    #expect(classify(#"{"count":12,"finished":1}"#) == .other)
    #expect(classify(#"{"eventMessage":"v=1 kind=mapped-bool-set-true"}"#) != .other)
  }
}
