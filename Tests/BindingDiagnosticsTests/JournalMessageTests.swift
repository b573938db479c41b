import BindingDiagnostics
import Testing

/// journald's `MESSAGE`: what plain `journalctl` shows of a record.
@Suite struct JournalMessageTests {
  private func message(_ event: MisuseEvent) -> String? {
    JournalFieldsEncoder().fields(event).first { $0.name == "MESSAGE" }?.value
  }

  @Test func aFoldedRecordsMessageSaysHowManyEventsItStandsFor() {
    var event = sampleEvent(label: "save-alert", suppressed: 392)
    event.file = "InboxKit/InboxModel.swift"
    event.line = 29
    #expect(
      message(event)
        == "A Binding<Bool> mapped from an optional was set to true; the write had no effect."
        + " (InboxKit/InboxModel.swift:29, save-alert, +392 folded)")
    event.label = nil
    #expect(message(event)?.hasSuffix(" (InboxKit/InboxModel.swift:29, +392 folded)") == true)
    event.suppressed = 0
    #expect(message(event)?.hasSuffix(" (InboxKit/InboxModel.swift:29)") == true)
  }

  /// A newline in a label would make `journalctl` show a second entry of the attacker's making:
  /// `MESSAGE` escapes it; `BINDING_LABEL` keeps the value.
  @Test func aNewlineInALabelNeverStartsALookalikeLineInTheMessage() {
    let forged = "x)\nDec 02 01:00:00 host app[1]: all clear"
    let event = sampleEvent(message: "Sent.\r\nFake line.", label: forged)
    let fields = JournalFieldsEncoder().fields(event)
    let text = fields.first { $0.name == "MESSAGE" }?.value ?? ""
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 })
    #expect(
      text
        == "Sent.\\u000d\\u000aFake line. (App/ContentView.swift:42, x)\\u000aDec 02 01:00:00 host app[1]: all clear)"
    )
    #expect(fields.first { $0.name == "BINDING_LABEL" }?.value == forged)
  }
}
