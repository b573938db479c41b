import BindingDiagnostics
import BindingDiagnosticsReport
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `follow`: print each new event as one line until interrupted (or `--count` events).
enum FollowCommand {
  static func run(_ options: inout ReportOptions) -> Int32 {
    var printed = 0
    let limit = options.count ?? Int.max
    let filter = options.filter
    /// Prints an event that passes the filter; returns false once the count is reached.
    func show(_ kind: LineClass, source: String, line: Int) -> Bool {
      switch kind {
      case .event(let event) where filter.accepts(event):
        Output.out(format(event))
        printed += 1
      case .malformed(let reason):
        Output.err(
          "warning: \(DisplayText.escapingControls(source)):\(line): malformed: "
            + DisplayText.escapingControls(reason.text) + "\n")
      default:
        break
      }
      return printed < limit
    }

    if options.readsJournal {
      let directory = options.journalDirectories.first
      let result = InputReader.followJournal(directory: directory, filter: filter) {
        show($0, source: "journal", line: 0)
      }
      if case .failure(let error) = result {
        Output.err("Error: journal not available: \(error)\n")
        return ExitCode.failure
      }
      return ExitCode.success
    }
    if options.files.isEmpty || options.files == ["-"] {
      let reader = InputReader(maxLineBytes: options.maxLineBytes)
      let result = reader.classifyLines(fd: 0, name: "<stdin>") { kind, line in
        show(kind, source: "<stdin>", line: line)
      }
      if case .failure(let error) = result {
        Output.err("Error: cannot read standard input: \(error.message)\n")
        return ExitCode.failure
      }
      return ExitCode.success
    }
    for file in options.files where access(file, R_OK) != 0 {
      Output.err("Error: cannot read '\(file)': \(String(cString: strerror(errno)))\n")
      return ExitCode.failure
    }
    let followers = options.files.map {
      FileFollower(path: $0, fromStart: filter.since != nil, maxLineBytes: options.maxLineBytes)
    }
    while true {
      for follower in followers {
        for (line, kind) in follower.poll() {
          guard show(kind, source: follower.path, line: line) else { return ExitCode.success }
        }
      }
      usleep(200_000)
    }
  }

  /// `2026-11-30 04:12:33  error    mapped-bool-set-true  App/View.swift:42  Demo[4242]@host  ×3`
  static func format(_ event: MisuseEvent) -> String {
    let time = String(event.timestamp.rfc3339.prefix(19)).replacingOccurrences(of: "T", with: " ")
    let level = event.level.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
    var line =
      "\(time)  \(level) \(event.kind.code)  \(event.file):\(event.line)  \(event.process)[\(event.pid)]@\(event.host)"
    if let label = event.label { line += "  label=\(label)" }
    if event.suppressed > 0 { line += "  ×\(event.events)" }
    return DisplayText.escapingControls(line) + "\n"
  }
}
