import BindingDiagnostics
import BindingDiagnosticsTesting
import Foundation
import TestSupport
import Testing

@testable import BindingDiagnosticsReport

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// The reader against the journald sink's entries, run by ``JournalReaderTestsInAPrivateJournal``
/// in a child test process against a journald of its own.
@Suite(.enabled(if: PrivateJournal.isInside, PrivateJournal.insideOnly))
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

/// Starts ``JournalReaderTests`` against a private journald.
@Suite(.enabled(if: PrivateJournal.canStartSuites, PrivateJournal.cannotStartSuites))
struct JournalReaderTestsInAPrivateJournal {
  @Test func theSuitePassesAgainstAPrivateJournald() throws {
    let journal = try PrivateJournal.runSuite("JournalReaderTests")
    #expect(journal.output.status == 0, "\(journal.output.stdout)\(journal.output.stderr)")
    #expect(journal.output.swiftTestingPassed == 2, "\(journal.output.stdout)")
    #expect(try journal.entries(matching: ["BINDING_SCHEMA=1"]).count == 4)
  }
}

/// Collects events on the reader's thread; read after the read returned.
final class EventBox: @unchecked Sendable {
  var events: [MisuseEvent] = []
}
