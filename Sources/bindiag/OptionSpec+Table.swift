import BindingDiagnostics
import BindingDiagnosticsReport

extension OptionSpec {
  /// Every option of every command, one row each, in the order help lists them. Lists of
  /// values (formats, levels, colours, fields, kinds) are made from their enums.
  static let all: [OptionSpec] = [
    // Inputs.
    OptionSpec(
      .journal, "--journal", commands: reading, section: .inputs,
      help: "Read the system journal (BINDING_SCHEMA=1 entries)."),
    OptionSpec(
      .journalDirectory, "--journal-dir", value: "dir", valueKind: .directory, repeatable: true,
      once: [.follow], commands: reading, section: .inputs,
      help:
        "Read the journal files of a directory instead (systemd-journal-remote's output); repeatable, but follow reads one."
    ),
    OptionSpec(
      .live, "--live", commands: [.summary, .check], section: .inputs,
      help:
        "The inputs are still being written (a collector's --journal-dir): judge runs stale against now, or --until when earlier, as --journal does, instead of against the newest record read."
    ),
    OptionSpec(
      .allUsers, "--all-users", commands: [.summary, .check], section: .inputs,
      help:
        "With --journal, count the lost records of every user's runs (default: root's and yours; other users' are shown apart and never fail check)."
    ),
    // Filters.
    OptionSpec(
      .since, "--since", value: "time", choices: TimeArgument.words,
      commands: reading, section: .filters,
      help:
        "Events at or after <time>: RFC 3339, -30s, -30m, -1h, -7d, now, or today, yesterday and tomorrow (midnight in local time, as journalctl reads them)."
    ),
    OptionSpec(
      .until, "--until", value: "time", choices: TimeArgument.words,
      commands: reading, section: .filters, help: "Events at or before <time>."),
    OptionSpec(
      .kind, "--kind", value: "kind", choices: MisuseKind.builtIn.map(\.code), repeatable: true,
      commands: reading, section: .filters,
      help:
        "Only this kind (repeatable): a kebab-case code, built in or an app's own."
    ),
    OptionSpec(
      .file, "--file", value: "substring", commands: reading, section: .filters,
      help: "Only call sites whose file contains <substring>."),
    OptionSpec(
      .process, "--process", value: "name", commands: reading, section: .filters,
      help: "Only this process."),
    OptionSpec(
      .host, "--host", value: "name", commands: reading, section: .filters,
      help: "Only this host."),
    OptionSpec(
      .run, "--run", value: "id", commands: reading, section: .filters,
      help: "Only this run (one process start, 16 hex digits)."),
    OptionSpec(
      .level, "-p", "--level", value: "level", choices: LevelArgument.names, commands: reading,
      section: .filters,
      help:
        "Only this level or more severe (default for check: warning): \(LevelArgument.help)."),
    // Output.
    OptionSpec(
      .lines, "-n", "--lines", value: "n", choices: ["all"], commands: [.follow],
      section: .output,
      help:
        "Show the last <n> events first (default 10; 0 for none, all for everything); with --since and no -n, all since then. On the journal, entries matching --kind, --process, --host and --run are counted. Standard input is shown as it arrives."
    ),
    OptionSpec(
      .format, "-f", "--format", value: "format",
      choices: SummaryFormat.allCases.map(\.rawValue), listed: SummaryFormat.helpNames,
      narrowed: [.follow: SummaryFormat.follow.map(\.rawValue)],
      commands: [.summary, .check, .follow], section: .output,
      help:
        "-f is --format, not tail's -f: follow always follows, and writes each event as soon as it is read (json: one contract JSON object per line)."
    ),
    OptionSpec(
      .groupBy, "--group-by", value: "fields", choices: GroupByArgument.names,
      commands: [.summary, .check], section: .output,
      help:
        "site (default: kind,file,line), \(Suggestion.list(Array(GroupByArgument.names.dropFirst()))); several joined by commas."
    ),
    OptionSpec(
      .top, "--top", value: "n", commands: [.summary, .check], section: .output,
      help: "Groups shown (default 20 in table and markdown, all in the other formats; 0 for all)."
    ),
    OptionSpec(
      .count, "--count", value: "n", commands: [.follow], section: .output,
      help: "Stop after <n> events."),
    OptionSpec(
      .maxLineBytes, "--max-line-bytes", value: "n", commands: reading, section: .output,
      help: "Longer lines are malformed (default 1048576, at most 1073741824)."),
    OptionSpec(
      .threads, "--threads", value: "n", commands: [.summary, .check, .export], section: .output,
      help:
        "Threads reading a file (default: one per processor; 1\u{A0}to\u{A0}1024, at most 32 used). The result is the same for any number, but for export's otlp lines, which may hold fewer than --batch records."
    ),
    OptionSpec(
      .strict, "--strict", commands: [.summary, .check], section: .output,
      help: "Exit 65 when any line is malformed."),
    OptionSpec(
      .sourceRoot, "--source-root", value: "dir", valueKind: .directory,
      commands: [.summary, .check], section: .output,
      help:
        "With \(Suggestion.list(SummaryFormat.pointingAtSites.map(\.rawValue))), or a baseline: find each call site's Module/File.swift under <dir>, preferring a folder named Module; unresolved ones are named on standard error and keep the file ID."
    ),
    // Terminal.
    OptionSpec(
      .color, "--color", value: "when", choices: ReportOptions.ColorChoice.allCases.map(\.rawValue),
      commands: [.summary, .check, .follow], section: .terminal,
      help:
        "Colour levels as journalctl does: \(Suggestion.list(ReportOptions.ColorChoice.allCases.map(\.helpName)))."
    ),
    OptionSpec(
      .utc, "--utc", commands: [.summary, .check, .follow], section: .terminal,
      help: "Show times in UTC (default: local time; json and csv always write RFC 3339 UTC)."),
    OptionSpec(
      .maxColumns, "--max-columns", value: "n", commands: [.summary, .check, .follow], section: .terminal,
      help:
        "Cut every cell of text from the input (path, label, host, name) to <n> columns (default: 100 off a terminal, none on one; 0 for no cap)."
    ),
    OptionSpec(
      .noPager, "--no-pager", commands: [.summary, .check], section: .terminal,
      help: "Do not page long output through $PAGER (default 'less\u{A0}-FRX') on a terminal."),
    // Thresholds and baselines.
    OptionSpec(
      .maxEvents, "--max-events", value: "n", commands: [.check], section: .thresholds,
      help:
        "Most events allowed (default 0), counting those at warning and above unless --level says otherwise; with --baseline, most events at sites not in the baseline."
    ),
    OptionSpec(
      .maxLost, "--max-lost", value: "n", commands: [.check], section: .thresholds,
      help: "Most lost records allowed (default 0)."),
    OptionSpec(
      .maxStale, "--max-stale", value: "n", commands: [.check], section: .thresholds,
      help:
        "Most stale runs allowed (no run-end, silent over twice their heartbeat interval; default: no limit)."
    ),
    OptionSpec(
      .writeBaseline, "--write-baseline", value: "file", valueKind: .file, commands: [.check],
      section: .baseline,
      help:
        "Record the call sites and their events in <file> (sorted JSON) and exit 0 without applying the thresholds."
    ),
    OptionSpec(
      .baseline, "--baseline", value: "file", valueKind: .file, commands: [.check],
      section: .baseline, help: "Fail only on call sites not in <file>, naming each one."),
    OptionSpec(
      .baselineMaxGrowth, "--baseline-max-growth", value: "n", commands: [.check],
      section: .baseline,
      help: "Also fail on known sites whose events grew more than <n> times (2, 1.5)."),
    // Export: its own rows (the inputs and filters above are shared through `reading`).
    OptionSpec(
      .exportFormat, "-f", "--format", value: "format",
      choices: ExportFormat.allCases.map(\.rawValue), listed: ExportFormat.helpNames,
      commands: [.export], section: .output,
      help: "The records themselves, not a summary."),
    OptionSpec(
      .batch, "--batch", value: "n", commands: [.export], section: .output,
      help: "With otlp: log records per line, at most (default \(OTLPEncoder.defaultBatch))."),
    OptionSpec(
      .schema, "--schema", value: "engine", choices: ExportOptions.schemaEngines,
      commands: [.export],
      section: .output,
      help: "Print the CREATE TABLE statement of the table the rows are for, and exit."),
    // Demo.
    OptionSpec(
      .directory, "--dir", value: "dir", valueKind: .directory, commands: [.demo],
      section: .options,
      help: "Where to write events.jsonl (default: a new temporary directory)."),
    // Catalog.
    OptionSpec(
      .appKind, "--kind", value: "kind", commands: [.catalog], section: .options,
      help:
        "Write the entry of an application's own kind (kebab-case) instead of the built-in kinds' catalog; its --subject and --body follow it. Repeatable."
    ),
    OptionSpec(
      .subject, "--subject", value: "text", commands: [.catalog], section: .options,
      help:
        "The entry's one-line Subject: (@CODE_FILE@, @CODE_LINE@ and the other journal fields are replaced by journalctl -x)."
    ),
    OptionSpec(
      .body, "--body", value: "text", commands: [.catalog], section: .options,
      help: "The entry's text: what happened and how to fix it; no line may start with --."),
    // Every command.
    OptionSpec(
      .help, "-h", "--help", commands: Set(Command.allCases), section: .options,
      help: "Show help information."),
  ]

  /// The commands that read events.
  static let reading: Set<Command> = [.summary, .check, .follow, .export]
}
