import BindingDiagnostics
import Foundation
import Testing

@Suite struct HumanLineEncoderTests {
  @Test func eachBuiltInKindHasItsShortSentence() {
    var event = sampleEvent(label: "save-alert", suppressed: 12)
    event.file = "InboxKit/InboxModel.swift"
    event.line = 29
    #expect(
      line(event)
        == "InboxKit/InboxModel.swift:29: error: a Binding<Bool> mapped from String? was set to"
        + " true; no effect [mapped-bool-set-true, save-alert] (+12 folded)\n")
    event.kind = .unwrappedReadAfterNil
    event.level = .info
    event.label = nil
    event.suppressed = 0
    #expect(
      line(event)
        == "InboxKit/InboxModel.swift:29: info: a Binding<String> unwrapped from String? was read"
        + " after it became nil; the last value was returned [unwrapped-read-after-nil]\n")
    event.kind = .unwrappedWriteAfterNil
    event.level = .warning
    #expect(
      line(event)
        == "InboxKit/InboxModel.swift:29: warning: a Binding<String> unwrapped from String? was"
        + " written after it became nil; the write was dropped [unwrapped-write-after-nil]\n")
  }

  @Test func theWriterIsNamedAfterTheKindAndLabel() {
    var event = sampleEvent(label: "save-alert", suppressed: 4)
    event.writer = "InboxKit/InboxModel.swift:35\u{1b}[2J"
    #expect(
      line(event)
        == "App/ContentView.swift:42: error: a Binding<Bool> mapped from String? was set to"
        + " true; no effect [mapped-bool-set-true, save-alert] written at"
        + " InboxKit/InboxModel.swift:35\\u001b[2J (+4 folded)\n")
  }

  @Test func anAppsOwnKindShowsItsMessageWithControlsEscaped() {
    var event = sampleEvent(message: "Presented\u{1b}[2J twice.", label: "a\nb")
    event.kind = MisuseKind(code: "sheet-presented-twice")!
    event.level = .notice
    #expect(
      line(event)
        == "App/ContentView.swift:42: notice: Presented\\u001b[2J twice"
        + " [sheet-presented-twice, a\\u000ab]\n")
  }

  @Test func colouredLinesPaintTheLevelWordAsBindiagDoes() {
    let event = sampleEvent()
    let coloured = String(decoding: HumanLineEncoder(colors: true).encode(event), as: UTF8.self)
    #expect(
      coloured
        == "App/ContentView.swift:42: \u{1b}[0;1;31merror:\u{1b}[0m a Binding<Bool> mapped from"
        + " String? was set to true; no effect [mapped-bool-set-true]\n")
    var info = event
    info.level = .info
    #expect(
      HumanLineEncoder(colors: true).encode(info) == HumanLineEncoder(colors: false).encode(info))
  }

  private func line(_ event: MisuseEvent) -> String {
    String(decoding: HumanLineEncoder(colors: false).encode(event), as: UTF8.self)
  }
}

/// The standard-error sink on a pipe (a terminal: `HumanStandardErrorTests`, on a real
/// pseudo-terminal).
@Suite struct StandardErrorSinkFormatTests {
  @Test func aPipeGetsTheContractLogfmtUnlessHumanIsAsked() throws {
    for format in [nil, StandardErrorSink.Format.human] {
      let pipe = Pipe()
      let sink = StandardErrorSink(
        format: format, fileDescriptor: pipe.fileHandleForWriting.fileDescriptor,
        environment: { $0 == "TERM" ? "xterm-256color" : nil })
      sink.receive(sampleEvent())
      try pipe.fileHandleForWriting.close()
      let output = Array(pipe.fileHandleForReading.readDataToEndOfFile())
      // A human line asked for on a pipe is never coloured.
      let expected =
        format == nil
        ? LogfmtEncoder().encode(sampleEvent())
        : HumanLineEncoder(colors: false).encode(sampleEvent())
      #expect(output == expected)
      #expect(sink.format == format ?? .logfmt)
    }
  }
}
