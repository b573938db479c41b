import Foundation
import TestSupport

@testable import bindiag

#if canImport(Glibc)
  import Glibc
#endif

/// `bindiag` run in the test's own process: `Bindiag.run` with a ``Console`` of the run's own,
/// so runs side by side share no stream. What the built binary would see is what it sees: the
/// environment (this process's, less `BINDING_DIAGNOSTICS*`, plus the run's), no terminal, and
/// standard input as a stream (a socket fed by a thread, read as a pipe is). The end-to-end
/// suites (`BindiagEndToEndTests`) run the same command lines through the built binary and
/// compare.
enum BindiagInProcess {
  /// Bytes one stream received, from any thread.
  private final class Captured: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []

    func append(_ buffer: UnsafeRawBufferPointer) {
      lock.withLock { bytes.append(contentsOf: buffer) }
    }

    var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }
  }

  /// A failure to set the run's standard input up.
  struct SetupError: Error, CustomStringConvertible {
    let description: String
  }

  /// Whether `arguments` with `environment` run here as the binary would run them. Not
  /// `follow` (it ends the process by `_exit`), not `demo` (its app writes through the
  /// process's own misuse pipeline), and not a time zone other than this process's (local
  /// time is the process's: `TZ` is read once by the C library).
  static func runsLikeTheBinary(_ arguments: [String], environment: [String: String]) -> Bool {
    if let command = arguments.first, command == "follow" || command == "demo" { return false }
    let zone = environment["TZ"]
    return zone == ProcessInfo.processInfo.environment["TZ"] || (zone == "UTC" && zoneIsUTC)
  }

  /// Whether this process's local time is UTC, called `UTC`, in winter and summer.
  private static let zoneIsUTC: Bool = [Int(1_767_225_600), 1_782_864_000].allSatisfy { instant in
    var seconds = time_t(instant)
    var parts = tm()
    guard localtime_r(&seconds, &parts) != nil, let zone = parts.tm_zone else { return false }
    return parts.tm_gmtoff == 0 && String(cString: zone) == "UTC"
  }

  /// Runs `arguments` with `environment` over this process's, and `stdin` on standard input.
  static func run(
    _ arguments: [String], environment: [String: String], stdin: Data?
  ) throws -> ProcessOutput {
    var ends: [Int32] = [-1, -1]
    let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    guard socketpair(AF_UNIX, type, 0, &ends) == 0 else {
      throw SetupError(description: "socketpair: errno \(errno)")
    }
    // The feeder writes what the run reads and closes its end, as a shell's pipe does; a run
    // that stops reading early makes its writes fail (no SIGPIPE: MSG_NOSIGNAL).
    let fed = DispatchSemaphore(value: 0)
    Thread { [input = stdin ?? Data(), fd = ends[1]] in
      input.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
          let sent = send(
            fd, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
          if sent < 0 && errno == EINTR { continue }
          if sent <= 0 { break }
          offset += sent
        }
      }
      close(fd)
      fed.signal()
    }.start()
    var inherited = ProcessInfo.processInfo.environment
    for key in inherited.keys where key.hasPrefix("BINDING_DIAGNOSTICS") { inherited[key] = nil }
    let seen = inherited.merging(environment) { $1 }
    let out = Captured()
    let err = Captured()
    let console = Console(
      write: { fd, bytes in
        (fd == 1 ? out : err).append(bytes)
        return true
      },
      environment: { seen[$0] }, standardInput: ends[0], isTerminal: { _ in false },
      terminalSize: { _ in nil })
    let status = Console.$current.withValue(console) { Bindiag.run(arguments) }
    // Unblocks a feeder whose reader stopped early.
    close(ends[0])
    fed.wait()
    return ProcessOutput(stdout: out.text, stderr: err.text, status: status)
  }
}
