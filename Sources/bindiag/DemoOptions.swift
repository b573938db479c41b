/// The options of `demo`.
struct DemoOptions {
  var directory: String?
  var help = false

  static func parse(_ arguments: [String]) throws(UsageError) -> DemoOptions {
    var options = DemoOptions()
    var scanner = ArgumentScanner(arguments, command: .demo)
    while let token = scanner.next() {
      switch token {
      case .positional(let value):
        throw UsageError("Unexpected argument '\(value)'", command: .demo)
      case .option(let name, let inline):
        switch try OptionSpec.find(name, inline: inline, command: .demo).id {
        case .help: options.help = true
        case .directory: options.directory = try scanner.value(name, inline: inline)
        default: throw scanner.unknown(name)
        }
      }
    }
    return options
  }
}
