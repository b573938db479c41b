/// Help and usage texts; `-h`, `--help` and `help COMMAND` print the same text to stdout.
enum Help {
  static func run(_ arguments: [String]) -> Int32 {
    guard let name = arguments.first else {
      Output.out(overview)
      return ExitCode.success
    }
    guard let command = Command(rawValue: name) else {
      return Output.usageError("Unknown command '\(name)'", usage: usage(nil))
    }
    return print(command)
  }

  static func print(_ command: Command) -> Int32 {
    Output.out(text(command))
    return ExitCode.success
  }

  static func usage(_ command: Command?) -> String {
    guard let command else {
      return "Usage: bindiag <command> [<options>]\n  See 'bindiag --help' for more information.\n"
    }
    return
      "Usage: \(synopsis(command))\n  See 'bindiag help \(command.rawValue)' for more information.\n"
  }

  static func synopsis(_ command: Command) -> String {
    switch command {
    case .summary: "bindiag summary [<options>] [<file> ...]"
    case .check: "bindiag check [<options>] [<file> ...]"
    case .follow: "bindiag follow [<options>] [-n <n>] [--count <n>] [<file> ...]"
    case .demo: "bindiag demo [--dir <dir>]"
    case .catalog: "bindiag catalog"
    case .help: "bindiag help [<command>]"
    }
  }

  static let overview = """
    OVERVIEW: Summarise binding misuse reports from files, pipes and the journal.

    USAGE: bindiag <command> [<options>]

    COMMANDS:
      summary (default)       Aggregate events and print a summary.
      check                   Like summary, but exit 3 when a threshold is crossed.
      follow                  Print events as they are appended or logged.
      demo                    Run a scripted app that misuses bindings.
      catalog                 Print the journald message catalog.
      help                    Show help for a command.

    OPTIONS:
      --version               Show the version.
      -h, --help              Show help information.

      See 'bindiag help <command>' for detailed help.

    """

  static let inputOptions = """
    INPUTS:
      <file> ...              JSON Lines files (rotated siblings too), logfmt from
                              standard error, or `journalctl -o json` output; '-' or
                              none: standard input.
      --journal               Read the system journal (BINDING_SCHEMA=1 entries).
      --journal-dir <dir>     Read the journal files of a directory instead;
                              repeatable (systemd-journal-remote's output).

    FILTERS:
      --since <time>          Events at or after <time>: RFC 3339, -30m, -1h, -7d,
                              today (UTC midnight).
      --until <time>          Events at or before <time>.
      --kind <kind>           Only this kind (repeatable).
      --file <substring>      Only call sites whose file contains <substring>.
      --process <name>        Only this process.
      --host <name>           Only this host.
      --run <id>              Only this run (one process start, 16 hex digits).
      --level <level>         Only this level or more severe.


    """

