extension CheckVerdict {
  /// The thresholds a baseline comparison crosses, one line per offending site, and why each
  /// of those sites fails: the new sites when their events cross `--max-events`, and the known
  /// ones that grew past `--baseline-max-growth`.
  static func baselineCrossed(
    _ comparison: BaselineComparison, maxGrowth: GrowthFactor?, maxEvents: Int,
    failures: inout [SiteKey: String]?
  ) -> (crossed: [String], lines: String) {
    var crossed: [String] = []
    var lines = ""
    if comparison.newEvents > maxEvents {
      crossed.append(
        "\(comparison.new.count) new \(comparison.new.count == 1 ? "site" : "sites") not in the "
          + "baseline, \(events(comparison.newEvents)) (--max-events \(maxEvents))")
      for new in comparison.new {
        lines +=
          "  new: \(DisplayText.escapingControls(new.site.description)), \(events(new.events))\n"
        failures?[new.site] =
          "a site not in the baseline: \(events(new.events)), \(comparison.newEvents) at such "
          + "sites in all (--max-events \(maxEvents))"
      }
    }
    if let factor = maxGrowth, !comparison.grown.isEmpty {
      crossed.append(
        "\(comparison.grown.count) known \(comparison.grown.count == 1 ? "site" : "sites") grew more "
          + "than \(factor)× (--baseline-max-growth \(factor))")
      for grown in comparison.grown {
        lines += "  grew: \(DisplayText.escapingControls(grown.site.description)), "
        lines += "from \(grown.baselineEvents ?? 0) to \(events(grown.events))\n"
        failures?[grown.site] =
          "grew from \(grown.baselineEvents ?? 0) to \(events(grown.events)) "
          + "(--baseline-max-growth \(factor))"
      }
    }
    return (crossed, lines)
  }

  /// `1 event`, `12 events`: plain digits, as the baseline's messages have always written them.
  private static func events(_ count: Int) -> String {
    count == 1 ? "1 event" : "\(count) events"
  }
}
