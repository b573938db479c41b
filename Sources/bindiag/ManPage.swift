/// `bindiag manpage`: the manual page in roff (`man -l`), made from ``CommandSpec`` and
/// ``OptionSpec`` like help.
enum ManPage {
  static var text: String {
    var page = """
      .TH BINDIAG 1 "" "bindiag \(Bindiag.version)" "User Commands"
      .SH NAME
      bindiag \\- summarise binding misuse reports from files, pipes and the journal
      .SH SYNOPSIS
      .B bindiag
      .I command
      .RI [ options ]
      .RI [ file \\ ...]
      .SH DESCRIPTION
      bindiag reads the misuse events of BindingDiagnostics (JSON Lines files, the logfmt lines
      of standard error, journalctl -o json output, the system journal) and summarises them,
      gates CI on them, or follows them as they arrive.
      .B summary
      is the default command: a first argument that is not a command is read as a file, unless
      it looks like a mistyped command (write
      .I ./NAME
      to read a file named like one).
      .SH COMMANDS

      """
    for spec in CommandSpec.all {
      page += ".TP\n.B \(escape(spec.name))\n\(escape(spec.abstract))\n"
    }
    for spec in CommandSpec.all where spec.command != .help {
      page += ".SH \"\(escape(spec.name.uppercased()))\"\n"
      page += ".B bindiag \(escape(spec.synopsis))\n.PP\n"
      page += paragraphs(spec.overview)
      let options = OptionSpec.options(of: spec.command)
      for section in OptionSpec.Section.allCases {
        let listed = options.filter { $0.section == section }
        if listed.isEmpty { continue }
        page += ".SS \(title(section.rawValue))\n"
        for option in listed {
          page += ".TP\n" + label(option) + escape(option.help) + "\n"
        }
      }
      for note in spec.notes {
        page += ".SS \(title(note.heading))\n.nf\n"
        page += note.lines.map { escape($0) + "\n" }.joined() + ".fi\n"
      }
      if let exitCodes = spec.exitCodes {
        page += ".SS Exit codes\n\(escape(exitCodes))\n"
      }
      if !spec.examples.isEmpty {
        page += ".SS Examples\n.nf\n"
        for example in spec.examples {
          page += escape(example.contains("bindiag ") ? example : "bindiag " + example) + "\n"
        }
        page += ".fi\n"
      }
    }
    page += """
      .SH ENVIRONMENT
      .TP
      .B TZ
      The time zone of the times shown, and of today and yesterday in \\-\\-since and \\-\\-until.
      .TP
      .B NO_COLOR
      When set, no colours with \\-\\-color auto.
      .TP
      .B PAGER
      The pager for long output on a terminal (default less \\-FRX).
      .TP
      .B COLUMNS
      The width tables fit, when a positive number.
      .TP
      .B BINDIAG_FOLLOW_POLL
      With 1, follow polls files every 0.2 s instead of using inotify.
      .SH EXIT STATUS
      0 success; 1 unreadable input, journal unavailable or output failed; 3 check threshold crossed;
      64 usage error; 65 malformed lines with \\-\\-strict.
      .SH SEE ALSO
      .BR journalctl (1)

      """
    return page
  }

  /// `EXIT CODES` as `Exit codes`.
  private static func title(_ heading: String) -> String {
    heading.prefix(1) + heading.dropFirst().lowercased()
  }

  /// `.BR` line for an option's spellings and value: `-f, --format format`.
  private static func label(_ option: OptionSpec) -> String {
    var line = "\\fB" + option.names.map(escape).joined(separator: "\\fR, \\fB") + "\\fR"
    if let value = option.value { line += " \\fI" + escape(value) + "\\fR" }
    return line + "\n"
  }

  /// Overview text: its indented lines (commands to type) kept as they are, the rest filled.
  private static func paragraphs(_ text: String) -> String {
    var out = ""
    var literal = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let indented = line.hasPrefix("  ")
      if indented && !literal { out += ".PP\n.nf\n" }
      if !indented && literal { out += ".fi\n" }
      literal = indented
      out += escape(indented ? String(line.dropFirst(2)) : String(line)) + "\n"
    }
    if literal { out += ".fi\n" }
    return out
  }

  /// `text` safe in roff: backslashes and hyphens escaped, no-break spaces as `\ `, and a
  /// line never starting with a control character.
  static func escape(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "\\": out += "\\e"
      case "-": out += "\\-"
      case "\u{A0}": out += "\\ "
      case "'" where out.isEmpty, "." where out.isEmpty: out += "\\&\(character)"
      default: out.append(character)
      }
    }
    return out
  }
}
