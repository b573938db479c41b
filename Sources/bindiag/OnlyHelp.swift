/// The arguments of a command that takes no argument but `-h`/`--help` (`catalog`).
enum OnlyHelp {
  /// Whether help was asked for; any other argument is a usage error.
  static func parse(_ arguments: [String], command: Command) throws(UsageError) -> Bool {
    var help = false
    var scanner = ArgumentScanner(arguments, command: command)
    while let token = scanner.next() {
      switch token {
      case .positional(let value):
        throw UsageError("Unexpected argument '\(value)'", command: command)
      case .option(let name, let inline):
        guard try OptionSpec.find(name, inline: inline, command: command).id == .help else {
          throw scanner.unknown(name)
        }
        help = true
      }
    }
    return help
  }
}
