import BindingDiagnostics
import BindingDiagnosticsReport

/// The options of `summary`, `check` and `follow`.
struct ReportOptions {
  /// `--format` of `summary` and `check`, one renderer each; `follow` writes
  /// ``SummaryFormat/follow``.
  typealias Format = SummaryFormat

  /// `--color`: when to write ANSI colours.
  enum ColorChoice: String, CaseIterable {
    case auto, always, never

    /// How help names it: `auto (default: …)`.
    var helpName: String {
      switch self {
      case .auto:
        "auto (default: when standard output is a terminal and NO_COLOR is not set)"
      case .always, .never: rawValue
      }
    }
  }

  /// The format when `--format` is not given.
  static let defaultFormat = Format.table

  var command: Command
  var files: [String] = []
  var journal = false
  var journalDirectories: [String] = []
  /// `--all-users`: other local users' runs count their losses like root's and the reader's.
  var allUsers = false
  /// `--live`: the inputs are still being written (a collector's directory); runs are judged
  /// stale against now, as the live journal's are.
  var live = false
  var format = ReportOptions.defaultFormat
  var groupBy: [GroupField] = [.kind, .file, .line]
  var top: Int?
  var filter = EventFilter()
  var maxLineBytes = 1 << 20
  /// The largest `--max-line-bytes`: 1 GiB, far above any record (the file sink writes at
  /// most 64 KiB) yet a size one line may still be held in memory.
  static let maxLineBytesLimit = 1 << 30
  /// `--threads`: threads classifying a regular file's lines; `nil` for every processor.
  var threads: Int?
  var strict = false
  var maxEvents = 0
  var maxLost = 0
  /// `--max-stale`: most stale runs allowed; `nil` for no limit.
  var maxStale: Int?
  var count: Int?
  var ci = CIReportOptions()
  var export = ExportOptions()
  /// `follow -n`: the last N events first (`Int.max` for `all`); `nil` when not given.
  var lines: Int?
  var help = false
  var color = ColorChoice.auto
  var utc = false
  var pager = true
  /// `--max-columns`: the widest a free-text cell may be off a terminal; `nil` when not given.
  var maxColumns: Int?

  /// The table's cell cap: `--max-columns` (0 for none), else a default off a terminal, where
  /// no width fits the table.
  func cellLimit(terminal: Bool) -> Int? {
    if let maxColumns { return maxColumns == 0 ? nil : maxColumns }
    return terminal ? nil : TableRenderer.defaultCellLimit
  }

  static func parse(_ arguments: [String], command: Command) throws(UsageError) -> ReportOptions {
    var options = ReportOptions(command: command)
    var scanner = ArgumentScanner(arguments, command: command)
    let now = Timestamp.now()
    while let token = scanner.next() {
      switch token {
      case .positional(let file):
        options.files.append(file)
      case .option(let name, let inline):
        let option = try OptionSpec.find(name, inline: inline, command: command)
        try options.apply(option, name: name, inline: inline, scanner: &scanner, now: now)
      }
    }
    try options.validate()
    options.applyDefaults()
    return options
  }

