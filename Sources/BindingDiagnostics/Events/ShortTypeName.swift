/// Type names as a developer writes them: `String?` for `Swift.Optional<Swift.String>`.
package enum ShortTypeName {
  /// `name` (as `String(reflecting:)` writes it) without module prefixes, with `T?`, `[T]` and
  /// `[K: V]` for optionals, arrays and dictionaries. A name it cannot read loses only its
  /// `Swift.` prefixes.
  /// - Parameter name: A reflected type name, such as `Swift.Optional<Inbox.Message>`.
  /// - Returns: The short name, such as `Message?`.
  package static func of(_ name: String) -> String {
    var reader = Reader(characters: Array(name))
    if let type = reader.type(), reader.index == reader.characters.count { return type }
    return name.replacing("Swift.", with: "")
  }

  private struct Reader {
    let characters: [Character]
    var index = 0

    /// One type: a qualified name, optionally with generic arguments.
    mutating func type() -> String? {
      let start = index
      while index < characters.count,
        characters[index].isLetter || characters[index].isNumber || characters[index] == "_"
          || characters[index] == "."
      {
        index += 1
      }
      guard index > start else { return nil }
      let qualified = String(characters[start..<index])
      // The first component is the module.
      let name =
        qualified.split(separator: ".").count > 1
        ? String(qualified.drop(while: { $0 != "." }).dropFirst()) : qualified
      guard index < characters.count, characters[index] == "<" else { return name }
      index += 1
      var arguments: [String] = []
      while true {
        guard let argument = type() else { return nil }
        arguments.append(argument)
        guard index < characters.count else { return nil }
        if characters[index] == ">" {
          index += 1
          break
        }
        guard characters[index] == ",", index + 1 < characters.count else { return nil }
        index += 1
        if characters[index] == " " { index += 1 }
      }
      switch (name, arguments.count) {
      case ("Optional", 1): return arguments[0] + "?"
      case ("Array", 1): return "[\(arguments[0])]"
      case ("Dictionary", 2): return "[\(arguments[0]): \(arguments[1])]"
      default: return name + "<" + arguments.joined(separator: ", ") + ">"
      }
    }
  }
}
