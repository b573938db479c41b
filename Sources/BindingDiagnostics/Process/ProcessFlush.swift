import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Flushes the process-wide pipeline when the process ends: at `exit` and, where the app left
/// the default disposition, on `SIGTERM`, `SIGINT` and `SIGHUP` (how service managers, terminals
/// and `kill` stop a process).
///
/// The work happens on a thread of its own, blocked in `poll(2)` until asked (or until the
/// run's next `run-heartbeat` is due, which it writes: ``ProcessEndClient/writeHeartbeatIfDue()``).
/// A signal handler
/// only writes one byte to wake it (async-signal-safe, never blocking) and returns at once, so
/// the thread the signal interrupted (which may hold a lock the flush needs) runs on. The
/// flushing thread then flushes for at most the exit deadline, restores the default
/// disposition and raises the signal again, so the process still ends by that signal (exit
/// status and core-dump behaviour unchanged); the first stop signal decides. The `atexit` hook
/// asks the same thread and waits the same bound, so an exit from any thread (an app's own
/// handler calling `exit(0)` while another thread misuses included) never re-locks a lock its
/// caller holds and never hangs. Either way the sinks then write what is queued, then the run's
/// `run-end`, and end their threads (``ProcessEndClient/finishAtProcessEnd(within:)``). Records made
/// meanwhile by threads still running are dropped, counted and said in one line. Last, the
/// ``WriteGate`` closes: a write still under way when the process goes would be cut short,
/// tearing a record, so the end waits (bounded) for the writes under way and refuses later ones.
///
/// The exit hook and the signal handler allocate nothing and take no lock: an app's SIGTERM
/// handler that calls `exit` may have interrupted a thread inside `malloc`, holding the
/// allocator's lock. They only `write(2)`, `poll(2)` and `read(2)` one byte on pipes made
/// beforehand, write a line composed beforehand, and load and store atomics.
/// `BINDING_DIAGNOSTICS_SIGNALS=off` leaves signals alone.
package enum ProcessFlush {
  /// The stop signals handled.
  static let signals = StopSignals.all
  /// How long the end of the process waits for writes under way once the sinks are done (or
  /// out of time): a write the end would cut short tears a record.
  static let writesWaitMilliseconds = 500

  /// The two pipes between the hooks (`exit`, stop signals) and the flushing thread: a hook
  /// writes one request byte (0 for `exit`, else the signal's number), the thread answers an
  /// exit request with one byte once the sinks are flushed. Plain integers, so that a signal
  /// handler may read them.
  package struct Channel: Sendable {
    /// The flushing thread reads requests here (blocking).
    package var requestRead: Int32 = -1
    /// The hooks write requests here (non-blocking: a handler never blocks).
    package var requestWrite: Int32 = -1
    /// The exit hook reads answers here (non-blocking).
    package var doneRead: Int32 = -1
    /// The flushing thread writes answers here (non-blocking: it never blocks on a pipe
    /// nobody reads).
    package var doneWrite: Int32 = -1

    /// How an exit hook's wait for the flush ended.
    package enum Answer: Sendable, Equatable {
      /// The flushing thread answered: the sinks are flushed.
      case finished
      /// The request could not be written (the pipe full or closed): no flush was asked.
      case notAsked(SystemError)
      /// No answer within the bound.
      case unanswered
      /// Waiting for the answer failed.
      case failed(SystemError)
    }

    /// New pipes (`pipe(2)`), all ends but the flushing thread's request end non-blocking.
    /// - Returns: The channel, or the failure of `pipe`.
    package static func make() -> Result<Channel, SystemError> {
      // What the hooks use is made here, never for the first time in a hook: a build whose
      // generics are not specialised (debug) instantiates the metadata of their results
      // (`Result<Void, SystemError>`, `Result<Int, SystemError>`) on first use, which
      // allocates, and a hook in a handler that interrupted `malloc` would wait for ever on the
      // allocator's lock (`anExitFromAHandlerThatInterruptedMallocNeverHangs`). In debug and
      // test builds this also reads the fault hook's task-local first. Every call fails at
      // once on descriptor -1 (`EBADF`; `poll` ignores a negative descriptor).
      _ = Channel().askToFlushAndWait(milliseconds: 0)
      _ = withUnsafeBytes(of: UInt8(0)) { FileDescriptorIO.writeAll(-1, $0) }
      var none = pollfd(fd: -1, events: 0, revents: 0)
      _ = FileDescriptorIO.poll(&none, milliseconds: 0)
      _ = FileDescriptorIO.read(-1, into: UnsafeMutableRawBufferPointer(start: nil, count: 0))
      let request: (read: Int32, write: Int32)
      switch FileDescriptorIO.makePipe() {
      case .success(let ends): request = ends
      case .failure(let error): return .failure(error)
      }
      let done: (read: Int32, write: Int32)
      switch FileDescriptorIO.makePipe() {
      case .success(let ends): done = ends
      case .failure(let error):
        FileDescriptorIO.closeFile(request.read)
        FileDescriptorIO.closeFile(request.write)
        return .failure(error)
      }
      for fd in [request.write, done.read, done.write] { FileDescriptorIO.setNonBlocking(fd) }
      return .success(
        Channel(
          requestRead: request.read, requestWrite: request.write, doneRead: done.read,
          doneWrite: done.write))
    }

    /// Asks the flushing thread: writes `byte` (async-signal-safe: a non-blocking `write(2)`
    /// of one byte, nothing allocated).
    /// - Parameter byte: 0 for `exit`, else the stop signal's number.
    /// - Returns: The failure of `write` (`EWOULDBLOCK` when the pipe is full, `EBADF` without
    ///   a channel).
    package func ask(_ byte: UInt8) -> Result<Void, SystemError> {
      guard requestWrite >= 0 else { return .failure(SystemError("write", code: EBADF)) }
      return withUnsafeBytes(of: byte) { FileDescriptorIO.writeAll(requestWrite, $0) }
    }

    /// What the exit hook does: asks for a flush and waits at most `milliseconds` for the
    /// answer (`poll(2)`), after dropping answers to earlier requests that timed out.
    /// Async-signal-safe: `read`, `write` and `poll` on the stack, nothing allocated.
    /// - Parameter milliseconds: The longest wait.
    /// - Returns: How the wait ended.
    package func askToFlushAndWait(milliseconds: Int32) -> Answer {
      while case .success(1) = readByte(doneRead) {}
      if case .failure(let error) = ask(0) { return .notAsked(error) }
      var waiting = pollfd(fd: doneRead, events: Int16(POLLIN), revents: 0)
      switch FileDescriptorIO.poll(&waiting, milliseconds: milliseconds) {
      case .failure(let error): return .failed(error)
      case .success(0): return .unanswered
      case .success:
        switch readByte(doneRead) {
        case .success(1): return .finished
        case .success: return .unanswered
        case .failure(let error): return .failed(error)
        }
      }
    }

    /// The flushing thread's loop: reads requests and serves each (an exit request flushes
    /// `diagnostics` and answers; a stop signal's flushes and ends the process by it) until
    /// the request pipe ends or cannot be read; between requests, writes the run's heartbeats
    /// when they are due.
    /// - Parameter diagnostics: The pipeline to flush.
    /// - Returns: The failure of `read` (or `poll`) that ended the loop, `nil` at the pipe's end.
    package func serve(_ diagnostics: any ProcessEndClient) -> SystemError? {
      let finishSeconds = ProcessFlush.finishSeconds(diagnostics.exitDeadline)
      while true {
        var waiting = pollfd(fd: requestRead, events: Int16(POLLIN), revents: 0)
        let timeout = diagnostics.millisecondsUntilHeartbeat
        let ready = LibraryThread.waiting {
          FileDescriptorIO.poll(&waiting, milliseconds: timeout)
        }
        switch ready {
        case .failure(let error): return error
        case .success(0):
          diagnostics.writeHeartbeatIfDue()
          continue
        case .success: break
        }
        var byte: UInt8 = 0
        let got = withUnsafeMutableBytes(of: &byte) { FileDescriptorIO.read(requestRead, into: $0) }
        switch got {
        case .failure(let error): return error
        case .success(0): return nil
        case .success:
          guard byte == 0 else {
            flushThenEnd(by: Int32(byte), diagnostics, within: finishSeconds)
            continue
          }
          diagnostics.finishAtProcessEnd(within: finishSeconds)
          // A failed answer (the exit hook gone) only leaves the hook to its time bound.
          _ = withUnsafeBytes(of: byte) { FileDescriptorIO.writeAll(doneWrite, $0) }
        }
      }
    }

    /// Closes every end still open (async-signal-safe: nothing allocated).
    func close() {
      func closeIfOpen(_ fd: Int32) { if fd >= 0 { FileDescriptorIO.closeFile(fd) } }
      closeIfOpen(requestRead)
      closeIfOpen(requestWrite)
      closeIfOpen(doneRead)
      closeIfOpen(doneWrite)
    }

    /// One byte read from `fd`: 1 when there was one.
    private func readByte(_ fd: Int32) -> Result<Int, SystemError> {
      var byte: UInt8 = 0
      return withUnsafeMutableBytes(of: &byte) { FileDescriptorIO.read(fd, into: $0) }
    }
  }

  // Written by `install` before any handler or atexit hook can read it.
  nonisolated(unsafe) private static var channel = Channel()
  /// How long the exit hook waits for the flushing thread's answer.
  nonisolated(unsafe) private static var hookMilliseconds: Int32 = 1000
  /// The line the exit hook writes when the flush did not finish in time, composed beforehand
  /// (the hook allocates nothing).
  nonisolated(unsafe) private static var unfinishedLine = UnsafeMutableRawBufferPointer(
    start: nil, count: 0)
  /// Set by the first stop signal: it decides how the process ends.
  fileprivate static let stopping = Latch()
  /// Whether the exit hook and the signal handlers are in place; a forked child inherits both.
  nonisolated(unsafe) private static var hooksInstalled = false

  /// The sinks' share of the exit deadline: the rest lets their lines about records dropped
  /// meanwhile be said before the process goes.
  static func finishSeconds(_ deadline: Double) -> Double {
    max(0, deadline.isFinite ? deadline : 1) * 0.9
  }

  /// Starts the flushing thread for `diagnostics`, registers the exit hook and, unless
  /// `BINDING_DIAGNOSTICS_SIGNALS=off`, the signal handlers. Called once per process, and once
  /// more in a forked child for its own pipeline (the hooks, inherited, are not added again).
  static func install(_ diagnostics: any ProcessEndClient) {
    ProcessFork.register()
    // Made now, never for the first time in the exit hook or a signal handler.
    WriteGate.prepare()
    _ = stopping.isSet
    let made: Channel
    switch Channel.make() {
    case .success(let channel): made = channel
    case .failure(let error):
      ConfigurationWarning.emit("no flush at exit or on signals: pipe: \(error)")
      return
    }
    let deadline = diagnostics.exitDeadline
    let milliseconds = Int32(clamping: Int((max(0, deadline.isFinite ? deadline : 1) * 1000)))
    hookMilliseconds = milliseconds
    let line = Array(
      ("binding-diagnostics: flush at exit did not finish within \(milliseconds) ms; "
        + "records still queued are lost\n").utf8)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: line.count, alignment: 1)
    buffer.copyBytes(from: line)
    // A forked child's earlier line stays allocated: the hook may be reading it.
    unfinishedLine = buffer
    channel = made
    LibraryThread.start(name: "bindiag.flush") {
      StopSignals.blockOnCallingThread()
      _ = made.serve(diagnostics)
    }
    guard !hooksInstalled else { return }
    hooksInstalled = true
    atexit { ProcessFlush.atExit() }
    switch ProcessInfo.processInfo.environment["BINDING_DIAGNOSTICS_SIGNALS"] {
    case nil, "on": installHandlers()
    case "off": break
    case let other?:
      ConfigurationWarning.emit(
        "BINDING_DIAGNOSTICS_SIGNALS: unknown value \"\(other)\" (expected on or off); using on")
      installHandlers()
    }
  }

  /// The exit hook (async-signal-safe: it may run in an app's signal handler that interrupted
  /// `malloc`): asks the flushing thread and waits for its answer, bounded; says in a line
  /// composed beforehand when none came; then waits (bounded) for writes under way and refuses
  /// later ones (``WriteGate``).
  private static func atExit() {
    guard channel.requestWrite >= 0 else { return }
    if case .finished = channel.askToFlushAndWait(milliseconds: hookMilliseconds) {
    } else if unfinishedLine.count > 0 {
      _ = FileDescriptorIO.writeAll(2, UnsafeRawBufferPointer(unfinishedLine))
    }
    WriteGate.close(waitingAtMost: writesWaitMilliseconds)
  }

  /// Initialises, in the parent, every global ``detachAfterFork()`` touches, so that the child
  /// handler never initialises one (a global's first use takes the runtime's `swift_once` lock
  /// and may allocate). Called by ``ProcessFork/register()`` before the handler is registered.
  static func prepareForFork() {
    _ = channel.requestWrite
    _ = stopping.isSet
    WriteGate.prepare()
  }

  /// In a forked child (async-signal-safe): closes the child's copies of the flush pipes, whose
  /// flushing thread is the parent's, so that neither a stop signal nor `exit` in the child asks
  /// the parent to flush and end. Until the child makes its own pipeline, a stop signal ends it
  /// as the default disposition would.
  static func detachAfterFork() {
    channel.close()
    channel = Channel()
    stopping.reset()
    WriteGate.reopenAfterFork()
  }

  /// Asks the flushing thread (async-signal-safe: one non-blocking `write`).
  fileprivate static func request(_ byte: UInt8) -> Bool {
    guard case .success = channel.ask(byte) else { return false }
    return true
  }

  /// Flushes for at most `seconds`, waits for writes under way, then ends the process by
  /// `signal` as if no handler had been there.
  private static func flushThenEnd(
    by signal: Int32, _ diagnostics: any ProcessEndClient, within seconds: Double
  ) {
    // A thread of its own, not Dispatch: in a child forked from a process whose Dispatch pool
    // had threads, a block sent to that pool never runs.
    let finished = DispatchSemaphore(value: 0)
    let started = LibraryThread.start(name: "bindiag.stop") {
      diagnostics.finishAtProcessEnd(within: seconds)
      finished.signal()
    }
    if case .failure = started {
      diagnostics.finishAtProcessEnd(within: seconds)
      finished.signal()
    }
    if finished.wait(timeout: .now() + .milliseconds(Int(hookMilliseconds))) == .timedOut {
      ConfigurationWarning.emit(
        "flush on signal \(signal) did not finish within \(hookMilliseconds) ms; "
          + "records still queued are lost")
    }
    WriteGate.close(waitingAtMost: writesWaitMilliseconds)
    var action = sigaction()
    action.setHandler(nil)
    sigemptyset(&action.sa_mask)
    _ = sigaction(signal, &action, nil)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signal)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    _ = raise(signal)
  }

  private static func installHandlers() {
    for signal in signals {
      var current = sigaction()
      guard sigaction(signal, nil, &current) == 0, current.handlerIsDefault else { continue }
      var action = sigaction()
      action.setHandler(stopSignalHandler)
      action.sa_flags = SA_RESTART
      sigemptyset(&action.sa_mask)
      _ = sigaction(signal, &action, nil)
    }
  }
}

