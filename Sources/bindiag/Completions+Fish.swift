extension Completions {
  /// fish `complete` lines: commands with their abstracts, then per command each option with
  /// its description and values.
  static var fish: String {
    let all = commands.map(\.name).joined(separator: " ")
    var script = """
      # fish completion for bindiag; made by 'bindiag completions fish'.
      complete -c bindiag -f

      """
    for spec in commands {
      script +=
        "complete -c bindiag -n \(quoted("not __fish_seen_subcommand_from \(all)")) -a \(spec.name) -d \(quoted(spec.abstract))\n"
    }
    for spec in commands {
      let condition = "-n " + quoted("__fish_seen_subcommand_from \(spec.name)")
      for option in OptionSpec.options(of: spec.command) {
        var line = "complete -c bindiag \(condition)"
        if let short = option.short { line += " -s \(short.dropFirst())" }
        line += " -l \(option.long.dropFirst(2))"
        if option.value != nil {
          switch option.valueKind {
          case .file: line += " -r -F"
          case .directory: line += " -r -a '(__fish_complete_directories)'"
          case .text:
            line += " -x"
            if !option.choices.isEmpty {
              line += " -a " + quoted(option.choices.joined(separator: " "))
            }
          }
        }
        script += line + " -d " + quoted(description(option.help)) + "\n"
      }
      switch positional(spec.command) {
      case .files: script += "complete -c bindiag \(condition) -F\n"
      case .commands: script += "complete -c bindiag \(condition) -a \(quoted(all))\n"
      case .shells: script += "complete -c bindiag \(condition) -a 'bash zsh fish'\n"
      case .none: break
      }
    }
    return script
  }
}
