import BindingDiagnostics
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The flush machinery's failure paths, in process: its pipes (``ProcessFlush/Channel``) with
/// faults injected through the system-call seam's test hook (``SystemCallFaults``) into the
/// exit hook's side (ask, wait, read the answer) and the flushing thread's (read a request,
/// answer). The process-level behaviour (signals, `exit`) is in `ProcessFlushTests`.
@Suite struct ProcessFlushFaultTests {
  /// A pipeline whose JSON Lines sink has been handed `count` records.
  struct Pipeline {
    let path: String
    let diagnostics: Diagnostics

    init(records count: Int) throws {
      path = try temporaryDirectory() + "/flush.jsonl"
      let sink = try JSONLinesFileSink.open(path: path).get()
      for index in 0..<count { sink.receive(sampleEvent(label: "r\(index)")) }
      diagnostics = Diagnostics(
        configuration: DiagnosticsConfiguration(
          sink: sink, rateLimit: nil, policy: .report, runtimeWarnings: false))
    }

    /// The records in the file.
    func records() throws -> Int { try lines(ofFile: path).count }
  }

  /// Bytes waiting in `fd` (a pipe), read without blocking.
  func pending(_ fd: Int32) -> [UInt8] {
    let flags = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    defer { _ = fcntl(fd, F_SETFL, flags) }
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while read(fd, &byte, 1) == 1 { bytes.append(byte) }
    return bytes
  }

  /// Whether an exit request was written.
  func asked(_ channel: ProcessFlush.Channel) -> Bool {
    if case .success = channel.ask(0) { return true }
    return false
  }

  func closeAll(_ channel: ProcessFlush.Channel) {
    for fd in [channel.requestRead, channel.requestWrite, channel.doneRead, channel.doneWrite]
    where fd >= 0 {
      close(fd)
    }
  }

  /// Runs the flushing thread's loop on a thread of its own; it ends when the request pipe's
  /// write end is closed.
  func serving(_ channel: ProcessFlush.Channel, _ diagnostics: Diagnostics) -> DispatchSemaphore {
    let ended = DispatchSemaphore(value: 0)
    Thread {
      _ = channel.serve(diagnostics)
      ended.signal()
    }.start()
    return ended
  }

  @Test func theExitHookRetriesInterruptedCallsAndFinishesAShortWrite() throws {
    let pipeline = try Pipeline(records: 100)
    var channel = try ProcessFlush.Channel.make().get()
    let ended = serving(channel, pipeline.diagnostics)
    // The request: interrupted, then written 0 bytes at a time once; the wait: interrupted;
    // the answer's read: interrupted (after the read that finds no stale answer).
    let faults = SystemCallFaults([
      .write: [.error(EINTR), .short(0)], .poll: [.error(EINTR)],
      .read: [.asUsual, .error(EINTR)],
    ])
    let answer = SystemCallFaults.$current.withValue(faults) {
      channel.askToFlushAndWait(milliseconds: 30_000)
    }
    #expect(answer == .finished)
    #expect(faults.remaining == [])
    #expect(try pipeline.records() == 100)
    close(channel.requestWrite)
    channel.requestWrite = -1
    ended.wait()
    closeAll(channel)
  }

  @Test(arguments: [EWOULDBLOCK, EPIPE, EIO])
  func aRequestThatCannotBeWrittenAsksNothingAndSaysWhy(code: Int32) throws {
    let channel = try ProcessFlush.Channel.make().get()
    defer { closeAll(channel) }
    let answer = SystemCallFaults.$current.withValue(SystemCallFaults([.write: [.error(code)]])) {
      channel.askToFlushAndWait(milliseconds: 30_000)
    }
    #expect(answer == .notAsked(SystemError("write", code: code)))
    #expect(pending(channel.requestRead) == [])
  }

