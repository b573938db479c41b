/// One short line per event in the shape a compiler gives its diagnostics, for a person reading
/// a terminal: `App/InboxView.swift:31: error: a Binding<Bool> mapped from String? was set to
/// true; no effect [mapped-bool-set-true, save-alert] written at App/InboxModel.swift:35
/// (+12 folded)`. The writer is named when the record carries one.
///
/// Not a wire form: readers parse the contract's logfmt and JSON Lines, never this. Type names
/// are shortened (`String?`, not `Swift.Optional<Swift.String>`) and control characters from
/// the event are escaped, so a hostile label can neither break the line nor reach the terminal
/// as an escape sequence. With colours, the level word is painted as journalctl (and `bindiag`)
/// paint a line of that priority.
package struct HumanLineEncoder: Sendable {
  /// Whether the level word is coloured with ANSI escape sequences.
  package var colors: Bool

  /// An encoder.
  /// - Parameter colors: Whether to colour the level word.
  package init(colors: Bool) {
    self.colors = colors
  }

  /// The event's line, ending in a newline.
  /// - Parameter event: The event.
  package func encode(_ event: MisuseEvent) -> [UInt8] {
    var line = LogfmtEscaping.escapingControls(event.file) + ":" + String(event.line) + ": "
    let level = event.level.rawValue + ":"
    if colors, let sequence = HumanLineEncoder.colorSequence(for: event.level) {
      line += sequence + level + HumanLineEncoder.normal
    } else {
      line += level
    }
    line += " " + LogfmtEscaping.escapingControls(HumanLineEncoder.text(event)) + " ["
    line += event.kind.code
    if let label = event.label { line += ", " + LogfmtEscaping.escapingControls(label) }
    line += "]"
    if let writer = event.writer {
      line += " written at " + LogfmtEscaping.escapingControls(writer)
    }
    if event.suppressed > 0 { line += " (+\(event.suppressed) folded)" }
    line += "\n"
    return Array(line.utf8)
  }

  /// What happened, in a few words: the built-in kinds' own short sentences with the value's
  /// type named, else the event's message without its final full stop.
  static func text(_ event: MisuseEvent) -> String {
    let optional = ShortTypeName.of(event.valueType)
    let wrapped = optional.hasSuffix("?") ? String(optional.dropLast()) : optional
    switch event.kind {
    case .mappedBoolSetTrue:
      return "a Binding<Bool> mapped from \(optional) was set to true; no effect"
    case .unwrappedReadAfterNil:
      return "a Binding<\(wrapped)> unwrapped from \(optional) was read after it became nil;"
        + " the last value was returned"
    case .unwrappedWriteAfterNil:
      return "a Binding<\(wrapped)> unwrapped from \(optional) was written after it became nil;"
        + " the write was dropped"
    case .setOffMainThread:
      return "a Binding<\(optional)> made on the main thread was written from another thread"
    case .reentrantWrite:
      return "a Binding<\(optional)> was written while a write to it was still running;"
        + " the inner write happened"
    default:
      return event.message.hasSuffix(".") ? String(event.message.dropLast()) : event.message
    }
  }

  /// Ends any colour: systemd's `ANSI_NORMAL`.
  package static let normal = "\u{1b}[0m"

  /// The sequence journalctl starts a line of `level`'s syslog priority with (systemd's
  /// `get_log_colors`), or `nil` for the plain ones (`info`).
  /// - Parameter level: The level.
  package static func colorSequence(for level: MisuseLevel) -> String? {
    switch level.syslogPriority {
    case ...3: "\u{1b}[0;1;31m"  // ANSI_HIGHLIGHT_RED
    case 4: "\u{1b}[0;1;38;5;185m"  // ANSI_HIGHLIGHT_YELLOW (khaki)
    case 5: "\u{1b}[0;1;39m"  // ANSI_HIGHLIGHT
    case 7...: "\u{1b}[0;38;5;245m"  // ANSI_GREY
    default: nil
    }
  }
}
