import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `bindiag` writes to and reads from outside its arguments: standard output and error,
/// standard input, the environment, and whether a stream is a terminal. A run uses the
/// process's own (``process``); a test runs the command line in its own process with a console
/// of its own, set as a task-local for that run only (``current``), so runs side by side do not
/// share streams.
struct Console: Sendable {
  /// Writes bytes to standard output (1) or standard error (2), whole; `false` when they
  /// could not be written (a closed pipe).
  let write: @Sendable (_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool
  /// An environment variable, or `nil` when unset.
  let environment: @Sendable (_ name: String) -> String?
  /// The descriptor `-` reads.
  let standardInput: Int32
  /// Whether standard output (1) or standard error (2) is a terminal.
  let isTerminal: @Sendable (_ fd: Int32) -> Bool
  /// The size of the terminal on standard output (1) or error (2), or `nil` when it is none or
  /// reports none.
  let terminalSize: @Sendable (_ fd: Int32) -> (columns: Int, rows: Int)?
  /// Whether a write to standard output failed (``Output/out(_:)``).
  let outputFailure = OutputFailure()

  /// The process's streams and environment (the system-call seam retries `EINTR` and partial
  /// writes, and stops at any other error).
  static let process = Console(
    write: { fd, bytes in
      if case .success = FileDescriptorIO.writeAll(fd, bytes) { return true }
      return false
    },
    environment: { name in getenv(name).map { String(cString: $0) } },
    standardInput: 0,
    isTerminal: { fd in isatty(fd) == 1 },
    terminalSize: { fd in
      guard case .success(let size) = FileDescriptorIO.windowSize(fd), size.ws_col > 0 else {
        return nil
      }
      return (Int(size.ws_col), Int(size.ws_row))
    })

  /// The console of this run: ``process`` unless a test set its own.
  @TaskLocal static var current = Console.process
}
