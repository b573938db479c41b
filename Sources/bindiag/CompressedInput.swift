import BindingDiagnostics
import BindingDiagnosticsReport

/// A compressed input (a rotated log that logrotate compressed, a file piped in as it is): the
/// readers refuse it from its first bytes (``InputCompression``), since read as text its bytes
/// are only `other` lines and `check` would pass on them. This says what to run instead.
enum CompressedInput {
  /// Why `file` could not be read, for `Error: cannot read 'FILE': …`: with the command that
  /// reads it decompressed when the reader refused it as compressed, else the error's message.
  /// - Parameters:
  ///   - error: The reader's failure.
  ///   - file: The input as given (`-` for standard input).
  ///   - command: The `bindiag` command that read it.
  static func reason(_ error: SystemError, file: String, command: Command) -> String {
    guard let compression = InputCompression.of(refusal: error) else { return error.message }
    let name = file == "-" ? "FILE" : "'\(DisplayText.escapingControls(file))'"
    return "\(error.message); read it decompressed: \(compression.command) \(name) | bindiag "
      + "\(command.rawValue) -"
  }
}
