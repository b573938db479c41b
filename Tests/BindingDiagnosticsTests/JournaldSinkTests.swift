import BindingDiagnostics
import BindingDiagnosticsTesting
import Foundation
import TestSupport
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// The journald sink's round trips, run by ``JournaldSinkTestsInAPrivateJournal`` in a child
/// test process against a journald of its own: the sink sends from this very process, so
/// `_PID`, `CODE_FILE` and `CODE_FUNC` are this file's, and nothing reaches the machine's journal.
@Suite(.enabled(if: PrivateJournal.isInside, PrivateJournal.insideOnly))
struct JournaldSinkTests {
  @Test func entriesCarryEveryContractField() throws {
    let sink = JournaldSink(fallback: RecordingSink())
    #expect(sink.isAvailable, "\(sink.unavailableReason ?? "")")
    let diagnostics = Diagnostics(
      configuration: DiagnosticsConfiguration(sink: sink, rateLimit: nil))
    let alert = Box<String?>("x")
    let line = #line + 2
    DiagnosticsSystem.withDiagnostics(diagnostics) {
      alert.binding.mappedToBool(label: "journal-test").wrappedValue = true
    }
    let entries = try journalEntries(run: diagnostics.run, count: 1)
    #expect(entries.count == 1)
    let entry = try #require(entries.first)
    #expect(entry["MESSAGE_ID"] as? String == "2b9f53b872d7905613eeb68e53797657")
    #expect(entry["PRIORITY"] as? String == "3")
    // MESSAGE names the call site and label, so `journalctl -t` output tells sites apart.
    #expect(
      entry["MESSAGE"] as? String
        == "A Binding<Bool> mapped from an optional was set to true; the write had no effect."
        + " (\(#fileID):\(line), journal-test)")
    #expect(entry["CODE_FILE"] as? String == #fileID)
    #expect(entry["CODE_LINE"] as? String == String(line))
    #expect(entry["CODE_FUNC"] as? String == "entriesCarryEveryContractField()")
    #expect(entry["BINDING_SCHEMA"] as? String == "1")
    #expect(entry["BINDING_LEVEL"] as? String == "error")
    #expect(entry["BINDING_KIND"] as? String == "mapped-bool-set-true")
    #expect(entry["BINDING_VALUE_TYPE"] as? String == "Swift.Optional<Swift.String>")
    #expect(entry["BINDING_VALUE_PRESENT"] as? String == "1")
    #expect(entry["BINDING_VALUE"] as? String == "<private>")
    #expect(entry["BINDING_LABEL"] as? String == "journal-test")
    #expect(entry["BINDING_SEQ"] as? String == "1")
    #expect(entry["BINDING_SUPPRESSED"] as? String == "0")
    #expect(entry["_PID"] as? String == String(getpid()))
    let ts = try #require(entry["BINDING_TS"] as? String)
    #expect(Timestamp(rfc3339: ts) != nil)
    sink.flush()
    #expect(sink.sent == 1)
  }

  @Test func newlinesAndLargeValuesArriveIntact() throws {
    let sink = JournaldSink(fallback: RecordingSink())
    let diagnostics = Diagnostics(
      configuration: DiagnosticsConfiguration(sink: sink, rateLimit: nil))
    let multiline = "first line\nsecond line\n\tindented"
    let large = String(repeating: "0123456789abcdef", count: 6400)  // 100 KiB
    let kind = try #require(MisuseKind(code: "journal-roundtrip"))
    let line = #line + 2
    DiagnosticsSystem.withDiagnostics(diagnostics) {
      DiagnosticsSystem.report(kind, message: multiline, label: large)
    }
    let entry = try #require(try journalEntries(run: diagnostics.run, count: 1).first)
    let site = "BindingDiagnosticsTests/JournaldSinkTests.swift:\(line)"
    // MESSAGE is what `journalctl` prints as one entry: its controls are escaped, so no value can
    // make a second, lookalike entry there; the contract's own field keeps the text as it was.
    #expect(
      decodeJournalValue(entry["MESSAGE"])
        == #"first line\u000asecond line\u000a\u0009indented"# + " (\(site), \(large))")
    #expect(decodeJournalValue(entry["BINDING_LABEL"]) == large)
  }
}

/// Starts ``JournaldSinkTests`` against a private journald.
@Suite(.enabled(if: PrivateJournal.canStartSuites, PrivateJournal.cannotStartSuites))
struct JournaldSinkTestsInAPrivateJournal {
  @Test func theSuitePassesAgainstAPrivateJournald() throws {
    let journal = try PrivateJournal.runSuite("JournaldSinkTests")
    #expect(journal.output.status == 0, "\(journal.output.stdout)\(journal.output.stderr)")
    #expect(journal.output.swiftTestingPassed == 2, "\(journal.output.stdout)")
    // What the child sent is in the private journal, and only there.
    #expect(try journal.entries(matching: ["BINDING_SCHEMA=1"]).count == 2)
  }
}

/// The journald sink where no journald listens: nothing is sent, so it runs in this process.
@Suite struct JournaldSinkFallbackTests {
  @Test func aMissingSocketFallsBackAndSaysWhy() {
    let fallback = RecordingSink()
    let sink = JournaldSink(socketPath: "/nonexistent/journal/socket", fallback: fallback)
    #expect(!sink.isAvailable)
    #expect(sink.unavailableReason?.hasPrefix("no journal at /nonexistent/journal/socket") == true)
    sink.receive(sampleEvent())
    #expect(fallback.events == [sampleEvent()])
    #expect(sink.fellBack == 1)
  }
}

/// journalctl's JSON gives a field as a string, or as an array of bytes when it is not
/// printable text.
func decodeJournalValue(_ value: Any?) -> String? {
  if let text = value as? String { return text }
  if let bytes = value as? [Int] { return String(decoding: bytes.map { UInt8($0) }, as: UTF8.self) }
  return nil
}
