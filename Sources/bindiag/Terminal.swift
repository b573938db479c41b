import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the terminal and the environment say about how to write: sizes (`COLUMNS`, `LINES`,
/// else `TIOCGWINSZ`) and whether colours are wanted (`--color`, `NO_COLOR`, `TERM`).
enum Terminal {
  /// An environment variable (the run's ``Console``), or `nil` when unset.
  static func environment(_ name: String) -> String? {
    Console.current.environment(name)
  }

  /// The size of the terminal on `fd` (`ioctl(TIOCGWINSZ)`, through the run's ``Console``), or
  /// `nil` when `fd` is not a terminal or reports no size.
  static func size(_ fd: Int32) -> (columns: Int, rows: Int)? {
    Console.current.terminalSize(fd)
  }

  /// The width output on `fd` must fit: `COLUMNS` when it is a positive number, else the
  /// terminal's width; `nil` (no limit) for a pipe or file.
  static func width(_ fd: Int32) -> Int? {
    if let text = environment("COLUMNS"), let columns = Int(text), columns > 0 { return columns }
    return size(fd)?.columns
  }

  /// The rows of the terminal on `fd`: `LINES` when a positive number, else its own count.
  static func rows(_ fd: Int32) -> Int? {
    if let text = environment("LINES"), let rows = Int(text), rows > 0 { return rows }
    return size(fd).map(\.rows).flatMap { $0 > 0 ? $0 : nil }
  }

  /// Whether to colour output on `fd`: always or never when asked; by default only on a
  /// terminal whose `TERM` is set and not `dumb`, and never when `NO_COLOR` is set and not
  /// empty (no-color.org: an explicit `--color=always` still wins).
  static func colors(_ choice: ReportOptions.ColorChoice, fd: Int32) -> Bool {
    switch choice {
    case .always: return true
    case .never: return false
    case .auto:
      if let noColor = environment("NO_COLOR"), !noColor.isEmpty { return false }
      guard let term = environment("TERM"), !term.isEmpty, term != "dumb" else { return false }
      return Output.isTerminal(fd)
    }
  }
}
