/// The built-in sinks as configuration names them: one row per name of `BINDING_DIAGNOSTICS`
/// (and `"type"` of the configuration file). The parser's cases, the names it suggests for a
/// typo, and its error texts (an unknown sink, a sink this platform does not have, a missing
/// argument) are made from these rows, so a new built-in sink is its folder under `Sinks/` and
/// one row here, whose factory makes the ``SinkSpecification`` that opens it.
package enum SinkRegistry {
  /// Where a sink exists.
  package enum Platforms: Sendable {
    /// Everywhere the package builds.
    case all
    /// Apple platforms only (`os` can be imported), with why, for the warning elsewhere.
    case apple(elsewhere: String)

    /// Whether the sink exists where this code runs.
    package var includesThisPlatform: Bool {
      switch self {
      case .all: true
      case .apple:
        #if canImport(os)
          true
        #else
          false
        #endif
      }
    }
  }

  /// One name configuration accepts.
  package struct Entry: Sendable {
    /// The name, as written (`stderr:human`); for a sink taking an argument, the part before
    /// the colon (`jsonl` of `jsonl:PATH`).
    package let name: String
    /// What the argument after `name:` is called in texts (`PATH`), or `nil` when the sink
    /// takes none.
    package let argument: String?
    /// Where the sink exists.
    package let platforms: Platforms
    /// The sink's specification, from its argument (non-empty; `""` when it takes none).
    package let factory: @Sendable (String) -> SinkSpecification

    /// How texts write the name: `jsonl:PATH`, `journald`.
    package var usage: String { argument.map { "\(name):\($0)" } ?? name }
  }

  /// Every built-in sink name, in the order texts list them.
  package static let entries: [Entry] = [
    Entry(name: "stderr", argument: nil, platforms: .all) { _ in .standardError(nil) },
    Entry(name: "stderr:human", argument: nil, platforms: .all) { _ in .standardError(.human) },
    Entry(name: "stderr:logfmt", argument: nil, platforms: .all) { _ in .standardError(.logfmt) },
    Entry(name: "stderr:json", argument: nil, platforms: .all) { _ in .standardError(.jsonLines) },
    Entry(name: "jsonl", argument: "PATH", platforms: .all) { path in
      .jsonLines(path: path, options: JSONLinesFileSink.Options())
    },
    Entry(name: "journald", argument: nil, platforms: .all) { _ in .journald },
    Entry(
      name: "oslog", argument: nil,
      platforms: .apple(elsewhere: "the unified log exists on Apple platforms only")
    ) { _ in .osLog },
    Entry(name: "none", argument: nil, platforms: .all) { _ in .none },
  ]

  /// The names this platform has, for "did you mean" (a sink with an argument by its bare
  /// name: `jsonl`).
  package static var namesOnThisPlatform: [String] {
    entries.filter(\.platforms.includesThisPlatform).map(\.name)
  }

  /// Every name as texts write it, this platform's or not: `stderr, …, oslog or none`.
  package static var expectedList: String {
    let usages = entries.map(\.usage)
    return usages.dropLast().joined(separator: ", ") + " or " + usages.last!
  }

  /// How a written sink name reads.
  package enum Lookup {
    /// A sink, with its specification.
    case found(SinkSpecification)
    /// A sink this platform does not have: the warning's text after the source.
    case unavailable(String)
    /// A sink taking an argument, written without one: the warning's text after the source.
    case missingArgument(String)
    /// No such sink: the warning's text after the source.
    case unknown(String)
  }

  /// Reads `text`, a sink as configuration writes it.
  /// - Parameter text: `stderr`, `jsonl:/var/log/app.jsonl`, …
  package static func lookUp(_ text: String) -> Lookup {
    for entry in entries where entry.argument == nil && entry.name == text {
      guard entry.platforms.includesThisPlatform else {
        guard case .apple(let elsewhere) = entry.platforms else { break }
        return .unavailable("\(entry.name): \(elsewhere); using stderr")
      }
      return .found(entry.factory(""))
    }
    for entry in entries where entry.argument != nil && text.hasPrefix(entry.name + ":") {
      let argument = String(text.dropFirst(entry.name.count + 1))
      guard argument.isEmpty else { return .found(entry.factory(argument)) }
      return .missingArgument(
        "\(entry.name) needs a \(entry.argument!.lowercased()) (\(entry.usage)); using stderr")
    }
    let hint = NameSuggestion.hint(for: text, in: namesOnThisPlatform)
    return .unknown("unknown sink \"\(text)\"\(hint) (expected \(expectedList)); using stderr")
  }
}
