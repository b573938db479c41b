import BindingDiagnostics
import BindingDiagnosticsTesting
import Foundation
import Testing

@Suite struct StandardErrorSinkTests {
  @Test(arguments: [StandardErrorSink.Format.logfmt, .jsonLines])
  func writesOneLinePerEventToTheInjectedDescriptor(format: StandardErrorSink.Format) throws {
    let pipe = Pipe()
    let sink = StandardErrorSink(
      format: format, fileDescriptor: pipe.fileHandleForWriting.fileDescriptor)
    sink.receive(sampleEvent())
    sink.receive(sampleEvent(message: "second\nline"))
    try pipe.fileHandleForWriting.close()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    let expected =
      format == .logfmt
      ? LogfmtEncoder().encode(sampleEvent())
        + LogfmtEncoder().encode(sampleEvent(message: "second\nline"))
      : JSONLinesEncoder().encode(sampleEvent())
        + JSONLinesEncoder().encode(sampleEvent(message: "second\nline"))
    #expect(Array(output) == expected)
  }

  @Test func multiplexFansOutAndFlushesEverySink() {
    let first = RecordingSink()
    let second = RecordingSink()
    let sink = MultiplexSink([first, DiscardingSink(), second])
    sink.receive(sampleEvent())
    sink.flush()
    #expect(first.events == [sampleEvent()])
    #expect(second.events == [sampleEvent()])
    #expect(first.flushCount == 1 && second.flushCount == 1)
    #expect(sink.acceptsEvents)
    #expect(!MultiplexSink([DiscardingSink()]).acceptsEvents)
  }

  @Test func aClosedDescriptorIsCountedNotFatal() {
    let sink = StandardErrorSink(fileDescriptor: 987_654)
    sink.receive(sampleEvent())
    sink.receive(sampleEvent())
    #expect(sink.failedWrites == 2)
  }

  @Test func aVanishedPipeReaderDoesNotRaiseSigpipe() throws {
    // Without the SIGPIPE guard this write kills the whole test process.
    let pipe = Pipe()
    try pipe.fileHandleForReading.close()
    let sink = StandardErrorSink(fileDescriptor: pipe.fileHandleForWriting.fileDescriptor)
    sink.receive(sampleEvent())
    #expect(sink.failedWrites == 1)
  }

  /// A reader that stopped reading leaves the pipe full: the app's thread is not blocked (a
  /// blocking write here never returns), the lines that did not fit are counted, and the pipe
  /// holds only whole lines.
  @Test func aPipeNobodyReadsNeverBlocksAndCountsWhatDidNotFit() throws {
    let pipe = Pipe()
    let sink = StandardErrorSink(
      format: .logfmt, fileDescriptor: pipe.fileHandleForWriting.fileDescriptor)
    let count = 2_000
    for _ in 0..<count { sink.receive(sampleEvent()) }
    try pipe.fileHandleForWriting.close()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(text.hasSuffix("\n"))
    #expect(sink.failedWrites > 0)
    #expect(lines.count + sink.failedWrites == count)
    let line = String(decoding: LogfmtEncoder().encode(sampleEvent()).dropLast(), as: UTF8.self)
    #expect(lines.allSatisfy { $0 == line }, "\(lines.first ?? "")")
  }
}
