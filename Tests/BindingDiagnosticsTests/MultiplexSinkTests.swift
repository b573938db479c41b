import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// A file standing in for standard error, read back after the sinks wrote to it.
func withCapturedDescriptor(_ body: (Int32) -> Void) throws -> [String] {
  let path = try temporaryDirectory() + "/stderr.txt"
  let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
  try #require(fd >= 0)
  body(fd)
  close(fd)
  return try lines(ofFile: path)
}

@Suite struct MultiplexSinkTests {
  @Test func aFallbackToStandardErrorDoesNotRepeatWhatAStandardErrorSinkPrints() throws {
    let lines = try withCapturedDescriptor { fd in
      let sink = MultiplexSink([
        StandardErrorSink(fileDescriptor: fd),
        JournaldSink(
          socketPath: "/nonexistent/socket", fallback: StandardErrorSink(fileDescriptor: fd)),
      ])
      for _ in 0..<3 { sink.receive(sampleEvent()) }
    }
    #expect(lines.count == 3)
  }

  @Test func twoSinksFallingBackToStandardErrorPrintOnce() throws {
    var journals: [JournaldSink] = []
    let lines = try withCapturedDescriptor { fd in
      journals = (0..<2).map { _ in
        JournaldSink(
          socketPath: "/nonexistent/socket", fallback: StandardErrorSink(fileDescriptor: fd))
      }
      let sink = MultiplexSink(journals)
      for _ in 0..<3 { sink.receive(sampleEvent()) }
    }
    #expect(lines.count == 3)
    // Both still count what fell back.
    #expect(journals.map(\.fellBack) == [3, 3])
  }

  @Test func distinctDestinationsEachGetTheEvent() throws {
    let lines = try withCapturedDescriptor { fd in
      let sink = MultiplexSink([
        StandardErrorSink(format: .logfmt, fileDescriptor: fd),
        StandardErrorSink(format: .jsonLines, fileDescriptor: fd),
      ])
      sink.receive(sampleEvent())
    }
    #expect(lines.count == 2)
  }

  @Test func anUnopenableFileAndStandardErrorPrintEachMisuseOnce() throws {
    let result = try runProduct(
      "misuse-helper", ["3"],
      environment: [
        "BINDING_DIAGNOSTICS": "jsonl:/nonexistent/dir/app.jsonl,stderr",
        "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
      ])
    #expect(result.status == 0)
    let lines = result.stderr.split(separator: "\n")
    // Three records and one run end, once.
    #expect(lines.filter { $0.hasPrefix("v=1 ") }.count == 4, "\(result.stderr)")
    #expect(lines.filter { $0.contains(" kind=run-end ") }.count == 1, "\(result.stderr)")
  }
}
