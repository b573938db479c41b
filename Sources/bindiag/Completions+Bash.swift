extension Completions {
  /// A bash function `_bindiag` for `complete -F`: commands first, then per command its
  /// options, each option's values (a list, files or directories) and its files.
  static var bash: String {
    let names = commands.map(\.name).joined(separator: " ")
    var script = """
      # bash completion for bindiag; made by 'bindiag completions bash'.
      _bindiag() {
        local cur prev command
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD-1]}
        COMPREPLY=()
        if [[ $COMP_CWORD -eq 1 && $cur != -* ]]; then
          mapfile -t COMPREPLY < <(compgen -W \(quoted(names)) -- "$cur")
          return
        fi
        command=${COMP_WORDS[1]}
        case $command in
          \(commands.map(\.name).joined(separator: "|"))) ;;
          *) command=summary ;;
        esac
        case $command in

      """
    for spec in commands {
      script += "    \(spec.name))\n"
      let options = OptionSpec.options(of: spec.command)
      // Options whose values complete alike share a branch, in table order.
      var branches: [(action: String, names: [String])] = []
      for option in options where option.value != nil {
        let action = bashValues(option)
        if let index = branches.firstIndex(where: { $0.action == action }) {
          branches[index].names += option.names
        } else {
          branches.append((action, option.names))
        }
      }
      if !branches.isEmpty {
        script += "      case $prev in\n"
        for branch in branches {
          script += "        \(branch.names.joined(separator: "|")))\n"
          if !branch.action.isEmpty { script += "          \(branch.action)\n" }
          script += "          return ;;\n"
        }
        script += "      esac\n"
      }
      var spellings = options.flatMap(\.names)
      if spec.command == .summary { spellings.append("--version") }
      script += "      if [[ $cur == -* ]]; then\n"
      script +=
        "        mapfile -t COMPREPLY < <(compgen -W \(quoted(spellings.joined(separator: " "))) -- \"$cur\")\n"
      switch positional(spec.command) {
      case .files:
        script += "      else\n        mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
      case .commands:
        script +=
          "      elif [[ $COMP_CWORD -eq 2 ]]; then\n        mapfile -t COMPREPLY < <(compgen -W \(quoted(commandNames)) -- \"$cur\")\n"
      case .shells:
        script +=
          "      elif [[ $COMP_CWORD -eq 2 ]]; then\n        mapfile -t COMPREPLY < <(compgen -W \(quoted(Shell.allCases.map(\.rawValue).joined(separator: " "))) -- \"$cur\")\n"
      case .none:
        break
      }
      script += "      fi\n      ;;\n"
    }
    script += """
        esac
      }
      complete -F _bindiag bindiag

      """
    return script
  }

  /// What fills `COMPREPLY` for `option`'s value.
  private static func bashValues(_ option: OptionSpec) -> String {
    switch option.valueKind {
    case .file: return "mapfile -t COMPREPLY < <(compgen -f -- \"$cur\")"
    case .directory: return "mapfile -t COMPREPLY < <(compgen -d -- \"$cur\")"
    case .text:
      if option.choices.isEmpty { return "" }
      let choices = option.choices.joined(separator: " ")
      return "mapfile -t COMPREPLY < <(compgen -W \(quoted(choices)) -- \"$cur\")"
    }
  }
}
