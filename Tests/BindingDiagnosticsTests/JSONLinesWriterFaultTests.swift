import BindingDiagnostics
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The JSON Lines writer's failure paths, in process: `write(2)` failures injected through the
/// system-call seam's test hook (``SystemCallFaults``) into a synchronous sink.
@Suite struct JSONLinesWriterFaultTests {
  func record(_ label: String) -> [UInt8] {
    JSONLinesEncoder().encode(sampleEvent(label: label))
  }

  @Test func aRecordCutShortByAFullDiskIsCutBackOffTheFile() throws {
    let path = try temporaryDirectory() + "/full.jsonl"
    let sink = try JSONLinesFileSink.open(path: path, options: .init(synchronous: true)).get()
    sink.receive(sampleEvent(label: "one"))
    let faults = SystemCallFaults([.short(100), .error(ENOSPC)])
    SystemCallFaults.$current.withValue(faults) {
      sink.receive(sampleEvent(label: "two"))
    }
    #expect(faults.remaining == [])
    // The 100 bytes of "two" that reached the file are gone: no fragment.
    #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == record("one"))
    #expect(sink.statistics.written == 1)
    #expect(sink.statistics.dropped == 1)
    // Writes work again after the retry delay: the next record follows the last whole one.
    Thread.sleep(forTimeInterval: 0.15)
    sink.receive(sampleEvent(label: "three"))
    #expect(
      Array(try Data(contentsOf: URL(fileURLWithPath: path))) == record("one") + record("three"))
  }

  @Test(arguments: [EINTR])
  func anInterruptedWriteIsRetriedAndAShortOneFinished(code: Int32) throws {
    let path = try temporaryDirectory() + "/interrupted.jsonl"
    let sink = try JSONLinesFileSink.open(path: path, options: .init(synchronous: true)).get()
    let faults = SystemCallFaults([.error(code), .short(7), .short(1)])
    SystemCallFaults.$current.withValue(faults) {
      sink.receive(sampleEvent(label: "one"))
    }
    #expect(faults.remaining == [])
    #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == record("one"))
    #expect(sink.statistics.written == 1)
    #expect(sink.statistics.dropped == 0)
  }

  @Test(arguments: [EPIPE, EWOULDBLOCK, EIO])
  func aFailedWriteDropsAndCountsTheRecord(code: Int32) throws {
    let path = try temporaryDirectory() + "/failed.jsonl"
    let sink = try JSONLinesFileSink.open(path: path, options: .init(synchronous: true)).get()
    SystemCallFaults.$current.withValue(SystemCallFaults([.error(code)])) {
      sink.receive(sampleEvent(label: "one"))
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
    #expect(sink.statistics.written == 0)
    #expect(sink.statistics.dropped == 1)
    #expect(sink.statistics.failed == 1)
  }
}
