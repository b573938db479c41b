import BindingDiagnostics
import BindingDiagnosticsReport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writing to standard output and standard error, whole strings per `write(2)`.
enum Output {
  static func out(_ text: String) {
    write(1, text)
  }

  static func err(_ text: String) {
    write(2, text)
  }

  /// `Error: …` and the usage on standard error; returns 64. The message quotes arguments, so
  /// its control characters are escaped.
  static func usageError(_ message: String, usage: String) -> Int32 {
    err("Error: \(DisplayText.escapingControls(message))\n\(usage)")
    return ExitCode.usage
  }

  /// Whether `fd` is a terminal.
  static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

  /// Writes all of `text` to `fd` (the system-call seam retries `EINTR` and partial writes);
  /// stops at any other error.
  static func write(_ fd: Int32, _ text: String) {
    var text = text
    text.withUTF8 { _ = FileDescriptorIO.writeAll(fd, UnsafeRawBufferPointer($0)) }
  }
}
