import BindingDiagnostics
import BindingDiagnosticsReport

/// `check --baseline FILE` and `check --write-baseline FILE`: records this run's sites, and
/// fails only on sites the baseline does not know (or known sites that grew too much).
enum BaselineGate {
  /// What the baseline options decided.
  enum Outcome {
    /// Neither option was given: the plain thresholds apply.
    case unused
    /// Only `--write-baseline`: the sites were recorded, no threshold applies.
    case recorded
    /// The baseline could not be read or written: exit with this code.
    case failed(Int32)
    /// Compared with `--baseline`: the thresholds crossed, one line per offending site, and
    /// the events at sites not in the baseline.
    case compared(crossed: [String], sites: String, newEvents: Int)
  }

  static func run(_ summary: Summary, options: ReportOptions) -> Outcome {
    guard options.ci.usesBaseline else { return .unused }
    let sources = options.ci.sourceRoot.map { SourceLineHash.hashes(of: summary, root: $0) } ?? [:]
    var comparison: BaselineComparison?
    if let path = options.ci.baseline {
      switch BaselineFile.read(path: path) {
      case .success(let baseline):
        comparison = BaselineComparison(
          summary, baseline: baseline, maxGrowth: options.ci.maxGrowth, sources: sources)
      case .failure(let failure):
        Output.err("Error: cannot use baseline '\(path)': \(failure)\n")
        return .failed(ExitCode.failure)
      }
    }
    if let path = options.ci.writeBaseline {
      let baseline = Baseline(summary: summary, sources: sources)
      if case .failure(let error) = BaselineFile.write(baseline, to: path) {
        Output.err("Error: cannot write baseline '\(path)': \(error.message)\n")
        return .failed(ExitCode.failure)
      }
      Output.err("baseline: recorded \(sites(baseline.entries.count)) in \(path)\n")
    }
    guard let comparison else { return .recorded }
    if !comparison.unseen.isEmpty {
      Output.err(
        "note: \(sites(comparison.unseen.count)) in the baseline not seen in this run "
          + "(fixed, or not exercised); --write-baseline records the current ones\n")
    }
    var crossed: [String] = []
    var lines = ""
    if comparison.newEvents > options.maxEvents {
      crossed.append(
        "\(comparison.new.count) new \(comparison.new.count == 1 ? "site" : "sites") not in the "
          + "baseline, \(events(comparison.newEvents)) (--max-events \(options.maxEvents))")
      for new in comparison.new {
        lines +=
          "  new: \(DisplayText.escapingControls(new.site.description)), \(events(new.events))\n"
      }
    }
    if let factor = options.ci.maxGrowth, !comparison.grown.isEmpty {
      crossed.append(
        "\(comparison.grown.count) known \(comparison.grown.count == 1 ? "site" : "sites") grew more "
          + "than \(factor)× (--baseline-max-growth \(factor))")
      for grown in comparison.grown {
        lines += "  grew: \(DisplayText.escapingControls(grown.site.description)), "
        lines += "from \(grown.baselineEvents ?? 0) to \(events(grown.events))\n"
      }
    }
    return .compared(crossed: crossed, sites: lines, newEvents: comparison.newEvents)
  }

  /// For `--format junit`, why each site fails, as ``run(_:options:)`` decides: the new sites
  /// when their events cross `--max-events`, and the grown ones. Empty with `--write-baseline`
  /// alone (no threshold applies); `nil` without a baseline option, or when the baseline
  /// cannot be read (``run(_:options:)`` then says so and the run exits 1).
  static func siteFailures(_ summary: Summary, options: ReportOptions) -> [SiteKey: String]? {
    guard options.ci.usesBaseline else { return nil }
    guard let path = options.ci.baseline else { return [:] }
    guard case .success(let baseline) = BaselineFile.read(path: path) else { return nil }
    let sources = options.ci.sourceRoot.map { SourceLineHash.hashes(of: summary, root: $0) } ?? [:]
    let comparison = BaselineComparison(
      summary, baseline: baseline, maxGrowth: options.ci.maxGrowth, sources: sources)
    var failures: [SiteKey: String] = [:]
    if comparison.newEvents > options.maxEvents {
      for new in comparison.new {
        failures[new.site] =
          "a site not in the baseline: \(events(new.events)), \(comparison.newEvents) at such "
          + "sites in all (--max-events \(options.maxEvents))"
      }
    }
    if let factor = options.ci.maxGrowth {
      for grown in comparison.grown {
        failures[grown.site] =
          "grew from \(grown.baselineEvents ?? 0) to \(events(grown.events)) "
          + "(--baseline-max-growth \(factor))"
      }
    }
    return failures
  }

  private static func sites(_ count: Int) -> String { count == 1 ? "1 site" : "\(count) sites" }

  private static func events(_ count: Int) -> String {
    count == 1 ? "1 event" : "\(count) events"
  }
}
