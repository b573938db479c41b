import BindingDiagnostics
import BindingDiagnosticsReport

/// The options of `summary`, `check` and `follow`.
struct ReportOptions {
  enum Format: String, CaseIterable {
    case table, json, markdown, csv, sarif, github, html
  }

  /// `--color`: when to write ANSI colours.
  enum ColorChoice: String, CaseIterable {
    case auto, always, never
  }

  var command: Command
  var files: [String] = []
  var journal = false
  var journalDirectories: [String] = []
  var format: Format = .table
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
  var count: Int?
  var ci = CIReportOptions()
  /// `follow -n`: the last N events first (`Int.max` for `all`); `nil` when not given.
  var lines: Int?
  var help = false
  var color = ColorChoice.auto
  var utc = false
  var pager = true
  /// `--max-columns N`: the most columns a cell of text from the input takes (0: no cap).
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
        switch name {
        case "-h", "--help":
          options.help = true
        case "--journal":
          options.journal = true
        case "--journal-dir":
          options.journalDirectories.append(try scanner.value(name, inline: inline))
        case "-f", "--format":
          options.format = try scanner.choice(name, inline: inline, as: Format.self)
        case "--group-by":
          let text = try scanner.value(name, inline: inline)
          switch GroupField.parseList(text) {
          case .success(let fields): options.groupBy = fields
          case .failure(let reason):
            throw UsageError(
              "The value '\(text)' is invalid for '--group-by': \(reason)", command: command)
          }
        case "--top":
          let top = try scanner.integer(name, inline: inline)
          options.top = top == 0 ? Int.max : top
        case "--since", "--until":
          let text = try scanner.value(name, inline: inline)
          guard let time = TimeArgument.parse(text, now: now) else {
            throw UsageError(
              "The value '\(text)' is invalid for '\(name)': expected an RFC 3339 time, -30m, -1h, -7d or today",
              command: command)
          }
          guard TimeArgument.range.contains(time.microsecondsSinceEpoch) else {
            throw UsageError(
              "The value '\(text)' is invalid for '\(name)': the time must fall in years 0000 to 9999",
              command: command)
          }
          if name == "--since" { options.filter.since = time } else { options.filter.until = time }
        case "--kind":
          let kind = try scanner.value(name, inline: inline)
          guard MisuseKind.isKebabCase(kind) else {
            throw UsageError(
              "The value '\(kind)' is invalid for '--kind': expected a kebab-case kind",
              command: command)
          }
          options.filter.kinds.insert(kind)
        case "--file":
          options.filter.fileSubstring = try scanner.value(name, inline: inline)
        case "--process":
          options.filter.process = try scanner.value(name, inline: inline)
        case "--host":
          options.filter.host = try scanner.value(name, inline: inline)
        case "--run":
          options.filter.run = try scanner.value(name, inline: inline)
        case "--level":
          let text = try scanner.value(name, inline: inline)
          guard let level = MisuseLevel(rawValue: text) else {
            throw UsageError(
              "The value '\(text)' is invalid for '--level': expected one of \(MisuseLevel.allCases.map(\.rawValue).joined(separator: ", "))",
              command: command)
          }
          options.filter.minimumLevel = level
        case "--max-line-bytes":
          options.maxLineBytes = try scanner.integer(
            name, inline: inline, in: 64...ReportOptions.maxLineBytesLimit)
        case "--threads" where command != .follow:
          options.threads = try scanner.integer(name, inline: inline, in: 1...1024)
        case "--strict":
          options.strict = true
        case "--max-events" where command == .check:
          options.maxEvents = try scanner.integer(name, inline: inline)
        case "--max-lost" where command == .check:
          options.maxLost = try scanner.integer(name, inline: inline)
        case "--color":
          options.color = try scanner.choice(name, inline: inline, as: ColorChoice.self)
        case "--utc":
          options.utc = true
        case "--no-pager":
          options.pager = false
        case "--max-columns":
          options.maxColumns = try scanner.integer(name, inline: inline)
        case "--count" where command == .follow:
          options.count = try scanner.integer(name, inline: inline, in: 1...Int.max)
        case "-n" where command == .follow, "--lines" where command == .follow:
          let text = try scanner.value(name, inline: inline)
          guard let lines = text == "all" ? Int.max : Int(text), lines >= 0 else {
            throw UsageError(
              "The value '\(text)' is invalid for '\(name)': expected a whole number of at least 0, or all",
              command: command)
          }
          options.lines = lines
        case _ where CIReportOptions.names.contains(name) && command != .follow:
          try options.ci.parse(name, inline: inline, scanner: &scanner, command: command)
        default:
          throw scanner.unknown(name)
        }
      }
    }
    if options.journal && !options.journalDirectories.isEmpty {
      throw UsageError("'--journal' and '--journal-dir' cannot be used together", command: command)
    }
    if command == .follow && options.journalDirectories.count > 1 {
      throw UsageError("'follow' reads one '--journal-dir'", command: command)
    }
    if options.readsJournal && !options.files.isEmpty {
      throw UsageError(
        "Files cannot be named together with '--journal' or '--journal-dir'", command: command)
    }
    try options.ci.validate(options)
    if command == .follow && options.format != .table && options.format != .json {
      throw UsageError(
        "'--format \(options.format.rawValue)' is for summary and check (follow writes table or json)",
        command: command)
    }
    return options
  }

  /// Reads from the journal (local or directories).
  var readsJournal: Bool { journal || !journalDirectories.isEmpty }
}

/// `--since`/`--until` values: RFC 3339, `-30s`, `-30m`, `-1h`, `-7d`, `today` (UTC midnight), `now`.
enum TimeArgument {
  /// The times the contract can write: years 0000 to 9999.
  static let range = Timestamp.earliest...Timestamp.latest

  /// The time `text` names, or `nil` when it names none. A relative time too far back for
  /// `Int64` gives `Int64.min`, which is out of ``range``.
  static func parse(_ text: String, now: Timestamp) -> Timestamp? {
    if let time = Timestamp(rfc3339: text) { return time }
    if text == "now" { return now }
    if text == "today" {
      let day: Int64 = 86_400_000_000
      let micros = now.microsecondsSinceEpoch
      return Timestamp(microsecondsSinceEpoch: micros - ((micros % day) + day) % day)
    }
    let digits = text.utf8.dropFirst().dropLast()
    guard text.utf8.first == UInt8(ascii: "-"), !digits.isEmpty,
      digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { return nil }
    let unitMicros: Int64
    switch text.utf8.last {
    case UInt8(ascii: "s"): unitMicros = 1_000_000
    case UInt8(ascii: "m"): unitMicros = 60_000_000
    case UInt8(ascii: "h"): unitMicros = 3_600_000_000
    case UInt8(ascii: "d"): unitMicros = 86_400_000_000
    default: return nil
    }
    guard let amount = Int64(String(decoding: digits, as: UTF8.self)) else {
      return Timestamp(microsecondsSinceEpoch: .min)
    }
    let (back, overflow) = amount.multipliedReportingOverflow(by: unitMicros)
    let (micros, under) = now.microsecondsSinceEpoch.subtractingReportingOverflow(back)
    return Timestamp(microsecondsSinceEpoch: overflow || under ? .min : micros)
  }
}
