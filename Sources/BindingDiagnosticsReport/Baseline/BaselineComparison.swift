/// A summary held against a baseline: the sites it does not know, the known sites whose events
/// grew too much, and the known sites not seen this time.
public struct BaselineComparison: Sendable, Hashable {
  /// A site and its events now and in the baseline.
  public struct Site: Sendable, Hashable {
    /// The site.
    public var site: SiteKey
    /// Events now.
    public var events: Int
    /// Events in the baseline, `nil` for a new site.
    public var baselineEvents: Int?
  }

  /// Sites not in the baseline, sorted.
  public var new: [Site] = []
  /// Known sites whose events grew more than the allowed factor, sorted.
  public var grown: [Site] = []
  /// Known sites seen this time.
  public var known = 0
  /// Sites in the baseline not seen this time, sorted.
  public var unseen: [SiteKey] = []

  /// Compares the sites of `summary` (grouped by site) with `baseline`.
  /// - Parameters:
  ///   - summary: This run's summary.
  ///   - baseline: The recorded sites.
  ///   - maxGrowth: How much a known site's events may grow, or `nil` for no limit.
  public init(_ summary: Summary, baseline: Baseline, maxGrowth: GrowthFactor? = nil) {
    var seen = Set<SiteKey>()
    for group in summary.groups {
      guard let site = summary.site(of: group) else { continue }
      seen.insert(site)
      guard let before = baseline.sites[site] else {
        new.append(Site(site: site, events: group.events, baselineEvents: nil))
        continue
      }
      known += 1
      if let maxGrowth, maxGrowth.isExceeded(by: group.events, baseline: before) {
        grown.append(Site(site: site, events: group.events, baselineEvents: before))
      }
    }
    new.sort { $0.site < $1.site }
    grown.sort { $0.site < $1.site }
    unseen = baseline.sites.keys.filter { !seen.contains($0) }.sorted()
  }

  /// Events at new sites.
  public var newEvents: Int { new.reduce(0) { $0 + $1.events } }
}
