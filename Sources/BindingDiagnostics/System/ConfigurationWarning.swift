/// One-line notices on standard error about configuration and sink fallbacks.
enum ConfigurationWarning {
  /// Writes `binding-diagnostics: <text>` and a newline to standard error with one `write(2)`.
  /// Control characters in `text` are escaped, so a hostile path cannot forge lines.
  static func emit(_ text: String, fileDescriptor: Int32 = 2) {
    var line = Array("binding-diagnostics: ".utf8)
    for scalar in text.unicodeScalars {
      if LogfmtEscaping.isControl(scalar) {
        line.appendUnicodeEscape(scalar.value)
      } else {
        line.append(contentsOf: String(scalar).utf8)
      }
    }
    line.append(UInt8(ascii: "\n"))
    _ = FileDescriptorIO.writeAll(fileDescriptor, line)
  }
}
