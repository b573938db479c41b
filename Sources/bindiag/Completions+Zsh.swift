extension Completions {
  /// A zsh completion function (`#compdef bindiag`): commands with their abstracts, then per
  /// command `_arguments` with each option's description and values.
  static var zsh: String {
    var script = """
      #compdef bindiag
      # zsh completion for bindiag; made by 'bindiag completions zsh'.

      _bindiag() {
        local -a commands
        commands=(

      """
    for spec in commands {
      script += "    \(quoted(spec.name + ":" + spec.abstract))\n"
    }
    script += """
        )
        if (( CURRENT == 2 )) && [[ ${words[CURRENT]} != -* ]]; then
          _describe -t commands 'bindiag command' commands
          return
        fi
        local command=${words[2]}
        if (( ${commands[(I)${command}:*]} )); then
          shift words
          (( CURRENT-- ))
        else
          command=summary
        fi
        case $command in

      """
    for spec in commands {
      script += "    \(spec.name))\n      _arguments -s \\\n"
      for option in OptionSpec.options(of: spec.command) {
        script += "        \(zshSpec(option)) \\\n"
      }
      switch positional(spec.command) {
      case .files: script += "        '*:file:_files'\n"
      case .commands:
        script += "        \(quoted(":command:(" + commandNames + ")"))\n"
      case .shells: script += "        ':shell:(bash zsh fish)'\n"
      case .none: script += "\n"
      }
      script += "      ;;\n"
    }
    script += """
        esac
      }

      _bindiag "$@"

      """
    return script
  }

  /// An `_arguments` spec: `'(-f --format)'{-f+,--format=}'[description]:format:(a b)'`.
  private static func zshSpec(_ option: OptionSpec) -> String {
    let description =
      "[" + description(option.help).map { "[]:\\".contains($0) ? "\\\($0)" : "\($0)" }.joined()
      + "]"
    var action = ""
    if let value = option.value {
      switch option.valueKind {
      case .file: action = ":\(value):_files"
      case .directory: action = ":\(value):_files -/"
      case .text: action = ":\(value):(\(option.choices.joined(separator: " ")))"
      }
    }
    let suffix = option.value == nil ? "" : "="
    let exclusion = option.repeatable ? "*" : "(\(option.names.joined(separator: " ")))"
    let spellings = option.names.map {
      $0 + ($0.hasPrefix("--") ? suffix : (suffix.isEmpty ? "" : "+"))
    }
    if spellings.count == 1 {
      return quoted((option.repeatable ? "*" : "") + spellings[0] + description + action)
    }
    return quoted(exclusion) + "{" + spellings.joined(separator: ",") + "}"
      + quoted(description + action)
  }
}
