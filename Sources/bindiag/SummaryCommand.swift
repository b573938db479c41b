import BindingDiagnostics
import BindingDiagnosticsReport
import Foundation

/// `summary` and `check`: read every input, aggregate, render, decide the exit code.
enum SummaryCommand {
  /// Malformed lines reported one by one on standard error before the rest are only counted.
  static let malformedShown = 10

  static func run(_ options: inout ReportOptions) -> Int32 {
    let renderer = options.format.renderer
    var groupBy = options.groupBy
    // Fields the format keys every group by (every Prometheus series names its host).
    for field in renderer.groupFields where !groupBy.contains(field) { groupBy.append(field) }
    var aggregator = Aggregator(groupBy: groupBy, filter: options.filter)
    // The live journal's runs, and those of inputs said to be live (a collector's directory,
    // which stops growing altogether when its disk fills), are judged stale against now, or
    // the window's end when earlier; other inputs against their newest record.
    if options.journal || options.live {
      let now = Timestamp.now()
      aggregator.staleReference = options.filter.until.map { min($0, now) } ?? now
    }
    if !options.readsJournal && options.files.isEmpty { options.files = ["-"] }
    // Progress only where a person watches: standard error on a terminal.
    let progress =
      Output.isTerminal(2)
      ? ProgressLine(sources: options.files.count, width: Terminal.width(2) ?? 80) : nil
    // Malformed lines are reported from the reader, on a thread of its own for the journal.
    let console = Console.current
    func warn(_ text: String) {
      if let progress { progress.print(text) } else { Output.err(text, on: console) }
    }
    var malformedSeen = 0
    var reader = InputReader(maxLineBytes: options.maxLineBytes) { line in
      malformedSeen += 1
      if malformedSeen <= malformedShown {
        warn(
          "warning: \(DisplayText.escapingControls(line.source)):\(line.line): malformed: "
            + DisplayText.escapingControls(line.reason) + "\n")
      }
    }
    if let threads = options.threads { reader.threads = threads }
    reader.standardInput = console.standardInput
    if let progress { reader.onProgress = { progress.update($0) } }
    reader.otherUsersApart = !options.allUsers
    var failed = false
    /// Inputs asked for but skipped (a corrupt or unreadable journal file): `check` fails.
    var skipped = 0
    if options.readsJournal {
      progress?.begin("journal")
      for failure in reader.readJournal(directories: options.journalDirectories, into: &aggregator)
      {
        let reason = DisplayText.escapingControls(failure.message ?? "\(failure.error)")
        if failure.skipped, let path = failure.path.map(DisplayText.escapingControls) {
          skipped += 1
          if skipped <= skippedShown {
            warn("warning: skipped journal file '\(path)': \(reason)\n")
          }
          continue
        }
        if let path = failure.path.map(DisplayText.escapingControls) {
          warn("Error: cannot read journal '\(path)': \(reason)\n")
        } else {
          warn("Error: journal not available: \(reason)\n")
        }
        failed = true
      }
      // journalctl -D shows no entries; a gate must not pass on a directory with no journal.
      for directory in options.journalDirectories {
        if case .success(let files) = JournalReader.journalFiles(in: directory), files.isEmpty {
          warn(
            "Error: cannot read journal '\(DisplayText.escapingControls(directory))': "
              + "no journal files (*.journal) in it\n")
          failed = true
        }
      }
    }
    // Files too (a journald sink's fallback file beside the journal): a record read from both
    // counts once.
    for file in options.files {
      progress?.begin(file == "-" ? "<stdin>" : file)
      if case .failure(let error) = reader.read(path: file, into: &aggregator) {
        let reason = CompressedInput.reason(error, file: file, command: options.command)
        warn("Error: cannot read '\(DisplayText.escapingControls(file))': \(reason)\n")
        failed = true
      }
    }
    progress?.finish()
    if skipped > skippedShown {
      warn("warning: \(HumanText.count(skipped - skippedShown, "more journal file")) skipped\n")
    }
    if malformedSeen > malformedShown {
      Output.err(
        "warning: \(HumanText.count(malformedSeen - malformedShown, "more malformed line")) not shown\n"
      )
    }
    let summary = aggregator.summary()
    noteUnseenKinds(options.filter.kinds, seen: aggregator.kindsSeen)
    let gate = options.command == .check
    let unmatched = aggregator.unmatchedFilters
    for filter in unmatched {
      Output.err((gate ? "Error: " : "warning: ") + unmatchedText(filter) + "\n")
    }
    if summary.otherUsersLost > 0 {
      Output.err(
        "note: \(HumanText.count(summary.otherUsersLost, "lost record")) claimed by other users' "
          + "runs (not gated; --all-users counts them)\n")
    }
    // What `check` decides, read by its exit code below and by the JUnit report alike.
    let baseline = gate ? BaselineGate.load(summary, options: options) : BaselineGate.Loaded()
    let refusals = CheckVerdict.Refusals(
      readFailed: failed, unmatchedFilters: gate ? unmatched.count : 0,
      skippedInputs: gate ? skipped : 0, strictMalformed: options.strict ? summary.malformed : 0)
    let verdict =
      gate || renderer.needsVerdict
      ? CheckVerdict(
        summary, thresholds: options.thresholds, summaryLevel: options.filter.minimumLevel,
        baseline: baseline.verdictBaseline(options), refusals: refusals) : nil
    let width = Terminal.width(1)
    let context = RenderContext(
      top: options.top, width: width, color: Terminal.colors(options.color, fd: 1),
      timeZone: options.utc ? .utc : .local, cellLimit: options.cellLimit(terminal: width != nil),
      paths: renderer.pointsAtSites ? CIReports.paths(summary, options: options) : [:],
      sourceRoot: options.ci.sourceRoot.map {
        URL(fileURLWithPath: $0, isDirectory: true).standardizedFileURL.path
      },
      executionSuccessful: !failed, toolVersion: Bindiag.version, verdict: verdict)
    let made = renderer.init(for: summary, context: context)
    if options.pager, Output.isTerminal(1) {
      Pager.write(made.render(summary), enabled: true)
    } else {
      // Written as the renderer hands it over: the JSON of a million groups is never one string.
      made.render(summary, to: Output.out)
    }
    return exitCode(verdict, refusals: refusals, summary, options, baseline)
  }

