import BindingDiagnostics
import BindingDiagnosticsReport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `demo`: run the scripted app with real sinks, print its events, summarise them, and say
/// how to dig further.
enum DemoCommand {
  static func run(_ options: DemoOptions) -> Int32 {
    let directory: String
    if let chosen = options.directory {
      if case .failure(let error) = FileDescriptorIO.makeDirectory(chosen, 0o750),
        error.code != EEXIST
      {
        Output.err(
          "Error: cannot create '\(DisplayText.escapingControls(chosen))': \(error.message)\n")
        return ExitCode.failure
      }
      directory = chosen
    } else {
      var template = Array("/tmp/bindiag-demo-XXXXXX".utf8CString)
      guard let made = mkdtemp(&template) else {
        Output.err(
          "Error: cannot create a temporary directory: \(String(cString: strerror(errno)))\n")
        return ExitCode.failure
      }
      directory = String(cString: made)
    }
    let path = directory + "/events.jsonl"
    let file: JSONLinesFileSink
    switch JSONLinesFileSink.open(path: path) {
    case .success(let sink): file = sink
    case .failure(let error):
      Output.err("Error: cannot open '\(DisplayText.escapingControls(path))': \(error)\n")
      return ExitCode.failure
    }
    var sinks: [any DiagnosticsSink] = [
      StandardErrorSink(fileDescriptor: 1), file,
    ]
    let journalReason = JournaldSink.unavailability()
    if journalReason == nil { sinks.append(JournaldSink()) }
    #if canImport(os)
      sinks.append(OSLogSink(subsystem: "bindiag.demo"))
    #endif

    Output.out(
      "Running the demo app; its misuse events, as the standard-error sink writes them:\n\n")
    // The demo is an app: it bootstraps the process-wide pipeline like one.
    DiagnosticsSystem.bootstrap(DiagnosticsConfiguration(sink: MultiplexSink(sinks)))
    DemoApp.run()
    DiagnosticsSystem.flush()
    let run = DiagnosticsSystem.current.run

    var aggregator = Aggregator()
    let reader = InputReader()
    if case .failure(let error) = reader.read(path: path, into: &aggregator) {
      Output.err("Error: cannot read '\(DisplayText.escapingControls(path))': \(error.message)\n")
      return ExitCode.failure
    }
    let summary = aggregator.summary()
    // The directory is the caller's, but a terminal still gets no raw control from it.
    let shown = DisplayText.escapingControls(path)
    Output.out("\nSummary of \(shown):\n\n")
    Output.out(
      TableRenderer(
        width: Terminal.width(1), color: Terminal.colors(.auto, fd: 1), timeZone: .local
      ).render(summary))
    let me = invocationName()
    var hints = """

      \(summary.events) misuses happened (the script commits \(DemoApp.expectedEvents)); \(summary.records) records stand for them.
      Dig further:
        \(me) summary --group-by kind,process \(shown)
        \(me) check --max-events 0 \(shown); echo "exit $?"
        jq -c 'select(.suppressed > 0) | {kind, file, line, suppressed}' \(shown)

      """
    #if canImport(os)
      hints += """
          log show --last 5m --predicate 'subsystem == "bindiag.demo"' --style ndjson | \(me) summary

        """
    #endif
    if journalReason == nil {
      hints += """
          journalctl BINDING_RUN=\(run) -o verbose
          journalctl MESSAGE_ID=\(MisuseKind.mappedBoolSetTrue.messageID) --since today
          \(me) summary --journal --since -1h

        """
    } else {
      hints += "  (journald not used: \(journalReason!))\n"
    }
    Output.out(hints)
    return summary.events == DemoApp.expectedEvents ? ExitCode.success : ExitCode.failure
  }

  /// How to run this binary again: `bindiag` when found through `PATH`, else its absolute path
  /// (as after `swift run`).
  static func invocationName() -> String {
    guard let first = CommandLine.arguments.first, first.contains("/") else { return "bindiag" }
    if first.hasPrefix("/") { return first }
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
    guard getcwd(&buffer, buffer.count) != nil else { return first }
    let directory = String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return directory + "/" + (first.hasPrefix("./") ? String(first.dropFirst(2)) : first)
  }
}
