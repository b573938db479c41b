import BindingDiagnostics
import BindingDiagnosticsReport

/// The command dispatcher: `bindiag <command> [options]`, `summary` by default.
enum Bindiag {
  static let version = "3.3.1"

  /// Runs the command line and returns the exit code: 1 instead of 0 when standard output
  /// could not be written (``OutputFailure``), with a line on standard error.
  static func run(_ arguments: [String]) -> Int32 {
    let status = dispatch(arguments)
    guard Console.current.outputFailure.happened else { return status }
    Output.err("Error: cannot write to standard output\n")
    return status == ExitCode.success ? ExitCode.failure : status
  }

  /// Runs the command the arguments name.
  private static func dispatch(_ arguments: [String]) -> Int32 {
    var arguments = arguments
    let command: Command
    if let first = arguments.first, let named = Command(rawValue: first) {
      command = named
      arguments.removeFirst()
    } else if arguments == ["-h"] || arguments == ["--help"] {
      return Help.run([])
    } else if arguments.first == "--version" {
      Output.out("bindiag \(version)\n")
      return ExitCode.success
    } else if let first = arguments.first, Command.isMistyped(first) {
      return Output.usageError(Command.unknown(first).message, usage: Help.usage(nil))
    } else {
      command = .summary
    }
    do throws(UsageError) {
      switch command {
      case .help:
        return Help.run(arguments)
      case .summary, .check:
        var options = try ReportOptions.parse(arguments, command: command)
        if options.help { return Help.print(command) }
        return SummaryCommand.run(&options)
      case .follow:
        var options = try ReportOptions.parse(arguments, command: command)
        if options.help { return Help.print(command) }
        return FollowCommand.run(&options)
      case .export:
        var options = try ReportOptions.parse(arguments, command: command)
        if options.help { return Help.print(command) }
        return ExportCommand.run(&options)
      case .demo:
        let options = try DemoOptions.parse(arguments)
        if options.help { return Help.print(command) }
        return DemoCommand.run(options)
      case .catalog:
        let options = try CatalogOptions.parse(arguments)
        if options.help { return Help.print(command) }
        Output.out(
          options.entries.isEmpty
            ? MessageCatalog.text : MessageCatalog.appText(of: options.entries))
        return ExitCode.success
      case .completions:
        return try Completions.run(arguments)
      case .manpage:
        if try OnlyHelp.parse(arguments, command: command) { return Help.print(command) }
        Output.out(ManPage.text)
        return ExitCode.success
      }
    } catch {
      return Output.usageError(error.message, usage: Help.usage(error.command))
    }
  }
}

/// The exit codes scripts and CI depend on (the command-line contract).
enum ExitCode {
  static let success: Int32 = 0
  static let failure: Int32 = 1
  static let thresholdCrossed: Int32 = 3
  static let usage: Int32 = 64
  static let malformedStrict: Int32 = 65
}

/// A usage error: the message, and which command's usage to show.
struct UsageError: Error {
  let message: String
  let command: Command?

  init(_ message: String, command: Command?) {
    self.message = message
    self.command = command
  }
}
