import BindingDiagnostics
import BindingDiagnosticsReport

/// `check --baseline FILE` and `check --write-baseline FILE`: records this run's sites, and
/// hands the comparison to ``CheckVerdict``, which fails only on sites the baseline does not
/// know (or known sites that grew too much).
enum BaselineGate {
  /// What the baseline options brought, read before anything is rendered.
  struct Loaded {
    /// Whether a baseline option was given.
    var used = false
    /// The comparison with `--baseline`, when it could be read.
    var comparison: BaselineComparison?
    /// Why `--baseline` could not be read.
    var readError: String?
    /// This run's source line hashes by site (with `--source-root`), for the baseline written.
    var sources: [SiteKey: String] = [:]

    /// What the verdict judges with: the comparison, the record alone, or nothing (no option,
    /// or a baseline that could not be read, which ``apply(_:summary:options:)`` then reports).
    func verdictBaseline(_ options: ReportOptions) -> CheckVerdict.Baseline {
      if let comparison { return .compared(comparison, maxGrowth: options.ci.maxGrowth) }
      if used && options.ci.baseline == nil { return .recordOnly }
      return .none
    }
  }

  /// Reads `--baseline` and compares the summary with it; writes nothing, says nothing.
  static func load(_ summary: Summary, options: ReportOptions) -> Loaded {
    guard options.ci.usesBaseline else { return Loaded() }
    var loaded = Loaded(used: true)
    loaded.sources =
      options.ci.sourceRoot.map { SourceLineHash.hashes(of: summary, root: $0) } ?? [:]
    if let path = options.ci.baseline {
      switch BaselineFile.read(path: path) {
      case .success(let baseline):
        loaded.comparison = BaselineComparison(
          summary, baseline: baseline, maxGrowth: options.ci.maxGrowth, sources: loaded.sources)
      case .failure(let failure):
        loaded.readError = "Error: cannot use baseline '\(path)': \(failure)\n"
      }
    }
    return loaded
  }

  /// Once `check` gets to its thresholds: reports a baseline that could not be read, writes
  /// `--write-baseline`, and notes the known sites not seen. Returns the exit code when the
  /// run ends here (a failure, or a baseline only recorded), `nil` to let the verdict decide.
  static func apply(_ loaded: Loaded, summary: Summary, options: ReportOptions) -> Int32? {
    guard loaded.used else { return nil }
    if let readError = loaded.readError {
      Output.err(readError)
      return ExitCode.failure
    }
    if let path = options.ci.writeBaseline {
      if options.files.contains(where: { BaselineFile.sameFile($0, path) }) {
        Output.err(
          "Error: cannot write baseline '\(DisplayText.escapingControls(path))': it is an input "
            + "of this run\n")
        return ExitCode.failure
      }
      let baseline = Baseline(summary: summary, sources: loaded.sources)
      if case .failure(let error) = BaselineFile.write(baseline, to: path) {
        Output.err(
          "Error: cannot write baseline '\(DisplayText.escapingControls(path))': \(error.message)\n"
        )
        return ExitCode.failure
      }
      Output.err(
        "baseline: recorded \(sites(baseline.entries.count)) in "
          + "\(DisplayText.escapingControls(path))\n")
    }
    guard let comparison = loaded.comparison else { return ExitCode.success }
    if !comparison.unseen.isEmpty {
      Output.err(
        "note: \(sites(comparison.unseen.count)) in the baseline not seen in this run "
          + "(fixed, or not exercised); --write-baseline records the current ones\n")
    }
    return nil
  }

  private static func sites(_ count: Int) -> String { count == 1 ? "1 site" : "\(count) sites" }
}
