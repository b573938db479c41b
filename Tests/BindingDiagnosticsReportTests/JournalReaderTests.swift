import BindingDiagnostics
import BindingDiagnosticsTesting
import Foundation
import Testing

@testable import BindingDiagnosticsReport

#if canImport(SwiftUI)
  import SwiftUI
#endif

let journalAvailable = FileManager.default.fileExists(atPath: "/run/systemd/journal/socket")

@Suite(.enabled(if: journalAvailable, "no journald socket at /run/systemd/journal/socket"))
struct JournalReaderTests {
  /// Reads the entries of `run` back through libsystemd, retrying while journald catches up.
  func readBack(run: String, count: Int) -> [MisuseEvent] {
    var events: [MisuseEvent] = []
    for _ in 0..<100 {
      let box = EventBox()
      let query = JournalReader.Query(
        source: .local, matches: ["BINDING_SCHEMA=1", "BINDING_RUN=\(run)"],
        fields: EventDecoder.journalFields)
      let result = JournalReader.read(query) { entry in
        if case .event(let event) = InputReader.classify(entry) { box.events.append(event) }
        return true
      }
      #expect(throws: Never.self) { try result.get() }
      events = box.events
      if events.count >= count { break }
      Thread.sleep(forTimeInterval: 0.05)
    }
    return events
  }

  @Test func eventsReadBackEqualWhatWasSent() throws {
    let recorder = RecordingSink()
    let sink = MultiplexSink([JournaldSink(fallback: RecordingSink()), recorder])
    let diagnostics = Diagnostics(
      configuration: DiagnosticsConfiguration(sink: sink, privacy: .public, rateLimit: nil))
    let kind = try #require(MisuseKind(code: "reader-roundtrip"))
    let large = String(repeating: "0123456789abcdef", count: 6400)  // 100 KiB
    DiagnosticsSystem.withDiagnostics(diagnostics) {
      let flag = Binding<String?>(get: { "line one\nline two" }, set: { _ in })
        .mappedToBool(label: "multi\nline")
      for _ in 0..<3 { flag.wrappedValue = true }
      DiagnosticsSystem.report(kind, message: "big", valueType: String.self, label: large)
    }
    let sent = recorder.events
    let read = readBack(run: diagnostics.run, count: sent.count)
    #expect(read.count == 4)
    #expect(read.sorted { $0.seq < $1.seq } == sent)
  }

  @Test func aSinceBeyondTheEntriesFindsNothing() {
    let query = JournalReader.Query(
      source: .local, matches: ["BINDING_SCHEMA=1"], fields: EventDecoder.journalFields,
      since: UInt64(Timestamp.now().microsecondsSinceEpoch) + 3_600_000_000)
    var count = 0
    let result = JournalReader.read(query) { _ in
      count += 1
      return true
    }
    #expect(throws: Never.self) { try result.get() }
    #expect(count == 0)
  }
}

/// Collects events on the reader's thread; read after the read returned.
final class EventBox: @unchecked Sendable {
  var events: [MisuseEvent] = []
}
