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
    if options.readsJournal {
      let failures = reader.readJournalEntries(
        directories: options.journalDirectories, run: options.filter.run,
        since: options.filter.since, forged: { _ in exporter.countForged() }
      ) { exporter.add($0) }
      for failure in failures {
        let reason = DisplayText.escapingControls("\(failure.error)")
        if failure.skipped, let path = failure.path.map(DisplayText.escapingControls) {
          Output.err("warning: skipped journal file '\(path)': \(reason)\n")
          continue
        }
        if let path = failure.path.map(DisplayText.escapingControls) {
          Output.err("Error: cannot read journal '\(path)': \(reason)\n")
        } else {
          Output.err("Error: journal not available: \(reason)\n")
        }
        failed = true
      }
      for directory in options.journalDirectories {
        if case .success(let files) = JournalReader.journalFiles(in: directory), files.isEmpty {
          Output.err(
            "Error: cannot read journal '\(DisplayText.escapingControls(directory))': "
              + "no journal files (*.journal) in it\n")
          failed = true
        }
      }
    } else {
      for file in options.files where !exporter.writeFailed {
        let result = reader.export(path: file, into: &exporter)
        if case .failure(let error) = result {
          let reason = CompressedInput.reason(error, file: file, command: .export)
          Output.err("Error: cannot read '\(DisplayText.escapingControls(file))': \(reason)\n")
          failed = true
        }
      }
    }
    if !exporter.finish() {
      Output.err("Error: cannot write to standard output\n")
      return ExitCode.failure
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
    return failed ? ExitCode.failure : ExitCode.success
  }
}
