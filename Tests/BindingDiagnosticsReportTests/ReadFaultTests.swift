import BindingDiagnostics
import BindingDiagnosticsReport
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The readers' failure paths, in process: `read(2)` and `pread(2)` faults injected through the
/// system-call seam's test hook (``SystemCallFaults``) into a read on the calling thread (a
/// regular file with one thread, a pipe).
@Suite struct ReadFaultTests {
  /// Contract records, about 1 MiB: four `pread(2)` pieces of a regular file.
  static let input: [UInt8] = {
    var random = SeededGenerator(seed: 18)
    var bytes: [UInt8] = []
    var seq = 0
    while bytes.count < 1 << 20 {
      seq += 1
      bytes += Array(line(randomEvent(&random, seq: seq, run: "00000000000000aa")).utf8) + [0x0a]
    }
    return bytes
  }()

  /// The summary of reading `path` on the calling thread, and how the read ended.
  static func read(path: String) -> (summary: Summary, result: Result<Void, SystemError>) {
    var reader = InputReader()
    reader.threads = 1
    var aggregator = Aggregator()
    let result = reader.read(path: path, into: &aggregator)
    return (aggregator.summary(), result)
  }

  static func file() throws -> String {
    let path = try temporaryDirectory() + "/events.jsonl"
    try Data(input).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func anInterruptedOrShortReadOfAFileLosesNothing() throws {
    let path = try Self.file()
    let clean = Self.read(path: path)
    let faults = SystemCallFaults([
      .read: [.asUsual, .error(EINTR), .short(1000), .error(EINTR), .short(1), .asUsual]
    ])
    let faulted = SystemCallFaults.$current.withValue(faults) { Self.read(path: path) }
    #expect(faults.remaining == [])
    #expect(throws: Never.self) { try faulted.result.get() }
    #expect(faulted.summary.events == clean.summary.events)
    #expect(faulted.summary.malformed == 0)
    #expect(faulted.summary.lost == 0)
    #expect(JSONRenderer().render(faulted.summary) == JSONRenderer().render(clean.summary))
  }

  @Test func aReadFailingMidFileGivesTheReadErrorAndKeepsWhatCameBefore() throws {
    let path = try Self.file()
    let clean = Self.read(path: path)
    // The first two `pread(2)`s are the reader's looks at the file's head (is it compressed?
    // does it open a unified-log array?), the third the first chunk's: the fourth fails.
    let faults = SystemCallFaults([.read: [.asUsual, .asUsual, .asUsual, .error(EIO)]])
    let faulted = SystemCallFaults.$current.withValue(faults) { Self.read(path: path) }
    #expect(throws: SystemError("read", code: EIO)) { try faulted.result.get() }
    // What bindiag says after `Error: cannot read 'FILE': `.
    #expect(SystemError("read", code: EIO).message == "Input/output error")
    #expect(faulted.summary.events > 0)
    #expect(faulted.summary.events < clean.summary.events)
  }

  /// A file truncated while its chunks are read: the read fails, saying so, instead of ending
  /// as if whole (chunks past the new end read nothing; `check` would have passed on a part).
  @Test func aFileThatShrinksWhileReadFailsTheRead() throws {
    let path = try Self.file()
    let size = Self.input.count
    let faults = SystemCallFaults([
      .read: [.asUsual, .asUsual, .asUsual, .interleaved({ _ = truncate(path, 1000) })]
    ])
    let faulted = SystemCallFaults.$current.withValue(faults) { Self.read(path: path) }
    #expect(faults.remaining == [])
    #expect(throws: SystemError.self) { try faulted.result.get() }
    if case .failure(let error) = faulted.result {
      #expect(error.message == "the file shrank while it was read (from \(size) to 1000 bytes)")
    }
    #expect(faulted.summary.events > 0)
  }

  /// A pipe holding `input` whole (it fits the pipe's buffer), its write end closed.
  static func pipeHolding(_ input: [UInt8]) -> Int32 {
    var ends: [Int32] = [0, 0]
    _ = pipe(&ends)
    let wrote = input.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
    precondition(wrote == input.count)
    close(ends[1])
    return ends[0]
  }

  @Test func anInterruptedOrShortReadOfAPipeLosesNothingAndAFailedOneSaysSo() throws {
    let input = Array(Self.input.prefix(32 << 10))
    func read(_ faults: [SystemCallFaults.Fault]) -> (Int, Result<Void, SystemError>) {
      let fd = Self.pipeHolding(input)
      defer { close(fd) }
      var aggregator = Aggregator()
      let result = SystemCallFaults.$current.withValue(SystemCallFaults([.read: faults])) {
        InputReader().read(fd: fd, name: "<stdin>", into: &aggregator)
      }
      return (aggregator.summary().events, result)
    }
    let (clean, _) = read([])
    #expect(clean > 10)
    let (retried, retriedResult) = read([.error(EINTR), .short(100), .error(EINTR), .short(1)])
    #expect(throws: Never.self) { try retriedResult.get() }
    #expect(retried == clean)
    let (_, failed) = read([.error(EIO)])
    #expect(throws: SystemError("read", code: EIO)) { try failed.get() }
  }
}
