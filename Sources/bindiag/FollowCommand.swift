import BindingDiagnostics
import BindingDiagnosticsReport
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `follow`: the last events first, then each new one as it arrives, until `--count` events
/// or `SIGINT`/`SIGTERM` (exit 0 either way).
enum FollowCommand {
  static func run(_ options: inout ReportOptions) -> Int32 {
    let printer = Printer(
      format: options.format, filter: options.filter, limit: options.count ?? Int.max,
      // The journal hands over only the kinds asked for: a run's other records are not missing.
      namesGaps: !(options.readsJournal && !options.filter.kinds.isEmpty),
      renderer: FollowRowRenderer(
        color: TerminalColor(enabled: Terminal.colors(options.color, fd: 1)),
        timeZone: options.utc ? .utc : .local, width: Terminal.width(1),
        cellLimit: options.cellLimit(terminal: Terminal.width(1) != nil)))
    let start = start(options)
    // Without the handlers (no pipe left), the signals simply keep their default effect.
    let stop = try? StopSignal.install().get()

    if options.journal {
      // libsystemd opens what it may and waits on the rest in silence: a user who may read no
      // journal file would wait forever for nothing.
      let access = JournalReader.localAccess()
      if access.readable.isEmpty {
        Output.err(
          "Error: journal not available: "
            + (access.unreadable.isEmpty
              ? "no journal files found in "
                + JournalReader.localDirectories.joined(separator: " or ")
              : "no journal files were opened due to insufficient permissions (root and the "
                + "systemd-journal group may read them)") + "\n")
        return ExitCode.failure
      }
      for (path, error) in access.unreadable {
        Output.err(
          "warning: skipped journal file '\(LogfmtEscaping.escapingControls(path))': \(error)\n")
      }
    }
    if options.readsJournal {
      exitWhenStopped(stop, printer)
      let result = InputReader.followJournal(
        directory: options.journalDirectories.first, filter: options.filter, start: start,
        forged: { printer.skip($0, source: "journal") }
      ) { printer.show($0, source: "journal", line: 0) }
      if case .failure(let error) = result {
        Output.err("Error: journal not available: \(error)\n")
        return ExitCode.failure
      }
      return ExitCode.success
    }
    if options.files.isEmpty || options.files == ["-"] {
      exitWhenStopped(stop, printer)
      let reader = InputReader(maxLineBytes: options.maxLineBytes)
      let result = reader.classifyLines(
        fd: 0, name: "<stdin>", forged: { printer.skip($0, source: "<stdin>") }
      ) { kind, line in
        printer.show(kind, source: "<stdin>", line: line)
      }
      if case .failure(let error) = result {
        Output.err("Error: cannot read standard input: \(error.message)\n")
        return ExitCode.failure
      }
      return ExitCode.success
    }
    for file in options.files {
      let reason: String
      if access(file, R_OK) != 0 {
        // As `tail -F`: a file not there yet is waited for.
        if errno == ENOENT {
          Output.err(
            "bindiag: '\(LogfmtEscaping.escapingControls(file))' does not exist yet; waiting for it\n"
          )
          continue
        }
        reason = String(cString: strerror(errno))
      } else if case .success(let info) = FileDescriptorIO.pathStatus(file),
        info.st_mode & S_IFMT == S_IFDIR
      {
        // As `summary` says it; a directory would otherwise be waited on for ever in silence.
        reason = SystemError("open", code: EISDIR).message
      } else {
        continue
      }
      Output.err("Error: cannot read '\(LogfmtEscaping.escapingControls(file))': \(reason)\n")
      return ExitCode.failure
    }
    // One file named twice (`app.jsonl ./app.jsonl`, a symlink) is followed once.
    let inputs = FileFollower.distinctFiles(FileFollower.rotationSets(options.files))
    let followers = inputs.map {
      FileFollower(
        path: $0, start: start, filter: options.filter, maxLineBytes: options.maxLineBytes)
    }
    let watcher = ChangeWatcher(
      directories: followers.map(\.directory),
      polling: Terminal.environment("BINDIAG_FOLLOW_POLL") == "1")
    FileFollower.follow(followers, watcher: watcher, stop: stop) { item in
      switch item {
      case .event(let event):
        return printer.show(event)
      case .malformed(let source, let line, let reason):
        printer.warn(source: source, line: line, reason: reason)
        return true
      case .truncated(let source):
        Output.err(
          "warning: \(LogfmtEscaping.escapingControls(source)): file truncated and no rotated "
            + "copy found: records appended since follow last read it may be lost; reading it "
            + "from its start\n")
        return true
      }
    }
    return ExitCode.success
  }

