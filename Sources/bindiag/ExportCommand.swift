import BindingDiagnostics
import BindingDiagnosticsReport

/// `export`: read every input in order, filter, and write the events themselves in an engine's
/// format (OTLP/JSON logs or ClickHouse rows) to standard output; or print the table's schema.
enum ExportCommand {
  static func run(_ options: inout ReportOptions) -> Int32 {
    if options.export.schema != nil {
      Output.out(ClickHouseSchema.createTable())
      return ExitCode.success
    }
    guard let format = options.export.format else { return ExitCode.usage }
    if !options.readsJournal && options.files.isEmpty { options.files = ["-"] }
    let console = Console.current
    var exporter = EventExporter(
      format: format, filter: options.filter, batch: options.export.batch,
      version: Bindiag.version
    ) { bytes in bytes.withUnsafeBytes { console.write(1, $0) } }
    var malformedSeen = 0
    var reader = InputReader(maxLineBytes: options.maxLineBytes) { line in
      malformedSeen += 1
      if malformedSeen <= SummaryCommand.malformedShown {
        Output.err(
          "warning: \(DisplayText.escapingControls(line.source)):\(line.line): malformed: "
            + DisplayText.escapingControls(line.reason) + "\n", on: console)
      }
    }
    if let threads = options.threads { reader.threads = threads }
    reader.standardInput = console.standardInput
    var failed = false
    var skipped = 0
    if options.readsJournal {
      failed = !readJournal(options, reader: reader, into: &exporter, skipped: &skipped)
    }
    // Files too, after the journal (a journald sink's fallback file beside it), as `summary`
    // reads them.
    for file in options.files where !exporter.writeFailed {
      let result = reader.export(path: file, into: &exporter)
      if case .failure(let error) = result {
        let reason = CompressedInput.reason(error, file: file, command: .export)
        Output.err("Error: cannot read '\(DisplayText.escapingControls(file))': \(reason)\n")
        failed = true
      }
    }
    if !exporter.finish() {
      Output.err("Error: cannot write to standard output\n")
      return ExitCode.failure
    }
    if skipped > SummaryCommand.skippedShown {
      Output.err(
        "warning: \(HumanText.count(skipped - SummaryCommand.skippedShown, "more journal file")) skipped\n"
      )
    }
    if malformedSeen > SummaryCommand.malformedShown {
      Output.err(
        "warning: \(HumanText.count(malformedSeen - SummaryCommand.malformedShown, "more malformed line")) not shown\n"
      )
    }
    if exporter.forged > 0 {
      Output.err(
        "warning: \(HumanText.count(exporter.forged, "forged journal entry", "forged journal entries")) left out (sent by another process than their run's)\n"
      )
    }
    SummaryCommand.noteUnseenKinds(options.filter.kinds, seen: exporter.kindsSeen.sorted())
    for filter in exporter.sightings.unmatched() {
      Output.err("warning: " + SummaryCommand.unmatchedText(filter) + "\n")
    }
    return failed ? ExitCode.failure : ExitCode.success
  }

  /// Exports the journal (`--journal`, or each `--journal-dir`) into `exporter`, saying on
  /// standard error what could not be read as `summary` says it: a local journal with no file
  /// this user may read is an error; a file passed over (unreadable, corrupt) a warning, the
  /// first ``SummaryCommand/skippedShown`` named and the rest counted in `skipped`.
  /// - Returns: `false` when the journal, or one of the directories, could not be read.
  private static func readJournal(
    _ options: ReportOptions, reader: InputReader, into exporter: inout EventExporter,
    skipped: inout Int
  ) -> Bool {
    var readable = true
    func skip(_ path: String, _ reason: String) {
      skipped += 1
      guard skipped <= SummaryCommand.skippedShown else { return }
      Output.err(
        "warning: skipped journal file '\(DisplayText.escapingControls(path))': "
          + DisplayText.escapingControls(reason) + "\n")
    }
    // libsystemd passes over the local journal's unreadable and corrupt files without a word.
    var local = JournalReader.LocalCheck()
    if options.journal { local = JournalReader.checkLocal() }
    var failures: [InputReader.JournalFailure] = []
    if local.unavailable == nil {
      // No `BINDING_RUN` match for `--run`: every entry is read and the filter selects the run,
      // as `summary` and a file do, so another run's malformed or forged entry is not unsaid.
      failures = reader.readJournalEntries(
        directories: options.journalDirectories, since: options.filter.since,
        forged: { _ in exporter.countForged() }
      ) { exporter.add($0) }
    }
    for (path, error) in local.skipped { skip(path, "\(error)") }
    if let reason = local.unavailable {
      Output.err("Error: journal not available: \(DisplayText.escapingControls(reason))\n")
      readable = false
    }
    for failure in failures {
      if failure.skipped, let path = failure.path {
        skip(path, failure.message ?? "\(failure.error)")
        continue
      }
      let reason = DisplayText.escapingControls(failure.message ?? "\(failure.error)")
      if let path = failure.path.map(DisplayText.escapingControls) {
        Output.err("Error: cannot read journal '\(path)': \(reason)\n")
      } else {
        Output.err("Error: journal not available: \(reason)\n")
      }
      readable = false
    }
    // journalctl -D shows no entries; an export must not pass for one of a directory.
    for directory in options.journalDirectories {
      if case .success(let files) = JournalReader.journalFiles(in: directory), files.isEmpty {
        Output.err(
          "Error: cannot read journal '\(DisplayText.escapingControls(directory))': "
            + "no journal files (*.journal) in it\n")
        readable = false
      }
    }
    return readable
  }
}
