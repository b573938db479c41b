package import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `SIGINT` and `SIGTERM` turned into a readable descriptor, so that `follow` can finish what
/// it is printing and exit 0 instead of being killed in the middle of a line. The handler only
/// writes one byte to a pipe; it fires once, and a second signal has its default effect. Both
/// signals are unblocked on the calling thread, in case the parent started us with them blocked
/// (as Foundation's `Process` does from a thread that blocks them).
package final class StopSignal: Sendable {
  /// Readable once a stop was requested.
  package let fd: Int32

  private init(fd: Int32) {
    self.fd = fd
  }

  /// Installs the handlers (once per process).
  /// - Returns: The stop signal, or why it could not be installed (`pipe`, `sigaction`).
  package static func install() -> Result<StopSignal, SystemError> {
    let ends: (read: Int32, write: Int32)
    switch FollowIO.makePipe() {
    case .success(let pipe): ends = pipe
    case .failure(let error): return .failure(error)
    }
    stopWakeDescriptor = ends.write
    for signal in [SIGINT, SIGTERM] {
      if case .failure(let error) = FollowIO.handleOnce(signal, requestStop) {
        return .failure(error)
      }
    }
    if case .failure(let error) = FollowIO.unblock([SIGINT, SIGTERM]) { return .failure(error) }
    return .success(StopSignal(fd: ends.read))
  }

  /// Whether a stop was requested.
  package var isRequested: Bool {
    guard case .success(let ready) = FollowIO.waitReadable([fd], milliseconds: 0) else {
      return false
    }
    return ready[0]
  }

  /// Blocks until a stop is requested.
  package func wait() {
    while !isRequested { _ = FollowIO.waitReadable([fd], milliseconds: -1) }
  }
}

/// The pipe's write end, for the signal handler. `nonisolated(unsafe)`: it is written once,
/// before `sigaction` installs the handler (a system call, so the store is visible to any thread
/// the signal later lands on), and only read after; a lock would not be async-signal-safe.
nonisolated(unsafe) private var stopWakeDescriptor: Int32 = -1

/// The signal handler: one byte into the pipe; `errno` is left as it was.
private func requestStop(_ signal: Int32) {
  let saved = errno
  var byte: UInt8 = 1
  _ = write(stopWakeDescriptor, &byte, 1)
  errno = saved
}
