/// One short line per event in the shape a compiler gives its diagnostics, for a person reading
/// a terminal: `App/InboxView.swift:31: error: a Binding<Bool> mapped from String? was set to
/// true; no effect [mapped-bool-set-true, save-alert] (+12 folded)`.
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
    if event.suppressed > 0 { line += " (+\(event.suppressed) folded)" }
    line += "\n"
    return Array(line.utf8)
  }

  /// What happened, in a few words: the built-in kinds' own short sentences with the value's
  /// type named, else the event's message without its final full stop.
  static func text(_ event: MisuseEvent) -> String {
    let optional = shortTypeName(event.valueType)
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
    default:
      return event.message.hasSuffix(".") ? String(event.message.dropLast()) : event.message
    }
  }

  /// A type name as a person writes it in Swift: module prefixes dropped, `Optional<T>` as `T?`,
  /// `Array<T>` as `[T]`, `Dictionary<K, V>` as `[K: V]`. `Swift.Optional<InboxKit.Draft>`
  /// becomes `Draft?`. The contract's `value_type` keeps the full name.
  /// - Parameter name: A name as `String(reflecting:)` gives it.
  package static func shortTypeName(_ name: String) -> String {
    var parser = TypeNameParser(Substring(name))
    let type = parser.parseList()
    // Anything the small grammar below does not cover is shown as written.
    guard parser.rest.isEmpty else { return name }
    return type.map(\.written).joined(separator: ", ")
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

extension HumanLineEncoder {
  /// A type name: a dotted path with generic arguments, or a tuple or function type taken as
  /// written.
  fileprivate struct TypeName {
    var path: [Substring]
    var arguments: [TypeName]

    /// The name without its module, sugared where Swift has sugar.
    var written: String {
      let name = path.count > 1 ? path.dropFirst().joined(separator: ".") : String(path[0])
      let qualified = path.count > 1 && path[0] == "Swift"
      switch (qualified || path.count == 1 ? name : "", arguments.count) {
      case ("Optional", 1): return arguments[0].written + "?"
      case ("Array", 1): return "[" + arguments[0].written + "]"
      case ("Dictionary", 2): return "[" + arguments[0].written + ": " + arguments[1].written + "]"
      default:
        if arguments.isEmpty { return name }
        return name + "<" + arguments.map(\.written).joined(separator: ", ") + ">"
      }
    }
  }

  /// A small recursive-descent parser of `A.B<C.D, E<F>>`.
  fileprivate struct TypeNameParser {
    var rest: Substring

    init(_ text: Substring) { rest = text }

    mutating func parseList() -> [TypeName] {
      var list: [TypeName] = []
      while let type = parseType() {
        list.append(type)
        guard rest.hasPrefix(", ") else { break }
        rest = rest.dropFirst(2)
      }
      return list
    }

    mutating func parseType() -> TypeName? {
      var path: [Substring] = []
      while true {
        let identifier = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        guard !identifier.isEmpty else { return nil }
        path.append(identifier)
        rest = rest.dropFirst(identifier.count)
        guard rest.first == "." else { break }
        rest = rest.dropFirst()
      }
      var arguments: [TypeName] = []
      if rest.first == "<" {
        rest = rest.dropFirst()
        arguments = parseList()
        guard rest.first == ">" else { return nil }
        rest = rest.dropFirst()
      }
      return TypeName(path: path, arguments: arguments)
    }
  }
}
