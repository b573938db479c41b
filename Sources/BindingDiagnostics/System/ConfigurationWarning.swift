/// One-line notices on standard error about configuration and sink fallbacks.
enum ConfigurationWarning {
  /// Writes `binding-diagnostics: <text>` and a newline to standard error with one `write(2)`.
  /// Control characters in `text` are escaped, so a hostile path cannot forge lines.
  static func emit(_ text: String, fileDescriptor: Int32 = 2) {
    let line = "binding-diagnostics: " + LogfmtEscaping.escapingControls(text) + "\n"
    _ = FileDescriptorIO.writeAll(fileDescriptor, Array(line.utf8))
  }
}
