import BindingDiagnostics
import BindingDiagnosticsReport
import Testing

@testable import bindiag

/// The option parsers fuzzed in process: random and mutated argument vectors, tens of thousands
/// of them, each either parsed or a usage error that says what is wrong, for the command whose
/// usage follows it, and that cannot reach the terminal raw. No process is launched, so every
/// option meets every hostile value in both spellings (`BindiagOptionFuzzTests` runs a sample of
/// them through the built `bindiag`).
@Suite struct OptionParserFuzzTests {
  /// The commands whose arguments are parsed before anything is printed.
  static let commands: [Command] = [.summary, .check, .follow, .export, .demo, .catalog, .manpage]

  /// What parsing `arguments` for `command` gave: `nil` when they parsed, else the usage error.
  static func parse(_ command: Command, _ arguments: [String]) -> UsageError? {
    do throws(UsageError) {
      switch command {
      case .summary, .check, .follow, .export:
        let options = try ReportOptions.parse(arguments, command: command)
        expectInRange(options, arguments)
      case .demo: _ = try DemoOptions.parse(arguments)
      case .catalog: _ = try CatalogOptions.parse(arguments)
      default: _ = try OnlyHelp.parse(arguments, command: command)
      }
      return nil
    } catch {
      return error
    }
  }

  /// Options that parsed hold only values their options allow.
  static func expectInRange(_ options: ReportOptions, _ arguments: [String]) {
    func shown() -> [String] { Self.shown(arguments) }
    #expect((64...ReportOptions.maxLineBytesLimit).contains(options.maxLineBytes), "\(shown())")
    #expect(options.threads.map { (1...1024).contains($0) } ?? true, "\(shown())")
    #expect(options.count.map { $0 >= 1 } ?? true, "\(shown())")
    #expect(options.maxEvents >= 0 && options.maxLost >= 0, "\(shown())")
    #expect(options.files.allSatisfy(arguments.contains), "\(shown())")
    if let run = options.filter.run { #expect(Hex.isLowercase(run, count: 16), "\(shown())") }
  }

  /// A usage error is clear: a sentence (capitalised, or opening on a quoted option), for the
  /// command it was given to; standard error, as `bindiag` writes it, holds no raw control,
  /// line-separator or bidirectional character; and (when `again`) the same arguments give the
  /// same error.
  static func expectClear(
    _ error: UsageError, _ command: Command, _ arguments: [String], again: Bool = false
  ) {
    func shown() -> [String] { Self.shown(arguments) }
    #expect(error.command == command, "\(shown())")
    #expect(
      error.message.first.map { $0.isUppercase || $0 == "'" } == true,
      "\(shown()): \(error.message.debugDescription.prefix(200))")
    let stderr = usageErrorText(error)
    #expect(stderr.contains("\nUsage: bindiag \(command.rawValue)"), "\(shown())")
    #expect(!containsHostileScalar(stderr), "\(shown()): \(stderr.debugDescription.prefix(300))")
    if again { #expect(parse(command, arguments)?.message == error.message, "\(shown())") }
  }

  /// `arguments` as a failure shows them: quoted, escaped, each cut to 40 characters. Made only
  /// when a failure is shown: escaping a 100 000-character value for every parse costs.
  static func shown(_ arguments: [String]) -> [String] {
    arguments.map { String(String($0.prefix(40)).debugDescription) }
  }

  /// Standard error of a usage error, as `Output.usageError` writes it.
  static func usageErrorText(_ error: UsageError) -> String {
    "Error: \(DisplayText.escapingControls(error.message))\n\(Help.usage(error.command))"
  }

  /// A C0 control other than the line feed, DEL, a C1 control, a line separator or a
  /// bidirectional control.
  static func containsHostileScalar(_ text: String) -> Bool {
    // On the UTF-8 bytes: C0 and DEL are one byte, C1 is C2 80–9F, the separators and
    // bidirectional controls are E2 80 A8–AE and E2 81 A6–A9.
    var text = text
    return text.withUTF8 { bytes in
      for (index, byte) in bytes.enumerated() {
        if (byte < 0x20 && byte != 0x0a) || byte == 0x7f { return true }
        guard index + 1 < bytes.count else { break }
        let next = bytes[index + 1]
        if byte == 0xc2 && (0x80...0x9f).contains(next) { return true }
        guard byte == 0xe2, index + 2 < bytes.count else { continue }
        let last = bytes[index + 2]
        if next == 0x80 && (0xa8...0xae).contains(last) { return true }
        if next == 0x81 && (0xa6...0xa9).contains(last) { return true }
      }
      return false
    }
  }

  /// Reproducible randomness: a linear congruential generator with a fixed seed.
  struct Seeded {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    mutating func pick<T>(_ values: [T]) -> T { values[next(values.count)] }
  }

  /// Every option spelling of every command, and words that look like options.
  static let optionWords: [String] = {
    var words = Set(OptionSpec.all.flatMap(\.names))
    words.formUnion(["-", "--", "---", "-=", "--=", "=", "-h", "--help", "-x", "--no-such-option"])
    return words.sorted()
  }()

  /// The hostile values of `BindiagOptionFuzzTests` but the longest (which
  /// `everyOptionWithEveryHostileValueParsesOrFailsClearly` gives every option): a
  /// 100 000-character unknown option is measured against every option's name.
  static let shortValues = BindiagOptionFuzzTests.values.filter { $0.unicodeScalars.count < 1000 }

  /// One argument vector for `command`: options (some joined to a value with `=`), values and
  /// positionals in random order, then mutated: a character replaced, inserted or dropped, an
  /// argument cut, doubled or swapped with its neighbour.
  static func vector(_ random: inout Seeded, for command: Command) -> [String] {
    let own = OptionSpec.options(of: command).flatMap(\.names)
    let values = shortValues
    var arguments: [String] = []
    for _ in 0..<random.next(7) {
      switch random.next(6) {
      case 0, 1:
        arguments += [random.pick(own.isEmpty ? optionWords : own), random.pick(values)]
      case 2:
        arguments.append(random.pick(own.isEmpty ? optionWords : own) + "=" + random.pick(values))
      case 3: arguments.append(random.pick(optionWords))
      case 4:
        // An option of the command with its first allowed value, when it lists them.
        let options = OptionSpec.options(of: command)
        let option = options.isEmpty ? nil : random.pick(options)
        arguments += [option?.long ?? "--help"] + (option?.choices.first.map { [$0] } ?? [])
      default: arguments.append(random.pick(values))
      }
    }
    for _ in 0..<random.next(3) where !arguments.isEmpty {
      let index = random.next(arguments.count)
      var scalars = Array(arguments[index].unicodeScalars)
      let position = random.next(scalars.count + 1)
      switch random.next(6) {
      case 0 where position < scalars.count:
        scalars[position] = random.pick(Array("-=xé\u{1b}\u{202E}9".unicodeScalars))
      case 1: scalars.insert(random.pick(Array("-=x \u{7f}\u{85}0".unicodeScalars)), at: position)
      case 2 where position < scalars.count: scalars.remove(at: position)
      case 3: scalars = Array(scalars.prefix(position))
      case 4: arguments.insert(arguments[index], at: index)
      default:
        if index + 1 < arguments.count { arguments.swapAt(index, index + 1) }
      }
      arguments[index] = String(String.UnicodeScalarView(scalars))
    }
    return arguments
  }

  @Test(arguments: OptionParserFuzzTests.commands)
  func randomArgumentVectorsParseOrFailClearly(command: Command) {
    var random = Seeded(state: 27 &+ UInt64(Self.commands.firstIndex(of: command)!))
    var outcomes = (parsed: 0, failed: 0)
    for _ in 0..<2000 {
      let arguments = Self.vector(&random, for: command)
      if let error = Self.parse(command, arguments) {
        Self.expectClear(error, command, arguments, again: true)
        outcomes.failed += 1
      } else {
        outcomes.parsed += 1
      }
    }
    // The vectors must reach both ends, or they prove little.
    #expect(outcomes.parsed > 30, "\(outcomes)")
    #expect(outcomes.failed > 200, "\(outcomes)")
  }

  /// Every option that takes a value, in each of its spellings, with every hostile value of
  /// `BindiagOptionFuzzTests.values`, in both forms (`--option value`, `--option=value`); the
  /// commands that share the option take the values in turn.
  @Test func everyOptionWithEveryHostileValueParsesOrFailsClearly() {
    for option in OptionSpec.all where option.value != nil {
      let commands = Self.commands.filter(option.commands.contains)
      guard !commands.isEmpty else { continue }
      for name in option.names {
        for (index, value) in BindiagOptionFuzzTests.values.enumerated() {
          let command = commands[index % commands.count]
          for arguments in [[name, value], name.hasPrefix("--") ? [name + "=" + value] : []]
          where !arguments.isEmpty {
            if let error = Self.parse(command, arguments) {
              Self.expectClear(error, command, arguments)
            }
          }
        }
      }
    }
  }
}
