import Foundation

/// `bindiag completions bash|zsh|fish`: completion scripts made from ``CommandSpec`` and
/// ``OptionSpec``, so they offer exactly what the parser takes.
enum Completions {
  /// The shells scripts are made for.
  enum Shell: String, CaseIterable {
    case bash, zsh, fish

    /// `bash, zsh or fish`.
    static var names: String { Suggestion.list(allCases.map(\.rawValue)) }
  }

  /// Parses `completions`' arguments: one shell, or `-h`.
  static func run(_ arguments: [String]) throws(UsageError) -> Int32 {
    var shell: Shell?
    var scanner = ArgumentScanner(arguments, command: .completions)
    while let token = scanner.next() {
      switch token {
      case .option(let name, let inline):
        guard try OptionSpec.find(name, inline: inline, command: .completions).id == .help else {
          throw scanner.unknown(name)
        }
        return Help.print(.completions)
      case .positional(let name):
        guard shell == nil else {
          throw UsageError("Unexpected argument '\(name)'", command: .completions)
        }
        guard let named = Shell(rawValue: name) else {
          let closest = Suggestion.closest(to: name, among: Shell.allCases.map(\.rawValue))
          throw UsageError(
            "Unknown shell '\(name)': expected \(Shell.names)"
              + (closest.map { "; did you mean '\($0)'?" } ?? ""),
            command: .completions)
        }
        shell = named
      }
    }
    guard let shell else { throw UsageError("Missing shell", command: .completions) }
    Output.out(script(shell))
    return ExitCode.success
  }

  /// The script for `shell`.
  static func script(_ shell: Shell) -> String {
    switch shell {
    case .bash: bash
    case .zsh: zsh
    case .fish: fish
    }
  }

  /// The commands a shell offers first (`help` included).
  static var commands: [CommandSpec] { CommandSpec.all }

  /// The commands' names, separated by spaces.
  static var commandNames: String { commands.map(\.name).joined(separator: " ") }

  /// The arguments a command's positionals take: files, command names or shells.
  enum Positional {
    case files, commands, shells, none
  }

  static func positional(_ command: Command) -> Positional {
    switch command {
    case .summary, .check, .follow, .export: .files
    case .help: .commands
    case .completions: .shells
    case .demo, .catalog, .manpage: .none
    }
  }

  /// `text` quoted for a POSIX shell: in single quotes, each `'` written `'\''`.
  static func quoted(_ text: String) -> String {
    "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#)
      + "'"
  }

  /// An option's help shortened for shells that show a description: its first sentence, at
  /// most 60 characters, cut at a space.
  static func description(_ help: String) -> String {
    var text = help.map { $0 == "\u{A0}" ? " " : $0 }.reduce(into: "") { $0.append($1) }
    if let end = text.range(of: ". ") { text = String(text[..<end.lowerBound]) }
    if text.hasSuffix(".") { text.removeLast() }
    guard text.count > 60 else { return text }
    let cut = text.prefix(57)
    return String(cut[..<(cut.lastIndex(of: " ") ?? cut.endIndex)]) + "..."
  }
}
