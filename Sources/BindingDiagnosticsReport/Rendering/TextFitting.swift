/// Measuring and shortening terminal text so a table fits its width: display columns (wide East
/// Asian characters and emoji take two), paths shortened from the left by whole components,
/// names and labels from the right. Kinds are never shortened: they are what people search for.
package enum TextFitting {
  /// The columns `text` takes on a terminal.
  /// - Parameter text: Text without escape sequences or control characters.
  package static func width(_ text: String) -> Int {
    var columns = 0
    for character in text {
      columns += character.unicodeScalars.first.map { isWide($0) ? 2 : 1 } ?? 1
    }
    return columns
  }

  /// Whether a character starting with `scalar` takes two columns (Unicode East Asian Wide and
  /// Fullwidth, and emoji presentation).
  static func isWide(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
      true
    default:
      false
    }
  }

  /// `text` cut to at most `columns`, keeping its end: `…Views/ContentView.swift:42`.
  /// - Parameters:
  ///   - text: The text.
  ///   - columns: The most columns, at least 1.
  package static func keepingEnd(_ text: String, _ columns: Int) -> String {
    guard width(text) > columns else { return text }
    var kept = ""
    var used = 1  // the ellipsis
    for character in text.reversed() {
      let next = width(String(character))
      if used + next > columns { break }
      kept.insert(character, at: kept.startIndex)
      used += next
    }
    return "…" + kept
  }

  /// A path (with any `:LINE`) cut to at most `columns` at its slashes, keeping whole
  /// components from the end: `…/Views/InboxModel.swift:29`, then the bare `InboxModel.swift:29`;
  /// only a file name wider than `columns` itself is cut inside, keeping its end.
  /// - Parameters:
  ///   - path: The path.
  ///   - columns: The most columns, at least 1.
  package static func keepingPathEnd(_ path: String, _ columns: Int) -> String {
    guard width(path) > columns else { return path }
    let components = path.split(separator: "/", omittingEmptySubsequences: false)
    for start in components.indices.dropFirst() {
      let kept = "…/" + components[start...].joined(separator: "/")
      if width(kept) <= columns { return kept }
    }
    return keepingEnd(String(components.last ?? Substring(path)), columns)
  }

  /// `text` cut to at most `columns`, keeping its start: `feed-error-ban…`.
  /// - Parameters:
  ///   - text: The text.
  ///   - columns: The most columns, at least 1.
  package static func keepingStart(_ text: String, _ columns: Int) -> String {
    guard width(text) > columns else { return text }
    var kept = ""
    var used = 1
    for character in text {
      let next = width(String(character))
      if used + next > columns { break }
      kept.append(character)
      used += next
    }
    return kept + "…"
  }
}
