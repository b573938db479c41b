/// Help and usage texts, made from ``CommandSpec`` and ``OptionSpec``; `-h`, `--help` and
/// `help COMMAND` print the same text to stdout.
enum Help {
  /// The column option help starts at.
  static let helpColumn = 26
  /// The width help fits.
  static let width = 80

  static func run(_ arguments: [String]) -> Int32 {
    guard let name = arguments.first else {
      Output.out(overview)
      return ExitCode.success
    }
    guard let command = Command(rawValue: name) else {
      return Output.usageError(Command.unknown(name).message, usage: usage(nil))
    }
    return print(command)
  }

  static func print(_ command: Command) -> Int32 {
    Output.out(text(command))
    return ExitCode.success
  }

  static func usage(_ command: Command?) -> String {
    guard let command else {
      return "Usage: bindiag <command> [<options>]\n  See 'bindiag --help' for more information.\n"
    }
    return
      "Usage: \(synopsis(command))\n  See 'bindiag help \(command.rawValue)' for more information.\n"
  }

  static func synopsis(_ command: Command) -> String {
    "bindiag " + CommandSpec.of(command).synopsis
  }

  static var overview: String {
    var text = """
      OVERVIEW: Summarise binding misuse reports from files, pipes and the journal.

      USAGE: bindiag <command> [<options>]

      COMMANDS:

      """
    for spec in CommandSpec.all {
      let name = spec.command == .summary ? "summary (default)" : spec.name
      text += row(name, spec.abstract)
    }
    text += """

      OPTIONS:
        --version               Show the version.
        -h, --help              Show help information.

        See 'bindiag help <command>' for detailed help. A first argument that is
        not a command is read as a file, unless it looks like a mistyped command:
        write './NAME' or 'bindiag summary NAME' to read a file named like one.

      """
    return text
  }

  static func text(_ command: Command) -> String {
    guard command != .help else { return overview }
    let spec = CommandSpec.of(command)
    var text = "OVERVIEW: \(spec.overview)\n\nUSAGE: \(synopsis(command))\n"
    let options = OptionSpec.options(of: command)
    for section in OptionSpec.Section.allCases {
      var rows = ""
      if section == .inputs && spec.takesFiles {
        rows += row(
          "<file> ...",
          "JSON Lines files (rotated siblings too), logfmt from standard error, or `journalctl -o json` output; '-' or none: standard input. After --, every argument is a file."
        )
      }
      for option in options where option.section == section {
        rows += row(option.label, option.help)
      }
      if !rows.isEmpty { text += "\n\(section.rawValue):\n" + rows }
    }
    for note in spec.notes {
      text += "\n\(note.heading):\n" + note.lines.map { "  \($0)\n" }.joined()
    }
    if let exitCodes = spec.exitCodes {
      text += "\nEXIT CODES:\n" + wrap(exitCodes, indent: 2, first: 2)
    }
    if !spec.examples.isEmpty {
      text += "\nEXAMPLES:\n"
      for example in spec.examples {
        text += example.contains("bindiag ") ? "  \(example)\n" : "  bindiag \(example)\n"
      }
    }
    return text
  }

  /// `  label                   help`, the help wrapped at ``helpColumn``; on its own line
  /// when the label leaves no room.
  static func row(_ label: String, _ help: String) -> String {
    let start = "  " + label
    if start.count + 1 <= helpColumn {
      let padded = start + String(repeating: " ", count: helpColumn - start.count)
      return padded + wrap(help, indent: helpColumn, first: helpColumn).dropFirst(helpColumn)
    }
    return start + "\n" + wrap(help, indent: helpColumn, first: helpColumn)
  }

  /// `text` in lines of at most ``width`` columns, broken at spaces (not at no-break spaces,
  /// which show as spaces): the first line indented `first` columns, the others `indent`.
  static func wrap(_ text: String, indent: Int, first: Int) -> String {
    var lines: [String] = []
    var line = String(repeating: " ", count: first)
    var empty = true
    for word in text.split(separator: " ") {
      if !empty && line.count + 1 + word.count > width {
        lines.append(line)
        line = String(repeating: " ", count: indent)
        empty = true
      }
      line += (empty ? "" : " ") + word
      empty = false
    }
    lines.append(line)
    return String(lines.joined(separator: "\n").map { $0 == "\u{A0}" ? " " : $0 }) + "\n"
  }
}
