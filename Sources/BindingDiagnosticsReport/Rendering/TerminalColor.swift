package import BindingDiagnostics

/// ANSI colours for a terminal, by level with journalctl's palette (systemd's
/// `get_log_colors`): critical and error bold red, warning bold khaki, notice bold, info plain,
/// debug and trace grey. Disabled, every function returns its text unchanged.
package struct TerminalColor: Sendable {
  /// Whether escape sequences are written.
  package var enabled: Bool

  /// Colours, or none.
  /// - Parameter enabled: Whether escape sequences are written.
  package init(enabled: Bool) {
    self.enabled = enabled
  }

  /// Ends any colour: systemd's `ANSI_NORMAL`.
  static let normal = HumanLineEncoder.normal

  /// The sequence journalctl starts a line of `level`'s syslog priority with, or `nil` for the
  /// plain ones (`info`): the same palette as the standard-error sink's human lines.
  /// - Parameter level: The level.
  package static func sequence(for level: MisuseLevel) -> String? {
    HumanLineEncoder.colorSequence(for: level)
  }

  /// `text` in `level`'s colour.
  /// - Parameters:
  ///   - text: Text already made safe for a terminal.
  ///   - level: The level whose colour to use.
  package func paint(_ text: String, _ level: MisuseLevel) -> String {
    guard enabled, let sequence = TerminalColor.sequence(for: level) else { return text }
    return sequence + text + TerminalColor.normal
  }

  /// `text` in bold (systemd's `ANSI_HIGHLIGHT`), for headings.
  /// - Parameter text: Text already made safe for a terminal.
  package func bold(_ text: String) -> String {
    enabled ? "\u{1b}[0;1;39m" + text + TerminalColor.normal : text
  }
}