  /// Sets what `option` (spelled `name`) sets.
  private mutating func apply(
    _ option: OptionSpec, name: String, inline: String?, scanner: inout ArgumentScanner,
    now: Timestamp
  ) throws(UsageError) {
    switch option.id {
    case .help: help = true
    case .journal: journal = true
    case .allUsers: allUsers = true
    case .journalDirectory: journalDirectories.append(try scanner.value(name, inline: inline))
    case .format:
      format = try scanner.choice(name, inline: inline, as: Format.self)
      if !option.choices.contains(format.rawValue) {
        throw UsageError(
          "'--format \(format.rawValue)' is for summary and check (follow writes table or json)",
          command: command)
      }
    case .groupBy:
      let text = try scanner.value(name, inline: inline)
      switch GroupField.parseList(text) {
      case .success(let fields): groupBy = fields
      case .failure(let reason):
        throw UsageError(
          "The value '\(text)' is invalid for '--group-by': \(reason)", command: command)
      }
    case .top:
      let top = try scanner.integer(name, inline: inline)
      self.top = top == 0 ? Int.max : top
    case .since, .until:
      let text = try scanner.value(name, inline: inline)
      guard let time = TimeArgument.parse(text, now: now, roundingUp: option.id == .since) else {
        throw UsageError(
          "The value '\(text)' is invalid for '\(name)': expected an RFC 3339 time, -30s, -30m, -1h, -7d, now, today, yesterday or tomorrow",
          command: command)
      }
      guard TimeArgument.range.contains(time.microsecondsSinceEpoch) else {
        throw UsageError(
          "The value '\(text)' is invalid for '\(name)': the time must fall in years 0000 to 9999",
          command: command)
      }
      if option.id == .since { filter.since = time } else { filter.until = time }
    case .kind:
      let kind = try scanner.value(name, inline: inline)
      guard MisuseKind.isKebabCase(kind) else {
        let spelled = String(kind.map { $0 == "_" || $0 == " " ? "-" : $0 })
        let closest = Suggestion.closest(to: spelled, among: MisuseKind.builtIn.map(\.code))
        throw UsageError(
          "The value '\(kind)' is invalid for '--kind': expected a kebab-case kind"
            + (closest.map { "; did you mean '\($0)'?" } ?? ""),
          command: command)
      }
      // One or two edits from a built-in kind is a typo, not an app's own kind: matching no
      // event, it would let `check` pass whatever the input holds.
      let builtIn = MisuseKind.builtIn.map(\.code)
      if !builtIn.contains(kind), let closest = Suggestion.closest(to: kind, among: builtIn) {
        throw UsageError(
          "The value '\(kind)' is invalid for '--kind': not a built-in kind; did you mean '\(closest)'?",
          command: command)
      }
      filter.kinds.insert(kind)
    case .file: filter.fileSubstring = try scanner.value(name, inline: inline)
    case .process: filter.process = try scanner.value(name, inline: inline)
    case .host: filter.host = try scanner.value(name, inline: inline)
    case .run:
      let run = try scanner.value(name, inline: inline)
      // Anything else would match no event, and `check` would pass on nothing.
      guard Hex.isLowercase(run, count: 16) else {
        throw UsageError(
          "The value '\(run)' is invalid for '\(name)': expected 16 lowercase hex digits, as events carry it",
          command: command)
      }
      filter.run = run
    case .level:
      let text = try scanner.value(name, inline: inline)
      guard let level = LevelArgument.parse(text) else {
        throw UsageError(
          "The value '\(text)' is invalid for '\(name)': expected one of \(LevelArgument.expected)",
          command: command)
      }
      filter.minimumLevel = level
    case .maxLineBytes:
      maxLineBytes = try scanner.integer(
        name, inline: inline, in: 64...ReportOptions.maxLineBytesLimit)
    case .threads: threads = try scanner.integer(name, inline: inline, in: 1...1024)
    case .strict: strict = true
    case .live: live = true
    case .maxEvents: maxEvents = try scanner.integer(name, inline: inline)
    case .maxLost: maxLost = try scanner.integer(name, inline: inline)
    case .maxStale: maxStale = try scanner.integer(name, inline: inline)
    case .color: color = try scanner.choice(name, inline: inline, as: ColorChoice.self)
    case .utc: utc = true
    case .noPager: pager = false
    case .count: count = try scanner.integer(name, inline: inline, in: 1...Int.max)
    case .lines:
      let text = try scanner.value(name, inline: inline)
      guard let lines = text == "all" ? Int.max : Int(text), lines >= 0 else {
        throw UsageError(
          "The value '\(text)' is invalid for '\(name)': expected a whole number of at least 0, or all",
          command: command)
      }
      self.lines = lines
    case .maxColumns: maxColumns = try scanner.integer(name, inline: inline)
    case .sourceRoot, .writeBaseline, .baseline, .baselineMaxGrowth:
      try ci.parse(option.id, name: name, inline: inline, scanner: &scanner, command: command)
    case .exportFormat, .batch, .schema:
      try export.parse(option.id, name: name, inline: inline, scanner: &scanner, command: command)
    case .directory, .appKind, .subject, .body: throw scanner.unknown(name)
    }
  }

  /// Checks the options against each other.
  private func validate() throws(UsageError) {
    if journal && !journalDirectories.isEmpty {
      throw UsageError("'--journal' and '--journal-dir' cannot be used together", command: command)
    }
    if command == .follow && journalDirectories.count > 1 {
      throw UsageError("'follow' reads one '--journal-dir'", command: command)
    }
    if command == .follow && readsJournal && !files.isEmpty {
      throw UsageError(
        "Files cannot be followed together with '--journal' or '--journal-dir'", command: command)
    }
    if let since = filter.since, let until = filter.until, until < since {
      // An empty window: `check` would pass whatever the input holds.
      throw UsageError(
        "'--since' (\(since)) is after '--until' (\(until)): no event can match", command: command)
    }
    try ci.validate(self)
    try export.validate(self)
  }

  /// What `check` counts by default: events at `warning` and above.
  mutating func applyDefaults() {
    if command == .check && filter.minimumLevel == nil { filter.minimumLevel = .warning }
  }

  /// `check`'s thresholds: `--level` (`warning` by default), `--max-events`, `--max-lost` and
  /// `--max-stale`.
  var thresholds: CheckVerdict.Thresholds {
    CheckVerdict.Thresholds(
      failingLevel: filter.minimumLevel ?? .warning, maxEvents: maxEvents, maxLost: maxLost,
      maxStale: maxStale)
  }

  /// Reads from the journal (local or directories).
  var readsJournal: Bool { journal || !journalDirectories.isEmpty }
}
