import BindingDiagnostics

/// Text from the input made safe for a terminal or a one-line report: control characters
/// (C0, DEL, C1), line separators and bidirectional controls become `\uXXXX` escapes, so a
/// hostile file name or message can neither break a line, nor send terminal escape sequences,
/// nor show itself in another order than it is.
package enum DisplayText {
  /// `text` with every control character, line separator and bidirectional control escaped.
  /// - Parameter text: Text that came from the input.
  package static func escapingControls(_ text: String) -> String {
    LogfmtEscaping.escapingControls(text)
  }
}
