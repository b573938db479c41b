import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// `bindiag` over Apple's unified-log export, as `log show` / `log stream` write it on a Mac where
/// the app logged through `OSLogSink`: `--style ndjson` (one object per line, `/` escaped as `\/`,
/// a `{"count":N,"finished":1}` trailer) and `--style json` (one pretty-printed array).
@Suite struct BindiagUnifiedLogTests {
  /// What the app reported: the unified log holds these as the messages of `OSLogSink`.
  let events = summaryFixtureEvents

  /// One unified-log entry as `log show` exports it; `pretty` is the `--style json` form.
  func entry(
    _ message: String, type: String = "Default", subsystem: String = "com.example.notes",
    category: String = "BindingDiagnostics", eventType: String = "logEvent",
    process: String = "/Applications/Notes Pro.app/Contents/MacOS/Notes Pro", trace: Int,
    pretty: Bool = false
  ) -> String {
    let image = "9B0F8D2A-6C1E-3F44-B3A5-0E2D7C9A41F1"
    let fields: [(String, String)] = [
      ("traceID", "\(4_374_832_128_460_804 + trace)"),
      ("eventMessage", escaped(message)),
      ("eventType", escaped(eventType)),
      ("source", "null"),
      ("formatString", escaped("%{public}s")),
      ("activityIdentifier", "0"),
      ("subsystem", escaped(subsystem)),
      ("category", escaped(category)),
      ("threadID", "\(1_736_205 + trace)"),
      ("senderImageUUID", escaped(image)),
      ("backtrace", #"{"frames":[{"imageOffset":104876,"imageUUID":"\#(image)"}]}"#),
      ("bootUUID", #""""#),
      ("processImagePath", escaped(process)),
      ("senderImagePath", escaped(process)),
      ("timestamp", escaped("2026-11-30 05:12:33.\(123_701 + trace)+0100")),
      ("machTimestamp", "\(1_062_312_441_998 + trace)"),
      ("messageType", escaped(type)),
      ("processImageUUID", escaped(image)),
      ("processID", "4242"),
      ("senderProgramCounter", "104876"),
      ("parentActivityIdentifier", "0"),
      ("timezoneName", #""""#),
    ]
    if pretty {
      return "{\n" + fields.map { "  \"\($0.0)\" : \($0.1)" }.joined(separator: ",\n") + "\n}"
    }
    return "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
  }

  /// A JSON string as Foundation's serializer writes it: `/` escaped too.
  func escaped(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "/": out += "\\/"
      case "\n": out += "\\n"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// The entries of one export: the app's three events among its own and the system's messages,
  /// a contract line the unified log cut short, and an activity with an empty message.
  func export(pretty: Bool) -> [String] {
    let messages = events.map { UnifiedLogEntry($0) }
    let cut = String(messages[0].message.prefix(180))
    return [
      entry(messages[0].message, type: messages[0].level.rawValue, trace: 1, pretty: pretty),
      entry(
        "Loaded 12 notes from iCloud", subsystem: "com.example.notes", category: "sync",
        trace: 2, pretty: pretty),
      entry(
        "[UIFocus] Focus system enabled", type: "Info", subsystem: "com.apple.UIKit",
        category: "FocusEngine", trace: 3, pretty: pretty),
      entry(messages[1].message, type: messages[1].level.rawValue, trace: 4, pretty: pretty),
      entry(cut, type: "Error", trace: 5, pretty: pretty),
      entry("", eventType: "activityCreateEvent", trace: 6, pretty: pretty),
      entry(messages[2].message, type: messages[2].level.rawValue, trace: 7, pretty: pretty),
    ]
  }

  /// The summary of the same events read from contract JSON Lines, with the export's counts of
  /// malformed and other lines: what every unified-log form must give.
  func expectedSummary(malformed: Int, other: Int) throws -> String {
    let reference = try bindiag("summary", "--format", "json", stdin: jsonLines(events))
    #expect(reference.status == 0)
    let counts = #""malformed":0,"other":0,"#
    #expect(reference.stdout.contains(counts))
    return reference.stdout.replacingOccurrences(
      of: counts, with: #""malformed":\#(malformed),"other":\#(other),"#)
  }

  @Test func logShowNDJSONIsReadEntryByEntry() throws {
    let lines = export(pretty: false) + [#"{"count":7,"finished":1}"#]
    let path = try writeFixture(lines.joined(separator: "\n") + "\n", name: "notes.ndjson")
    let result = try bindiag("summary", "--format", "json", path)
    #expect(result.status == 0)
    #expect(result.stdout == (try expectedSummary(malformed: 1, other: 4)))
    #expect(
      result.stderr == "warning: \(path):5: malformed: missing key \"value_type\"\n")
    let strict = try bindiag("check", "--strict", "--max-events", "100", path)
    #expect(strict.status == 65)
  }

  @Test func logStreamNDJSONIsReadFromAPipe() throws {
    let header = #"Filtering the log data using "category == \"BindingDiagnostics\"""#
    let input = ([header] + export(pretty: false)).joined(separator: "\n") + "\n"
    let result = try bindiag("summary", "--format", "json", stdin: input)
    #expect(result.status == 0)
    #expect(result.stdout == (try expectedSummary(malformed: 1, other: 4)))
    #expect(result.stderr == "warning: <stdin>:6: malformed: missing key \"value_type\"\n")
  }

  @Test func logShowJSONIsOnePrettyPrintedArray() throws {
    let text = "[" + export(pretty: true).joined(separator: ",") + "]\n"
    // Each entry takes 23 lines ("},{" shared); the cut one is the fifth.
    let cut = "\(1 + 4 * 23): malformed: missing key \"value_type\"\n"
    let path = try writeFixture(text, name: "notes.json")
    let fromFile = try bindiag("summary", "--format", "json", path)
    #expect(fromFile.status == 0)
    #expect(fromFile.stdout == (try expectedSummary(malformed: 1, other: 3)))
    #expect(fromFile.stderr == "warning: \(path):" + cut)
    let fromPipe = try bindiag("summary", "--format", "json", stdin: text)
    #expect(fromPipe.stdout == fromFile.stdout)
    #expect(fromPipe.stderr == "warning: <stdin>:" + cut)
  }

  @Test func aLargeJSONExportIsNotSplitIntoLines() throws {
    // Over the size at which files are read in parallel chunks of lines.
    let size = entry(UnifiedLogEntry(fixtureEvent(seq: 1)).message, trace: 1, pretty: true)
    let count = (9 << 20) / size.utf8.count + 1
    let entries = (1...count).map {
      entry(UnifiedLogEntry(fixtureEvent(seq: $0)).message, type: "Error", trace: $0, pretty: true)
    }
    let path = try writeFixture("[" + entries.joined(separator: ",") + "]\n", name: "large.json")
    let result = try bindiag("summary", "--format", "json", path)
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(
      result.stdout.hasPrefix(
        #"{"schema":1,"events":\#(count),"records":\#(count),"malformed":0,"other":0,"lost":0,"duplicates":0,"#
      ))
  }

  @Test func aTextLogStartingWithABracketStaysText() throws {
    let logfmt = String(decoding: LogfmtEncoder().encode(fixtureEvent(seq: 1)), as: UTF8.self)
    let result = try bindiag(
      "summary", "--format", "json", stdin: "[INFO] app started\n" + logfmt + "[]\n")
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(
      result.stdout.hasPrefix(#"{"schema":1,"events":1,"records":1,"malformed":0,"other":2,"#))
  }
}
