/// Walks command-line arguments with argument-parser's conventions: `--name value`,
/// `--name=value`, `-x value`, `--` ends options, `-` alone is a positional (standard input).
struct ArgumentScanner {
  enum Token {
    case option(String, inline: String?)
    case positional(String)
  }

  private let arguments: [String]
  private let command: Command
  private var index = 0
  private var optionsEnded = false

  init(_ arguments: [String], command: Command) {
    self.arguments = arguments
    self.command = command
  }

  mutating func next() -> Token? {
    guard index < arguments.count else { return nil }
    let argument = arguments[index]
    index += 1
    if optionsEnded || argument == "-" || !argument.hasPrefix("-") { return .positional(argument) }
    if argument == "--" {
      optionsEnded = true
      return next()
    }
    if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
      return .option(
        String(argument[..<equals]), inline: String(argument[argument.index(after: equals)...]))
    }
    return .option(argument, inline: nil)
  }

  /// The value of `option`: inline after `=`, or the next argument.
  mutating func value(_ option: String, inline: String?) throws(UsageError) -> String {
    if let inline { return inline }
    guard index < arguments.count else {
      throw UsageError("Missing value for '\(option)'", command: command)
    }
    index += 1
    return arguments[index - 1]
  }

  /// A whole number in `range`; anything else (not a number, out of `Int`, out of range) is a
  /// usage error that says what is expected.
  mutating func integer(
    _ option: String, inline: String?, in range: ClosedRange<Int> = 0...Int.max
  ) throws(UsageError) -> Int {
    let text = try value(option, inline: inline)
    guard let number = Int(text), range.contains(number) else {
      let expected =
        range.upperBound == Int.max
        ? "a whole number of at least \(range.lowerBound)"
        : "a whole number from \(range.lowerBound) to \(range.upperBound)"
      throw UsageError(
        "The value '\(text)' is invalid for '\(option)': expected \(expected)", command: command)
    }
    return number
  }

  /// One of `T`'s cases by raw value: `expected auto, always or never` otherwise.
  mutating func choice<T: RawRepresentable & CaseIterable>(
    _ option: String, inline: String?, as type: T.Type
  ) throws(UsageError) -> T where T.RawValue == String {
    let text = try value(option, inline: inline)
    if let choice = T(rawValue: text) { return choice }
    let names = T.allCases.map(\.rawValue)
    let expected = names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    throw UsageError(
      "The value '\(text)' is invalid for '\(option)': expected \(expected)", command: command)
  }

  func unknown(_ option: String) -> UsageError {
    UsageError("Unknown option '\(option)'", command: command)
  }
}
