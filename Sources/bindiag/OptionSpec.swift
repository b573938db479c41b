/// One option of `bindiag`, declared once: how it is spelled, the value it takes, the commands
/// that have it and its help. The table (``all``, in `OptionSpec+Table.swift`) drives parsing,
/// usage errors, help, shell completions and the man page.
struct OptionSpec {
  /// What an option sets: the parsers switch over it.
  enum ID {
    case help, journal, journalDirectory, format, groupBy, top, since, until, kind, file,
      process, host, run, level, maxLineBytes, threads, strict, maxEvents, maxLost, maxStale,
      color, utc, noPager, count, lines, maxColumns, sourceRoot, writeBaseline, baseline,
      baselineMaxGrowth, directory, allUsers, live, exportFormat, batch, schema, appKind,
      subject, body
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
  /// The values a shell offers (all the values allowed when the option takes one of a list);
  /// in ``options(of:)``, those of that command.
  private(set) var choices: [String]
  let valueKind: ValueKind
  /// Whether giving it again adds (`--kind`), rather than replaces; in ``options(of:)``, for
  /// that command.
  private(set) var repeatable: Bool
  /// The commands that have it.
  let commands: Set<Command>
  let section: Section
  /// The help after the list of choices, when it starts with one; else all of it.
  let text: String
  /// How help names each choice when it starts with the list of them (`sarif (SARIF 2.1.0
  /// for code scanning)`; a choice not in it by its name), or `nil` when ``text`` is all.
  let listed: [String: String]?
  /// The commands that take fewer ``choices``, and those.
  let narrowed: [Command: [String]]
  /// The commands that take it once though it is ``repeatable`` elsewhere.
  let once: Set<Command>

  /// An option spelled `spellings`: the long one, or the short one then the long one.
  /// - Parameters:
  ///   - listed: When given, help starts with the choices of the command, named so.
  ///   - narrowed: Commands that take fewer choices, and those.
  ///   - once: Commands that take it once though it is `repeatable`.
  init(
    _ id: ID, _ spellings: String..., value: String? = nil,
    choices: [String] = [], listed: [String: String]? = nil,
    narrowed: [Command: [String]] = [:], valueKind: ValueKind = .text,
    repeatable: Bool = false, once: Set<Command> = [], commands: Set<Command>,
    section: Section, help: String
  ) {
    self.id = id
    self.short = spellings.count > 1 ? spellings.first : nil
    self.long = spellings.last!
    self.value = value
    self.choices = choices
    self.listed = listed
    self.narrowed = narrowed
    self.valueKind = valueKind
    self.repeatable = repeatable
    self.once = once
    self.commands = commands
    self.section = section
    self.text = help
  }

  /// One paragraph; help and the man page wrap it. Starts with the choices, named as
  /// ``listed`` says, when the option lists them.
  var help: String {
    guard let listed else { return text }
    return Suggestion.list(choices.map { listed[$0] ?? $0 }) + ". " + text
  }

  /// The option as `command` has it: its choices and whether it repeats there.
  func narrowed(to command: Command) -> OptionSpec {
    var option = self
    if let choices = narrowed[command] { option.choices = choices }
    if once.contains(command) { option.repeatable = false }
    return option
  }

  /// Its spellings, short first.
  var names: [String] { [short, long].compactMap { $0 } }

  /// How help shows it: `-f, --format <format>`.
  var label: String {
    names.joined(separator: ", ") + (value.map { " <\($0)>" } ?? "")
  }

  /// The options of `command`, in table order, as `command` has them.
  static func options(of command: Command) -> [OptionSpec] {
    all.filter { $0.commands.contains(command) }.map { $0.narrowed(to: command) }
  }

  /// The option of `command` spelled `name`, or a usage error naming the closest one (or the
  /// commands that have it, when it is another command's), or saying that a flag takes no
  /// value (`--strict=false` would have turned it on all the same).
  /// - Parameter inline: The value given after `=` (`--format=json`), if any.
  static func find(_ name: String, inline: String?, command: Command) throws(UsageError)
    -> OptionSpec
  {
    let own = options(of: command)
    if let option = own.first(where: { $0.names.contains(name) }) {
      guard option.value != nil || inline == nil else {
        throw UsageError("Option '\(name)' takes no value", command: command)
      }
      return option
    }
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
