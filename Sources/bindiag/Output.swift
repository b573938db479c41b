import BindingDiagnostics
import BindingDiagnosticsReport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writing to standard output and standard error (the run's ``Console``), whole strings per
/// `write(2)`.
enum Output {
  /// Writes `text` to standard output.
  static func out(_ text: String) {
    console(1, text)
  }

  /// Writes `text` to standard error.
  static func err(_ text: String) {
    console(2, text)
  }

  /// Writes `text` to `console`'s standard error: from a callback a reader may call on a
  /// thread of its own, where the run's task-local console is not set.
  static func err(_ text: String, on console: Console) {
    self.console(2, text, on: console)
  }

  /// Writes `text` to the console's standard output (1) or error (2); a failed write to
  /// standard output is noted (``Console/outputFailure``), one to standard error has nowhere to
  /// be told.
  private static func console(_ fd: Int32, _ text: String, on console: Console = .current) {
    var text = text
    let written = text.withUTF8 { console.write(fd, UnsafeRawBufferPointer($0)) }
    if !written, fd == 1 { console.outputFailure.record() }
  }

  /// `Error: …` and the usage on standard error; returns 64. The message quotes arguments, so
  /// its control characters are escaped.
  static func usageError(_ message: String, usage: String) -> Int32 {
    err("Error: \(DisplayText.escapingControls(message))\n\(usage)")
    return ExitCode.usage
  }

  /// Whether standard output (1) or standard error (2) is a terminal.
  static func isTerminal(_ fd: Int32) -> Bool { Console.current.isTerminal(fd) }

  /// Writes all of `text` to `fd`, a descriptor of this process such as a pager's pipe (the
  /// system-call seam retries `EINTR` and partial writes); stops at any other error.
  static func write(_ fd: Int32, _ text: String) {
    var text = text
    text.withUTF8 { _ = FileDescriptorIO.writeAll(fd, UnsafeRawBufferPointer($0)) }
  }
}
