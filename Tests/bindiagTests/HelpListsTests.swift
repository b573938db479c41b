import BindingDiagnostics
import BindingDiagnosticsReport
import Testing

@testable import bindiag

/// The lists of values in help, the man page and the completions are made from their enums,
/// and the option table has one row per option: a case missing from any of them fails here,
/// named with the place.
@Suite struct HelpListsTests {
  /// The words of `text`: runs of letters, digits, `-` and `_`.
  static func words(_ text: String) -> Set<String> {
    Set(
      text.split { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }.map(String.init))
  }

  /// `option` as `command` has it.
  static func option(_ id: OptionSpec.ID, of command: Command) throws -> OptionSpec {
    try #require(OptionSpec.options(of: command).first { $0.id == id })
  }

  /// Checks that every value is offered and described by the option wherever it shows: the
  /// command's help, the man page and each shell's completions.
  static func expectListed(
    _ values: [String], option id: OptionSpec.ID, in commands: [Command],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let page = ManPage.text
    for command in commands {
      let option = try Self.option(id, of: command)
      let help = Help.text(command)
      #expect(
        help.contains(Help.row(option.label, option.help)), "\(command) help lacks \(option.long)",
        sourceLocation: sourceLocation)
      #expect(
        page.contains(ManPage.escape(option.help)),
        "the man page lacks \(option.long) of \(command)",
        sourceLocation: sourceLocation)
      let described = words(option.help)
      for value in values {
        #expect(
          described.contains(value), "'\(value)' is missing from \(option.long) in \(command) help",
          sourceLocation: sourceLocation)
        #expect(
          option.choices.contains(value),
          "'\(value)' is missing from \(option.long)'s completions in \(command)",
          sourceLocation: sourceLocation)
      }
      for shell in Completions.Shell.allCases where !values.isEmpty {
        let script = Completions.script(shell)
        #expect(
          script.contains(option.choices.joined(separator: " ")),
          "\(shell) completions lack \(option.long)'s values in \(command)",
          sourceLocation: sourceLocation)
      }
    }
  }

  @Test func everyFormatIsListed() throws {
    try Self.expectListed(
      SummaryFormat.allCases.map(\.rawValue), option: .format, in: [.summary, .check])
    try Self.expectListed(SummaryFormat.follow.map(\.rawValue), option: .format, in: [.follow])
    try Self.expectListed(
      ExportFormat.allCases.map(\.rawValue), option: .exportFormat, in: [.export])
    let follow = try Self.option(.format, of: .follow)
    #expect(follow.choices == ["table", "json"])
  }

  @Test func everyLevelIsListed() throws {
    try Self.expectListed(
      MisuseLevel.allCases.map(\.rawValue), option: .level,
      in: [.summary, .check, .follow, .export])
  }

  @Test func everyColourChoiceIsListed() throws {
    try Self.expectListed(
      ReportOptions.ColorChoice.allCases.map(\.rawValue), option: .color,
      in: [.summary, .check, .follow])
  }

  @Test func everyGroupFieldIsListed() throws {
    let names = GroupField.allCases.map { $0 == .valueType ? "type" : $0.rawValue }
    try Self.expectListed(names, option: .groupBy, in: [.summary, .check])
  }

  @Test func everyBuiltInKindIsOffered() throws {
    for command in [Command.summary, .check, .follow, .export] {
      #expect(
        try Self.option(.kind, of: command).choices == MisuseKind.builtIn.map(\.code),
        "--kind's completions in \(command)")
    }
  }

  @Test func everyShellIsListed() {
    let help = Help.text(.completions)
    for shell in Completions.Shell.allCases {
      #expect(
        Self.words(help).contains(shell.rawValue), "\(shell) is missing from completions help")
    }
  }

  @Test func theSiteFormatsAreNamedWhereSourceRootIsExplained() throws {
    let help = try Self.option(.sourceRoot, of: .check).help
    for format in SummaryFormat.allCases {
      #expect(
        Self.words(help).contains(format.rawValue) == format.renderer.pointsAtSites,
        "--source-root's help and \(format)")
    }
  }

  /// One row per option: no option is described twice, and no command has two options
  /// spelled alike.
  @Test func theOptionTableHasOneRowPerOption() {
    var seen: Set<String> = []
    for option in OptionSpec.all {
      let id = "\(option.id)"
      #expect(!seen.contains(id), "\(option.long) (\(id)) has a second row")
      seen.insert(id)
    }
    for command in Command.allCases {
      let names = OptionSpec.options(of: command).flatMap(\.names)
      #expect(Set(names).count == names.count, "\(command) has an option spelled twice")
    }
  }
}
