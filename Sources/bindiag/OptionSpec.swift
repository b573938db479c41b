/// One option of `bindiag`, declared once: how it is spelled, the value it takes, the commands
/// that have it and its help. The table (``all``, in `OptionSpec+Table.swift`) drives parsing,
/// usage errors, help, shell completions and the man page.
struct OptionSpec {
  /// What an option sets: the parsers switch over it.
  enum ID {
    case help, journal, journalDirectory, format, groupBy, top, since, until, kind, file,
      process, host, run, level, maxLineBytes, threads, strict, maxEvents, maxLost, maxStale,
      color, utc, noPager, count, lines, maxColumns, sourceRoot, writeBaseline, baseline,
      baselineMaxGrowth, directory, allUsers, live, exportFormat, batch, schema, subject, body
  }

  /// The help section an option is listed under, in this order.
  enum Section: String, CaseIterable {
    case inputs = "INPUTS"
    case filters = "FILTERS"
    case output = "OUTPUT"
    case terminal = "TERMINAL"
    case thresholds = "THRESHOLDS"
    case baseline = "BASELINE"
    case options = "OPTIONS"
  }

  /// What a shell may offer for the value.
  enum ValueKind {
    /// Any text (a name, a number, a time): nothing to offer beyond ``OptionSpec/choices``.
    case text
    /// A path to a file.
    case file
    /// A path to a directory.
    case directory
  }

  let id: ID
  /// The one-letter spelling (`-f`), if any.
  let short: String?
  /// The long spelling (`--format`).
  let long: String
  /// The value's name in help (`format` shows as `<format>`); `nil` for a flag.
  let value: String?
  /// The values a shell offers (all the values allowed when the option takes one of a list).
  let choices: [String]
  let valueKind: ValueKind
  /// Whether giving it again adds (`--kind`), rather than replaces.
  let repeatable: Bool
  /// The commands that have it.
  let commands: Set<Command>
  let section: Section
  /// One paragraph; help and the man page wrap it.
  let help: String

  /// An option spelled `spellings`: the long one, or the short one then the long one.
  init(
    _ id: ID, _ spellings: String..., value: String? = nil,
    choices: [String] = [], valueKind: ValueKind = .text, repeatable: Bool = false,
    commands: Set<Command>, section: Section, help: String
  ) {
    self.id = id
    self.short = spellings.count > 1 ? spellings.first : nil
    self.long = spellings.last!
    self.value = value
    self.choices = choices
    self.valueKind = valueKind
    self.repeatable = repeatable
    self.commands = commands
    self.section = section
    self.help = help
  }

  /// Its spellings, short first.
  var names: [String] { [short, long].compactMap { $0 } }

  /// How help shows it: `-f, --format <format>`.
  var label: String {
    names.joined(separator: ", ") + (value.map { " <\($0)>" } ?? "")
  }

  /// The options of `command`, in table order.
  static func options(of command: Command) -> [OptionSpec] {
    all.filter { $0.commands.contains(command) }
  }

  /// The option of `command` spelled `name`, or a usage error naming the closest one (or the
  /// commands that have it, when it is another command's).
  static func find(_ name: String, command: Command) throws(UsageError) -> OptionSpec {
    let own = options(of: command)
    if let option = own.first(where: { $0.names.contains(name) }) { return option }
    let others = all.filter { $0.names.contains(name) }.flatMap(\.commands)
    if !others.isEmpty {
      let owners = Command.allCases.filter { others.contains($0) }.map(\.rawValue)
      throw UsageError(
        "Unknown option '\(name)' (an option of \(Suggestion.list(owners, or: false)))",
        command: command)
    }
    let suggestion = Suggestion.closest(to: name, among: own.map(\.long))
    throw UsageError(
      "Unknown option '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""),
      command: command)
  }
}
