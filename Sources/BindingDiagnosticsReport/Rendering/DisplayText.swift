import BindingDiagnostics

/// Text from the input made safe for a terminal or a one-line report: control characters
/// (C0, DEL, C1) and line separators become `\u00XX`-style escapes, so a hostile file name or
/// message can neither break a line nor send terminal escape sequences.
public enum DisplayText {
  /// `text` with every control character and line separator escaped.
  /// - Parameter text: Text that came from the input.
  public static func escapingControls(_ text: String) -> String {
    LogfmtEscaping.escapingControls(text)
  }
}
