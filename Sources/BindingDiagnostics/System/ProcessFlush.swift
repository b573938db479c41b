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
/// The work happens on a thread of its own, blocked in `read(2)` until asked. A signal handler
/// only writes one byte to wake it (async-signal-safe, never blocking) and returns at once, so
/// the thread the signal interrupted (which may hold a lock the flush needs) runs on. The
/// flushing thread then flushes for at most ``timeoutMilliseconds``, restores the default
/// disposition and raises the signal again, so the process still ends by that signal (exit
/// status and core-dump behaviour unchanged); the first stop signal decides. The `atexit` hook
/// asks the same thread and waits the same bound, so an exit from any thread (an app's own
/// handler calling `exit(0)` while another thread misuses included) never re-locks a lock its
/// caller holds and never hangs. Either way the sinks then write what is queued and end their
/// threads (``Diagnostics/finishAtProcessEnd(within:)``): a write still under way when the
/// process goes would be cut short, tearing a record. Records made meanwhile by threads still
/// running are dropped, counted and said in one line. `BINDING_DIAGNOSTICS_SIGNALS=off` leaves
/// signals alone.
enum ProcessFlush {
  /// The stop signals handled.
  static let signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]
  /// How long a stop signal or `exit` waits for the flush.
  static let timeoutMilliseconds: Int32 = 1000
  /// How long the sinks get to write what is queued, within ``timeoutMilliseconds``, so that
  /// their line about records dropped meanwhile is said before the process goes.
  private static let finishSeconds = 0.9

  // Written once by `install` before any handler or atexit hook can read them: plain integers a
  // signal handler may read. `stopping` is the first stop signal seen (0 before).
  nonisolated(unsafe) private static var requestWrite: Int32 = -1
  nonisolated(unsafe) private static var doneRead: Int32 = -1
  nonisolated(unsafe) fileprivate static var stopping: Int32 = 0
  /// The pipes' other ends (the flushing thread's), closed in a forked child.
  nonisolated(unsafe) private static var requestRead: Int32 = -1
  nonisolated(unsafe) private static var doneWrite: Int32 = -1
  /// Whether the exit hook and the signal handlers are in place; a forked child inherits both.
  nonisolated(unsafe) private static var hooksInstalled = false

  /// Starts the flushing thread for `diagnostics`, registers the exit hook and, unless
  /// `BINDING_DIAGNOSTICS_SIGNALS=off`, the signal handlers. Called once per process, and once
  /// more in a forked child for its own pipeline (the hooks, inherited, are not added again).
  static func install(_ diagnostics: Diagnostics) {
    ProcessFork.register()
    guard case .success(let request) = FileDescriptorIO.makePipe(),
      case .success(let done) = FileDescriptorIO.makePipe()
    else {
      ConfigurationWarning.emit(
        "no flush at exit or on signals: pipe: \(SystemError("pipe", code: errno))")
      return
    }
    // Neither a handler nor the flushing thread may ever block on a pipe nobody reads.
    FileDescriptorIO.setNonBlocking(request.write)
    FileDescriptorIO.setNonBlocking(done.read)
    FileDescriptorIO.setNonBlocking(done.write)
    requestWrite = request.write
    doneRead = done.read
    requestRead = request.read
    doneWrite = done.write
    LibraryThread.start(name: "bindiag.flush") {
      blockStopSignals()
      var byte: UInt8 = 0
      while true {
        let count = LibraryThread.waiting { read(request.read, &byte, 1) }
        if count < 0 && errno == EINTR { continue }
        guard count == 1 else { return }
        if byte == 0 {
          diagnostics.finishAtProcessEnd(within: finishSeconds)
          _ = write(done.write, &byte, 1)
        } else {
          flushThenEnd(by: Int32(byte), diagnostics)
        }
      }
    }
    guard !hooksInstalled else { return }
    hooksInstalled = true
    atexit {
      if !ProcessFlush.requestExitFlushAndWait() {
        ConfigurationWarning.emit(
          "flush at exit did not finish within \(ProcessFlush.timeoutMilliseconds) ms; "
            + "records still queued are lost")
      }
    }
    switch ProcessInfo.processInfo.environment["BINDING_DIAGNOSTICS_SIGNALS"] {
    case nil, "on": installHandlers()
    case "off": break
    case let other?:
      ConfigurationWarning.emit(
        "BINDING_DIAGNOSTICS_SIGNALS: unknown value \"\(other)\" (expected on or off); using on")
      installHandlers()
    }
  }

  /// In a forked child (async-signal-safe): closes the child's copies of the flush pipes, whose
  /// flushing thread is the parent's, so that neither a stop signal nor `exit` in the child asks
  /// the parent to flush and end. Until the child makes its own pipeline, a stop signal ends it
  /// as the default disposition would.
  static func detachAfterFork() {
    func detach(_ fd: inout Int32) {
      if fd >= 0 { _ = close(fd) }
      fd = -1
    }
    detach(&requestWrite)
    detach(&doneRead)
    detach(&requestRead)
    detach(&doneWrite)
    stopping = 0
  }

  /// Blocks the stop signals on the calling thread: the library's own threads never take them.
  static func blockStopSignals() {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in signals { sigaddset(&set, signal) }
    pthread_sigmask(SIG_BLOCK, &set, nil)
  }

  /// Asks the flushing thread (async-signal-safe: one non-blocking `write`).
  fileprivate static func request(_ byte: UInt8) -> Bool {
    guard requestWrite >= 0 else { return false }
    var byte = byte
    return write(requestWrite, &byte, 1) == 1
  }

  /// The exit hook: asks for a flush and waits at most ``timeoutMilliseconds``.
  /// - Returns: Whether the flush finished in time.
  static func requestExitFlushAndWait() -> Bool {
    guard requestWrite >= 0 else { return true }
    var byte: UInt8 = 0
    while read(doneRead, &byte, 1) == 1 {}  // answers to earlier, timed-out requests
    guard request(0) else { return false }
    var waiting = pollfd(fd: doneRead, events: Int16(POLLIN), revents: 0)
    while true {
      let ready = poll(&waiting, 1, timeoutMilliseconds)
      if ready < 0 && errno == EINTR { continue }
      return ready == 1 && read(doneRead, &byte, 1) == 1
    }
  }

  /// Flushes for at most the bound, then ends the process by `signal` as if no handler had
  /// been there.
  private static func flushThenEnd(by signal: Int32, _ diagnostics: Diagnostics) {
    let finished = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      diagnostics.finishAtProcessEnd(within: finishSeconds)
      finished.signal()
    }
    if finished.wait(timeout: .now() + .milliseconds(Int(timeoutMilliseconds))) == .timedOut {
      ConfigurationWarning.emit(
        "flush on signal \(signal) did not finish within \(timeoutMilliseconds) ms; "
          + "records still queued are lost")
    }
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
  guard ProcessFlush.stopping == 0 else { return }
  ProcessFlush.stopping = signal
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