/// Wakes the flushing thread for the first stop signal and returns: the flushing thread ends
/// the process once the flush is done or the bound has passed.
private func stopSignalHandler(_ signal: Int32) {
  guard ProcessFlush.stopping.set() else { return }
  if !ProcessFlush.request(UInt8(truncatingIfNeeded: signal)) {
    // No flushing thread to ask: end as the default disposition would.
    var action = sigaction()
    action.setHandler(nil)
    sigemptyset(&action.sa_mask)
    _ = sigaction(signal, &action, nil)
    _ = raise(signal)
  }
}

extension sigaction {
  /// Whether the disposition is `SIG_DFL`.
  fileprivate var handlerIsDefault: Bool {
    #if canImport(Glibc)
      return unsafeBitCast(__sigaction_handler.sa_handler, to: Int.self) == 0
    #else
      return unsafeBitCast(__sigaction_u.__sa_handler, to: Int.self) == 0
    #endif
  }

  /// Sets a plain handler, or `SIG_DFL` for `nil`.
  fileprivate mutating func setHandler(_ handler: (@convention(c) (Int32) -> Void)?) {
    #if canImport(Glibc)
      __sigaction_handler.sa_handler = handler
    #else
      __sigaction_u.__sa_handler = handler
    #endif
  }
}