  static func text(_ command: Command) -> String {
    switch command {
    case .summary, .check:
      let name = command == .summary ? "summary" : "check"
      let what =
        command == .summary
        ? "Aggregate misuse events and print a summary (exit 0 even when\nmisuses were found)."
        : "Summarise, then exit 3 when events or lost records exceed the\nthresholds."
      var text = """
        OVERVIEW: \(what)

        USAGE: \(synopsis(command))


        """
      text += inputOptions
      text += """
        OUTPUT:
          -f, --format <format>   table (default), json, markdown, csv, sarif (SARIF
                                  2.1.0 for code scanning), github (workflow-command
                                  annotations) or html (one self-contained page).
          --group-by <fields>     site (default: kind,file,line), kind, type, process,
                                  host, function, file, line; several joined by commas.
          --top <n>               Groups shown (default 20 in table and markdown, all
                                  in json, csv and html; 0 for all).
          --max-line-bytes <n>    Longer lines are malformed (default 1048576,
                                  at most 1073741824).
          --threads <n>           Threads reading a file (default: one per processor;
                                  1 to 1024, at most 32 used). The result is the
                                  same for any number.
          --strict                Exit 65 when any line is malformed.
          --source-root <dir>     With sarif or github: find each call site's
                                  Module/File.swift under <dir>, preferring a folder
                                  named Module; unresolved ones are named on standard
                                  error and keep the file ID.

        TERMINAL:
          --color <when>          Colour levels as journalctl does: auto (default:
                                  when standard output is a terminal and NO_COLOR is
                                  not set), always or never.
          --utc                   Show times in UTC (default: local time; json and csv
                                  always write RFC 3339 UTC).
          --no-pager              Do not page long output through $PAGER (default
                                  'less -FRX') on a terminal.


        """
      if command == .check {
        text += """
          THRESHOLDS:
            --max-events <n>        Most events allowed (default 0); with --baseline,
                                    most events at sites not in the baseline.
            --max-lost <n>          Most lost records allowed (default 0).

          BASELINE:
            --write-baseline <file> Record the call sites and their events in <file>
                                    (sorted JSON) and exit 0 without applying the
                                    thresholds.
            --baseline <file>       Fail only on call sites not in <file>, naming each
                                    one.
            --baseline-max-growth <n>
                                    Also fail on known sites whose events grew more
                                    than <n> times (2, 1.5).


          """
      }
      text += """
        EXIT CODES:
          0 success, 1 unreadable input or journal unavailable, \(command == .check ? "3 threshold crossed,\n  " : "64 usage error,\n  ")\(command == .check ? "64 usage error, " : "")65 malformed lines with --strict.

        EXAMPLES:
          bindiag \(name) app.jsonl app.jsonl.1
          app 2>&1 >/dev/null | bindiag \(name) --format markdown
          bindiag \(name) --journal --since -1h --group-by kind,host
          bindiag \(name) --format sarif --source-root . app.jsonl > bindiag.sarif

        """
      return text
    case .follow:
      return """
        OVERVIEW: Print events as they arrive: appended to files (followed across
        rotation, nothing lost while the rotated files exist), written to standard
        input, or logged to the journal. The last 10 events come first, as with
        `tail -f` and `journalctl -f`.

        USAGE: \(synopsis(command))


        """ + inputOptions + """
          OUTPUT:
            -n, --lines <n>         Show the last <n> events first (default 10; 0 for
                                    none, all for everything); with --since and no -n,
                                    all since then. On the journal, entries matching
                                    --kind, --process, --host and --run are counted.
                                    Standard input is shown as it arrives.
            -f, --format <format>   table (default: aligned columns) or json (one
                                    contract JSON object per line, written as soon as
                                    it is read).
            --count <n>             Stop after <n> events.
            --max-line-bytes <n>    Longer lines are malformed (default 1048576,
                                    at most 1073741824).

          TERMINAL:
            --color <when>          Colour levels as journalctl does: auto (default:
                                    when standard output is a terminal and NO_COLOR is
                                    not set), always or never.
            --utc                   Show times in UTC (default: local time; json always
                                    writes RFC 3339 UTC).

          STOPPING:
            Runs until --count events or SIGINT or SIGTERM, which print what the files
            hold by then and exit 0. Files are watched with inotify where the kernel
            has it; BINDIAG_FOLLOW_POLL=1 polls every 0.2 s instead (for file systems
            where inotify misses changes, such as NFS).

          EXIT CODES:
            0 success, 1 unreadable file or journal unavailable, 64 usage error.

          EXAMPLES:
            bindiag follow /var/log/app/bindings.jsonl
            bindiag follow -n 0 --format json app.jsonl | jq -r .kind
            bindiag follow --journal --level error

          """
    case .demo:
      return """
        OVERVIEW: Run a scripted app (several views, threads, all three kinds) that
        misuses bindings through the public API, print its events, then summarise
        them.

        USAGE: \(synopsis(command))

        OPTIONS:
          --dir <dir>             Where to write events.jsonl (default: a new temporary
                                  directory).
          -h, --help              Show help information.

        """
    case .catalog:
      return """
        OVERVIEW: Print the journald message catalog for all built-in kinds. Install it
        with:
          bindiag catalog > /usr/lib/systemd/catalog/binding-diagnostics.catalog
          journalctl --update-catalog

        USAGE: \(synopsis(command))

        """
    case .help:
      return overview
    }
  }
}
