import BindingDiagnosticsReport
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Long output on a terminal goes through `$PAGER` as git does: `less -FRX` by default,
/// `LESS=FRX` when `LESS` is unset, run by `/bin/sh -c`; `PAGER` empty or `cat` means none.
/// Output that fits the screen, or goes to a pipe or file, is written directly.
enum Pager {
  /// The pager when `PAGER` is unset.
  static let defaultCommand = "less -FRX"

  /// Writes `text` to standard output, through the pager when `enabled`, standard output is a
  /// terminal and `text` takes more rows than it has.
  static func write(_ text: String, enabled: Bool) {
    guard enabled, Output.isTerminal(1), let rows = Terminal.rows(1),
      Pager.rows(text, columns: Terminal.width(1) ?? Int.max) >= rows
    else {
      Output.out(text)
      return
    }
    let command = Terminal.environment("PAGER") ?? defaultCommand
    guard !command.trimmingCharacters(in: .whitespaces).isEmpty, command != "cat",
      run(command, text)
    else {
      Output.out(text)
      return
    }
  }

  /// The terminal rows `text` takes at `columns` wide, wrapped lines counted as often as they
  /// wrap.
  static func rows(_ text: String, columns: Int) -> Int {
    var rows = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
      let width = TextFitting.width(String(line))
      rows += max(1, (width + columns - 1) / max(columns, 1))
    }
    return rows
  }

  /// Runs `command` with `text` on its standard input and waits for it. Returns `false` when
  /// it could not be started or the shell did not find it (exit 126 or 127), so the caller
  /// writes `text` itself.
  private static func run(_ command: String, _ text: String) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    var environment = ProcessInfo.processInfo.environment
    if environment["LESS"] == nil { environment["LESS"] = "FRX" }
    if environment["LV"] == nil { environment["LV"] = "-c" }
    process.environment = environment
    let input = Pipe()
    process.standardInput = input
    process.standardOutput = FileHandle.standardOutput
    process.standardError = FileHandle.standardError
    do {
      try process.run()
    } catch {
      return false
    }
    // The reader may quit early (`q` in less): writing then fails with EPIPE instead of
    // killing us; Ctrl-C belongs to the pager while it runs.
    signal(SIGPIPE, SIG_IGN)
    let previousInterrupt = signal(SIGINT, SIG_IGN)
    Output.write(input.fileHandleForWriting.fileDescriptor, text)
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
    signal(SIGINT, previousInterrupt)
    let status = process.terminationStatus
    return !(process.terminationReason == .exit && (status == 126 || status == 127))
  }
}
