import BindingDiagnostics
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
      let width = TextFitting.width(withoutColors(line))
      rows += max(1, (width + columns - 1) / max(columns, 1))
    }
    return rows
  }

  /// `line` without its SGR colour sequences (`ESC [ … m`), which take no room.
  static func withoutColors(_ line: Substring) -> String {
    var out = ""
    var inSequence = false
    for character in line {
      if inSequence {
        if character == "m" { inSequence = false }
      } else if character == "\u{1b}" {
        inSequence = true
      } else {
        out.append(character)
      }
    }
    return out
  }

  /// Runs `command` with `text` on its standard input and waits for it. Returns `false` when
  /// it could not be started or the shell did not find it (exit 126 or 127), so the caller
  /// writes `text` itself.
  private static func run(_ command: String, _ text: String) -> Bool {
    var environment = ProcessInfo.processInfo.environment
    if environment["LESS"] == nil { environment["LESS"] = "FRX" }
    if environment["LV"] == nil { environment["LV"] = "-c" }
    guard case .success(let child) = spawn(command, environment: environment) else {
      return false
    }
    // The reader may quit early (`q` in less): writing then fails with EPIPE instead of
    // killing us; Ctrl-C belongs to the pager while it runs.
    signal(SIGPIPE, SIG_IGN)
    let previousInterrupt = signal(SIGINT, SIG_IGN)
    Output.write(child.input, text)
    FileDescriptorIO.closeFile(child.input)
    let status = wait(child.pid)
    signal(SIGINT, previousInterrupt)
    return status != 126 && status != 127
  }

  /// `/bin/sh -c command` with a pipe on its standard input, in our own process group (the
  /// terminal's foreground group, so the pager may read keys and set the terminal's modes);
  /// `posix_spawn`.
  private static func spawn(_ command: String, environment: [String: String]) -> Result<
    (pid: pid_t, input: Int32), SystemError
  > {
    let ends: (read: Int32, write: Int32)
    switch FileDescriptorIO.makePipe() {
    case .success(let made): ends = made
    case .failure(let error): return .failure(error)
    }
    let spawned = FileDescriptorIO.spawn(
      "/bin/sh", arguments: ["/bin/sh", "-c", command], environment: environment,
      input: ends.read, closing: [ends.read, ends.write])
    FileDescriptorIO.closeFile(ends.read)
    let pid: pid_t
    switch spawned {
    case .success(let started): pid = started
    case .failure(let error):
      FileDescriptorIO.closeFile(ends.write)
      return .failure(error)
    }
    return .success((pid, ends.write))
  }

  /// Waits for `pid` (`waitpid`) and returns its exit status, or -1 when it was killed by a
  /// signal or could not be waited for.
  private static func wait(_ pid: pid_t) -> Int32 {
    guard case .success(let status) = FileDescriptorIO.waitForChild(pid) else { return -1 }
    return status & 0x7f == 0 ? (status >> 8) & 0xff : -1
  }
}
