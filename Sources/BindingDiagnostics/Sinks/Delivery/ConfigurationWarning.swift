/// One-line notices on standard error about configuration and sink fallbacks.
enum ConfigurationWarning {
  /// Writes `binding-diagnostics: <text>` and a newline to standard error with one `write(2)`.
  /// Control characters in `text` are escaped, so a hostile path cannot forge lines.
  static func emit(_ text: String, fileDescriptor: Int32 = 2) {
    let line = "binding-diagnostics: " + LogfmtEscaping.escapingControls(text) + "\n"
    write(Array(line.utf8), fileDescriptor: fileDescriptor)
  }

  /// Writes one whole line the library composed; a standard error whose reader has gone
  /// (`app 2>&1 | head`) fails the write, it never raises `SIGPIPE` in the app.
  static func write(_ line: [UInt8], fileDescriptor: Int32 = 2) {
    _ = FileDescriptorIO.writeAllWithoutSigpipe(fileDescriptor, line)
  }
}
