import BindingDiagnosticsReport

/// The options of `export` beyond the inputs and filters it shares with `summary`:
/// `--format`, `--batch` and `--schema`.
struct ExportOptions {
  /// `--format`: what to write; `nil` until given.
  var format: ExportFormat?
  /// `--batch`: OTLP records per line, at most.
  var batch = OTLPEncoder.defaultBatch
  /// Whether `--batch` was given (it applies to OTLP only).
  var batchGiven = false
  /// `--schema`: the engine whose table to print instead of exporting.
  var schema: String?

  /// The engines `--schema` prints a table for.
  static let schemaEngines = ["clickhouse"]

  /// Parses the option `id` (spelled `name`).
  mutating func parse(
    _ id: OptionSpec.ID, name: String, inline: String?, scanner: inout ArgumentScanner,
    command: Command
  ) throws(UsageError) {
    switch id {
    case .batch:
      batch = try scanner.integer(name, inline: inline, in: 1...1_000_000)
      batchGiven = true
    case .schema:
      let engine = try scanner.value(name, inline: inline)
      guard ExportOptions.schemaEngines.contains(engine) else {
        throw UsageError(
          "The value '\(engine)' is invalid for '\(name)': expected clickhouse", command: command)
      }
      schema = engine
    default: format = try scanner.choice(name, inline: inline, as: ExportFormat.self)
    }
  }

  /// Checks the options against the others: a format to write, or the schema alone.
  func validate(_ options: ReportOptions) throws(UsageError) {
    guard options.command == .export, !options.help else { return }
    if schema != nil {
      if format != nil || !options.files.isEmpty || options.readsJournal {
        throw UsageError(
          "'--schema' prints the table and reads nothing: give it alone", command: .export)
      }
      return
    }
    if format == nil {
      throw UsageError(
        "'export' needs '--format otlp' or '--format clickhouse' (or '--schema clickhouse')",
        command: .export)
    }
    if batchGiven, format != .otlp {
      throw UsageError(
        "'--batch' sets OTLP records per line: give it with '--format otlp'", command: .export)
    }
  }
}