  /// `-n N` as given; otherwise everything since `--since`, or the last 10 events.
  static func start(_ options: ReportOptions) -> FollowStart {
    if let lines = options.lines { return lines == Int.max ? .beginning : .last(lines) }
    return options.filter.since == nil ? .last(10) : .beginning
  }

  /// Where reading blocks in a call that cannot watch for a stop (the journal, a pipe): a
  /// thread that exits 0 on `SIGINT`/`SIGTERM`, between two lines of output.
  static func exitWhenStopped(_ stop: StopSignal?, _ printer: Printer) {
    guard let stop else { return }
    let thread = Thread {
      stop.wait()
      printer.exit(ExitCode.success)
    }
    thread.start()
  }

  /// Prints the events that pass the filter, each whole, and counts them.
  final class Printer: Sendable {
    private struct State {
      var renderer: FollowRowRenderer
      var printed = 0
      /// The highest `seq` seen of each run, to name the records between it and the next one
      /// seen (rotated away while `follow` was not reading, or lost).
      var lastSeq: [String: Int] = [:]
    }

    private let format: ReportOptions.Format
    private let filter: EventFilter
    private let limit: Int
    private let namesGaps: Bool
    private let state: Lock<State>

    init(
      format: ReportOptions.Format, filter: EventFilter, limit: Int, namesGaps: Bool,
      renderer: FollowRowRenderer
    ) {
      self.format = format
      self.filter = filter
      self.limit = limit
      self.namesGaps = namesGaps
      state = Lock(State(renderer: renderer))
    }

    /// Prints an event that passes the filter, or a malformed line's warning.
    /// - Returns: `false` once `--count` events were printed.
    func show(_ kind: LineClass, source: String, line: Int) -> Bool {
      switch kind {
      case .event(let event):
        return show(event)
      case .malformed(let reason):
        warn(source: source, line: line, reason: reason.text)
        return true
      case .other, .blank:
        return true
      }
    }

    /// Prints `event` when it is a misuse record that passes the filter (a run record only
    /// updates what the gaps are judged against).
    /// - Returns: `false` once `--count` events were printed.
    func show(_ event: MisuseEvent) -> Bool {
      state.withLock { state in
        guard state.printed < limit else { return false }
        if namesGaps, let last = state.lastSeq[event.run], event.seq > last + 1 {
          let missing =
            event.seq == last + 2
            ? "record \(last + 1) was not seen (rotated away before follow read it"
            : "records \(last + 1)–\(event.seq - 1) were not seen (rotated away before follow "
              + "read them"
          Output.err(
            "warning: run \(LogfmtEscaping.escapingControls(event.run)): \(missing), or lost)\n")
        }
        if namesGaps { state.lastSeq[event.run] = max(state.lastSeq[event.run] ?? 0, event.seq) }
        // Run records mark a run's life and tail; they are never misuse events to show.
        if !event.isRunRecord, filter.accepts(event) {
          switch format {
          case .json:
            Output.out(String(decoding: JSONLinesEncoder().encode(event), as: UTF8.self))
          default:
            Output.out(state.renderer.render(event))
          }
          state.printed += 1
        }
        return state.printed < limit
      }
    }

    /// A forged journal entry is never shown as a record of the run it claims: one line on
    /// standard error says who sent it and whose the run is.
    /// - Returns: `true`: following goes on.
    func skip(_ entry: InputReader.ForgedEntry, source: String) -> Bool {
      state.withLock { _ in
        Output.err(
          "warning: \(LogfmtEscaping.escapingControls(source)): skipped a forged entry: "
            + "\(entry.sender) claims run \(entry.run) (seq \(entry.seq)) of \(entry.owner)\n")
      }
      return true
    }

    /// `warning: FILE:LINE: malformed: REASON` on standard error.
    func warn(source: String, line: Int, reason: String) {
      state.withLock { _ in
        Output.err(
          "warning: \(LogfmtEscaping.escapingControls(source)):\(line): malformed: "
            + LogfmtEscaping.escapingControls(reason) + "\n")
      }
    }

    /// Ends the process once no line is being printed.
    func exit(_ status: Int32) -> Never {
      state.withLock { _ in _exit(status) }
    }
  }
}