  @Test func aFailedWaitSaysWhy() throws {
    let channel = try ProcessFlush.Channel.make().get()
    defer { closeAll(channel) }
    let answer = SystemCallFaults.$current.withValue(SystemCallFaults([.poll: [.error(EIO)]])) {
      channel.askToFlushAndWait(milliseconds: 30_000)
    }
    #expect(answer == .failed(SystemError("poll", code: EIO)))
  }

  @Test func anAnswerThatCannotBeReadSaysWhyAndIsNotTakenForTheNext() throws {
    let pipeline = try Pipeline(records: 10)
    var channel = try ProcessFlush.Channel.make().get()
    let ended = serving(channel, pipeline.diagnostics)
    let faults = SystemCallFaults([.read: [.asUsual, .error(EIO)]])
    let first = SystemCallFaults.$current.withValue(faults) {
      channel.askToFlushAndWait(milliseconds: 30_000)
    }
    #expect(first == .failed(SystemError("read", code: EIO)))
    // The answer left in the pipe is dropped before the next request, which gets its own.
    #expect(channel.askToFlushAndWait(milliseconds: 30_000) == .finished)
    #expect(pending(channel.doneRead) == [])
    close(channel.requestWrite)
    channel.requestWrite = -1
    ended.wait()
    closeAll(channel)
  }

  @Test func anAnswerToAnEarlierRequestIsNotTakenForThisOne() throws {
    let channel = try ProcessFlush.Channel.make().get()
    defer { closeAll(channel) }
    var stale: UInt8 = 0
    #expect(write(channel.doneWrite, &stale, 1) == 1)
    // Nobody serves: the stale answer must not pass for this request's.
    #expect(channel.askToFlushAndWait(milliseconds: 50) == .unanswered)
  }

  @Test func theFlushingThreadRetriesAnInterruptedReadAndFinishesItsAnswer() throws {
    let pipeline = try Pipeline(records: 100)
    var channel = try ProcessFlush.Channel.make().get()
    defer { closeAll(channel) }
    #expect(asked(channel))
    close(channel.requestWrite)
    channel.requestWrite = -1
    let faults = SystemCallFaults([.read: [.error(EINTR)], .write: [.error(EINTR), .short(0)]])
    let ended = SystemCallFaults.$current.withValue(faults) { channel.serve(pipeline.diagnostics) }
    #expect(ended == nil)
    #expect(faults.remaining == [])
    #expect(pending(channel.doneRead) == [0])
    #expect(try pipeline.records() == 100)
  }

  @Test(arguments: [EPIPE, EIO, EWOULDBLOCK])
  func anAnswerThatCannotBeWrittenLeavesTheFlushingThreadServing(code: Int32) throws {
    let pipeline = try Pipeline(records: 10)
    var channel = try ProcessFlush.Channel.make().get()
    defer { closeAll(channel) }
    #expect(asked(channel))
    #expect(asked(channel))
    close(channel.requestWrite)
    channel.requestWrite = -1
    let faults = SystemCallFaults([.write: [.error(code)]])
    let ended = SystemCallFaults.$current.withValue(faults) { channel.serve(pipeline.diagnostics) }
    #expect(ended == nil)
    // The first answer was lost; the second request was still served.
    #expect(pending(channel.doneRead) == [0])
  }

  @Test func aFailedReadEndsTheFlushingThreadWithoutFlushing() throws {
    let pipeline = try Pipeline(records: 0)
    var channel = try ProcessFlush.Channel.make().get()
    defer { closeAll(channel) }
    #expect(asked(channel))
    close(channel.requestWrite)
    channel.requestWrite = -1
    let faults = SystemCallFaults([.read: [.error(EIO)]])
    let ended = SystemCallFaults.$current.withValue(faults) { channel.serve(pipeline.diagnostics) }
    #expect(ended == SystemError("read", code: EIO))
    // The request was not taken, and not answered.
    #expect(pending(channel.requestRead) == [0])
    #expect(pending(channel.doneRead) == [])
  }
}
