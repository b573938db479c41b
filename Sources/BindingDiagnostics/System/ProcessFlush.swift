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
/// The flush runs on a thread of its own, blocked in `read(2)` until asked. A signal handler
/// only writes one byte to wake it (async-signal-safe), waits for its answer for at most
/// ``timeoutMilliseconds``, restores the default disposition and raises the signal again, so
/// the exit status (killed by the signal) and core-dump behaviour stay what they would have
/// been. The `atexit` hook asks the same thread and waits the same bound, so an exit from any
/// thread (an app's own `SIGTERM` handler calling `exit(0)` while another thread misuses
/// included) never re-locks a lock its caller holds, and never hangs: past the bound it says so
/// and lets the process end. `BINDING_DIAGNOSTICS_SIGNALS=off` leaves signals alone.
enum ProcessFlush {
  /// The stop signals handled.
  static let signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]
  /// How long a signal or `exit` waits for the flush.
  static let timeoutMilliseconds: Int32 = 1000

  // Written once by `install` before any handler or atexit hook can read them, never again:
  // plain integers a signal handler may read.
  nonisolated(unsafe) private static var requestWrite: Int32 = -1
  nonisolated(unsafe) private static var doneRead: Int32 = -1

  /// Starts the flushing thread for `diagnostics`, registers the exit hook and, unless
  /// `BINDING_DIAGNOSTICS_SIGNALS=off`, the signal handlers. Called once per process.
  static func install(_ diagnostics: Diagnostics) {
    var request: [Int32] = [-1, -1]
    var done: [Int32] = [-1, -1]
    guard pipe(&request) == 0 else {
      ConfigurationWarning.emit("no flush at exit: pipe: \(SystemError("pipe", code: errno))")
      return
    }
    guard pipe(&done) == 0 else {
      close(request[0])
      close(request[1])
      ConfigurationWarning.emit("no flush at exit: pipe: \(SystemError("pipe", code: errno))")
      return
    }
    for fd in request + done { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    // The handler drains stale answers without blocking.
    _ = fcntl(done[0], F_SETFL, fcntl(done[0], F_GETFL) | O_NONBLOCK)
    requestWrite = request[1]
    doneRead = done[0]
    let requestRead = request[0]
    let doneWrite = done[1]
    let thread = Thread {
      blockStopSignals()
      var byte: UInt8 = 0
      while true {
        let count = read(requestRead, &byte, 1)
        if count < 0 && errno == EINTR { continue }
        guard count == 1 else { return }
        diagnostics.flush()
        _ = write(doneWrite, &byte, 1)
      }
    }
    thread.name = "binding-diagnostics.flush"
    thread.start()
    atexit {
      if !ProcessFlush.requestFlushAndWait() {
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

  /// Blocks the stop signals on the calling thread: the sinks' own threads must never run the
  /// handler, which waits for them.
  static func blockStopSignals() {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in signals { sigaddset(&set, signal) }
    pthread_sigmask(SIG_BLOCK, &set, nil)
  }

  /// Wakes the flushing thread and waits for it, at most ``timeoutMilliseconds``.
  /// Async-signal-safe: only `read`, `write` and `poll`.
  /// - Returns: Whether the flush finished in time.
  static func requestFlushAndWait() -> Bool {
    guard requestWrite >= 0 else { return true }
    var byte: UInt8 = 0
    while read(doneRead, &byte, 1) == 1 {}  // answers to earlier, timed-out requests
    guard write(requestWrite, &byte, 1) == 1 else { return false }
    var waiting = pollfd(fd: doneRead, events: Int16(POLLIN), revents: 0)
    while true {
      let ready = poll(&waiting, 1, timeoutMilliseconds)
      if ready < 0 && errno == EINTR { continue }
      return ready == 1 && read(doneRead, &byte, 1) == 1
    }
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

/// Flushes, then lets the signal do what it would have done: the default action, re-raised
/// once this handler returns (the signal is blocked while it runs).
private func stopSignalHandler(_ signal: Int32) {
  if !ProcessFlush.requestFlushAndWait() {
    let text: StaticString = "binding-diagnostics: flush on signal did not finish within 1 s\n"
    _ = write(2, text.utf8Start, text.utf8CodeUnitCount)
  }
  var action = sigaction()
  action.setHandler(nil)
  sigemptyset(&action.sa_mask)
  _ = sigaction(signal, &action, nil)
  _ = raise(signal)
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
