import BindingDiagnostics
import BindingDiagnosticsReport

/// `summary` and `check`: read every input, aggregate, render, decide the exit code.
enum SummaryCommand {
  /// Malformed lines reported one by one on standard error before the rest are only counted.
  static let malformedShown = 10

  static func run(_ options: inout ReportOptions) -> Int32 {
    var aggregator = Aggregator(groupBy: options.groupBy, filter: options.filter)
    var malformedSeen = 0
    var reader = InputReader(maxLineBytes: options.maxLineBytes) { line in
      malformedSeen += 1
      if malformedSeen <= malformedShown {
        Output.err(
          "warning: \(DisplayText.escapingControls(line.source)):\(line.line): malformed: "
            + DisplayText.escapingControls(line.reason) + "\n")
      }
    }
    let showProgress = Output.isTerminal(2)
    if showProgress {
      reader.onProgress = { source, bytes in
        Output.err("\rreading \(DisplayText.escapingControls(source)): \(bytes >> 20) MiB")
      }
    }
    var failed = false
    if options.readsJournal {
      if case .failure(let error) = reader.readJournal(
        directory: options.journalDirectory, into: &aggregator)
      {
        Output.err("Error: journal not available: \(DisplayText.escapingControls("\(error)"))\n")
        return ExitCode.failure
      }
    } else {
      if options.files.isEmpty { options.files = ["-"] }
      for file in options.files {
        if case .failure(let error) = reader.read(path: file, into: &aggregator) {
          Output.err(
            "Error: cannot read '\(DisplayText.escapingControls(file))': \(error.message)\n")
          failed = true
        }
      }
    }
    if showProgress { Output.err("\r\u{1b}[K") }
    if malformedSeen > malformedShown {
      Output.err("warning: \(malformedSeen - malformedShown) more malformed lines not shown\n")
    }
    let summary = aggregator.summary()
    switch options.format {
    case .table: Output.out(TableRenderer(top: options.top ?? 20).render(summary))
    case .json: Output.out(JSONRenderer(top: options.top).render(summary))
    case .markdown: Output.out(MarkdownRenderer(top: options.top ?? 20).render(summary))
    case .csv: Output.out(CSVRenderer(top: options.top).render(summary))
    case .sarif, .github:
      Output.out(CIReports.render(summary, options: options, readFailed: failed))
    }
    if failed { return ExitCode.failure }
    if options.strict && summary.malformed > 0 {
      Output.err(
        "Error: \(summary.malformed) malformed \(summary.malformed == 1 ? "line" : "lines") (--strict)\n"
      )
      return ExitCode.malformedStrict
    }
    if options.command == .check {
      var crossed: [String] = []
      var sites = ""
      switch BaselineGate.run(summary, options: options) {
      case .unused:
        if summary.events > options.maxEvents {
          crossed.append("\(summary.events) events (--max-events \(options.maxEvents))")
        }
      case .recorded: return ExitCode.success
      case .failed(let status): return status
      case .compared(let baselineCrossed, let siteLines):
        crossed = baselineCrossed
        sites = siteLines
      }
      if summary.lost > options.maxLost {
        crossed.append("\(summary.lost) lost records (--max-lost \(options.maxLost))")
      }
      if !crossed.isEmpty {
        Output.err("check failed: \(crossed.joined(separator: ", "))\n" + sites)
        return ExitCode.thresholdCrossed
      }
    }
    return ExitCode.success
  }
}
