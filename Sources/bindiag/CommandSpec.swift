/// One command of `bindiag`, declared once: what help, completions and the man page say about
/// it beyond its options (which ``OptionSpec`` declares).
struct CommandSpec {
  let command: Command
  /// One line for the command list.
  let abstract: String
  /// What help shows after `OVERVIEW:`, wrapped by hand.
  let overview: String
  /// The usage line, without `bindiag `.
  let synopsis: String
  /// Whether it takes files (`<file> ...`) after its options.
  let takesFiles: Bool
  /// Sections shown after the options: a heading and its lines (indented two spaces).
  let notes: [(heading: String, lines: [String])]
  /// The exit codes, one line.
  let exitCodes: String?
  /// Command lines shown under `EXAMPLES:`, without `bindiag `.
  let examples: [String]

  /// The name `bindiag` takes.
  var name: String { command.rawValue }

  /// The spec of `command`.
  static func of(_ command: Command) -> CommandSpec {
    all.first { $0.command == command }!
  }

  /// Every command, in the order help lists them.
  static let all: [CommandSpec] = [
    CommandSpec(
      command: .summary, abstract: "Aggregate events and print a summary.",
      overview: """
        Aggregate misuse events and print a summary (exit 0 even when
        misuses were found).
        """,
      synopsis: "summary [<options>] [<file> ...]", takesFiles: true, notes: [],
      exitCodes:
        "0 success, 1 unreadable input, journal unavailable or output failed, 64 usage error, 65 malformed lines with --strict.",
      examples: [
        "summary app.jsonl app.jsonl.1",
        "app 2>&1 >/dev/null | bindiag summary --format markdown",
        "summary --journal --since -1h --group-by kind,host",
        "summary --format sarif --source-root . app.jsonl > bindiag.sarif",
      ]),
    CommandSpec(
      command: .check, abstract: "Like summary, but exit 3 when a threshold is crossed.",
      overview: """
        Summarise, then exit 3 when events at warning and above (or
        at --level) or lost records exceed the thresholds. A passing check says on
        standard error what it counted.
        """,
      synopsis: "check [<options>] [<file> ...]", takesFiles: true, notes: [],
      exitCodes:
        "0 success, 1 unreadable input, journal unavailable or output failed, 3 threshold crossed, 64\u{A0}usage error, 65 malformed lines with --strict.",
      examples: [
        "check app.jsonl",
        "check --max-events 10 --max-lost 0 --level error app.jsonl",
        "check --write-baseline baseline.json old.jsonl",
        "check --baseline baseline.json --baseline-max-growth 2 new.jsonl",
        "check --format github --source-root . app.jsonl",
      ]),
    CommandSpec(
      command: .follow, abstract: "Print events as they are appended or logged.",
      overview: """
        Print events as they arrive: appended to files (followed across
        rotation, nothing lost while the rotated files exist), written to standard
        input, or logged to the journal. The last 10 events come first, as with
        `tail -f` and `journalctl -f`.
        """,
      synopsis: "follow [<options>] [-n <n>] [--count <n>] [<file> ...]", takesFiles: true,
      notes: [
        (
          "STOPPING",
          [
            "Runs until --count events or SIGINT or SIGTERM, which print what the files",
            "hold by then and exit 0. Files are watched with inotify where the kernel",
            "has it; BINDIAG_FOLLOW_POLL=1 polls every 0.2 s instead (for file systems",
            "where inotify misses changes, such as NFS).",
          ]
        )
      ],
      exitCodes:
        "0 success, 1 a file that cannot be read or is a directory (said at the start, nothing followed), journal unavailable or output failed, 64 usage error.",
      examples: [
        "follow /var/log/app/bindings.jsonl",
        "follow -n 0 --format json app.jsonl | jq -r .kind",
        "follow --journal --level error",
      ]),
    CommandSpec(
      command: .export, abstract: "Write the events for OpenTelemetry or ClickHouse.",
      overview: """
        Write the events themselves, not a summary, for the engines a fleet
        outgrows one machine into: OpenTelemetry logs (OTLP/JSON LogsData, one object
        of at most --batch records per line) or ClickHouse (JSONEachRow rows for the
        table --schema clickhouse prints). Every input and filter of summary applies;
        records are written in the order they are read, run records included.
        """,
      synopsis: "export --format <format> [<options>] [<file> ...]", takesFiles: true,
      notes: [],
      exitCodes: "0 success, 1 unreadable input, journal unavailable or output failed, 64 usage error.",
      examples: [
        "export --format otlp app.jsonl > logs.jsonl",
        "export --format otlp --journal --since -1h > /var/lib/otelcol/bindiag.jsonl",
        "export --schema clickhouse | clickhouse-client --multiquery",
        "export --format clickhouse --journal-dir /var/log/journal/remote > rows.jsonl",
      ]),
    CommandSpec(
      command: .demo, abstract: "Run a scripted app that misuses bindings.",
      overview: """
        Run a scripted app (several views, threads, every built-in kind and an
        app's own) that misuses bindings through the public API, print its
        events, then summarise them.
        """,
      synopsis: "demo [--dir <dir>]", takesFiles: false, notes: [], exitCodes: nil,
      examples: []),
    CommandSpec(
      command: .catalog, abstract: "Print the journald message catalog.",
      overview: """
        Print the journald message catalog for all built-in kinds, or with
        --kind, --subject and --body the entries of an application's own kinds
        (their message ids derived from the codes as the library does). Install it
        with:
          bindiag catalog > /usr/lib/systemd/catalog/binding-diagnostics.catalog
          journalctl --update-catalog
        The entries point at this manual page (man:bindiag(1)); install it too:
          bindiag manpage > /usr/local/share/man/man1/bindiag.1
        """,
      synopsis: "catalog [--kind <kind> --subject <text> --body <text>] ...", takesFiles: false,
      notes: [], exitCodes: nil,
      examples: [
        "catalog --kind sheet-twice --subject 'Shown twice' --body 'Show once.'"
      ]),
    CommandSpec(
      command: .completions, abstract: "Print a shell completion script.",
      overview: """
        Print a completion script for \(Completions.Shell.names), made from the same
        table as this help. Install it with:
          bindiag completions bash > /etc/bash_completion.d/bindiag
          bindiag completions zsh > "${fpath[1]}/_bindiag"
          bindiag completions fish > ~/.config/fish/completions/bindiag.fish
        """,
      synopsis: "completions <shell>", takesFiles: false,
      notes: [("ARGUMENTS", ["<shell>                 \(Completions.Shell.names)."])],
      exitCodes: nil,
      examples: ["source <(bindiag completions bash)"]),
    CommandSpec(
      command: .manpage, abstract: "Print the manual page (roff).",
      overview: """
        Print bindiag's manual page in roff, made from the same table as this
        help. Install it with:
          bindiag manpage > /usr/local/share/man/man1/bindiag.1
        """,
      synopsis: "manpage", takesFiles: false, notes: [], exitCodes: nil,
      examples: ["manpage | man -l -"]),
    CommandSpec(
      command: .help, abstract: "Show help for a command.",
      overview: "Show help for a command.", synopsis: "help [<command>]", takesFiles: false,
      notes: [], exitCodes: nil, examples: []),
  ]
}