  /// `check`'s exit code from its verdict (`summary`'s from the refusals alone), saying on
  /// standard error why it did not pass, or what it counted when it did.
  private static func exitCode(
    _ verdict: CheckVerdict?, refusals: CheckVerdict.Refusals, _ summary: Summary,
    _ options: ReportOptions, _ baseline: BaselineGate.Loaded
  ) -> Int32 {
    switch verdict?.outcome ?? CheckVerdict.refusal(refusals) {
    case .readFailed, .unmatchedFilters: return ExitCode.failure
    case .skippedInputs(let skipped):
      Output.err(
        "Error: check cannot pass: \(HumanText.count(skipped, "input")) asked for "
          + "\(skipped == 1 ? "was" : "were") skipped\n")
      return ExitCode.failure
    case .malformed(let malformed):
      Output.err("Error: \(HumanText.count(malformed, "malformed line")) (--strict)\n")
      return ExitCode.malformedStrict
    case .recorded, .crossed, .passed, nil: break
    }
    guard options.command == .check, let verdict else { return ExitCode.success }
    // Reports a baseline that could not be read, records one: the run may end here.
    if let status = BaselineGate.apply(baseline, summary: summary, options: options) {
      return status
    }
    if verdict.outcome == .crossed {
      Output.err("check failed: \(verdict.crossed.joined(separator: ", "))\n" + verdict.siteLines)
      return ExitCode.thresholdCrossed
    }
    let counted = verdict.usesBaseline ? verdict.countedEvents : nil
    Output.err(passed(summary, options: options, counted: counted))
    return ExitCode.success
  }

  /// Skipped journal files named one by one on standard error before the rest are counted.
  static let skippedShown = 10
  /// Values seen named after a filter that matched nothing.
  static let valuesShown = 5

  /// `--host 'hots2' matched no record; hosts seen: 'host2' (closest), 'host1'`.
  static func unmatchedText(
    _ filter: (field: FilterCoverage.Field, value: String, seen: [String])
  ) -> String {
    let quote = { (text: String) in "'" + DisplayText.escapingControls(text) + "'" }
    var text = "\(filter.field.option) \(quote(filter.value)) matched no record"
    guard let closest = Suggestion.nearest(to: filter.value, among: filter.seen) else {
      return text + "; no \(filter.field.plural) seen"
    }
    let others = filter.seen.filter { $0 != closest }
    let shown = others.prefix(valuesShown - 1).map(quote)
    text += "; \(filter.field.plural) seen: \(quote(closest)) (closest)"
    text += shown.map { ", " + $0 }.joined()
    if others.count > shown.count { text += " and \(others.count - shown.count) more" }
    return text
  }

  /// `note: no event has kind 'K'; the closest kind seen is 'L'` for each `--kind` no record
  /// of the input had: most often a typo of a kind that did occur.
  static func noteUnseenKinds(_ kinds: Set<String>, seen: [String]) {
    for kind in kinds.sorted() where !seen.contains(kind) {
      let closest = Suggestion.nearest(to: kind, among: seen)
      Output.err(
        "note: no event has kind '\(DisplayText.escapingControls(kind))'"
          + (closest.map { "; the closest kind seen is '\(DisplayText.escapingControls($0))'" }
            ?? "") + "\n")
    }
  }

  /// The line a passing `check` writes on standard error: what it counted, against what.
  static func passed(_ summary: Summary, options: ReportOptions, counted: Int?) -> String {
    let level = options.filter.minimumLevel ?? .trace
    let events = HumanText.count(counted ?? summary.events, "event")
    let scope =
      (level == .trace ? "" : " at \(level.rawValue) and above")
      + (counted != nil ? " at sites not in the baseline" : "")

    let stale = options.maxStale.map {
      ", \(HumanText.count(summary.runStates.stale, "stale run")) (--max-stale \($0))"
    }
    return "check passed: \(events)\(scope) (--max-events \(options.maxEvents)), "
      + "\(HumanText.count(summary.lost, "lost record")) (--max-lost \(options.maxLost))"
      + (stale ?? "") + "\n"
  }
}
