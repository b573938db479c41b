/// A summary held against a baseline: the sites it does not know, the known sites whose events
/// grew too much, and the known sites not seen this time. Sites are matched by identity
/// (``Baseline/Entry/matches(_:identity:source:)``), so a site that moved to another line is
/// still known; each recorded site stands for one site now, so a second unlabelled site of the
/// same kind in the same function is new.
package struct BaselineComparison: Sendable, Hashable {
  /// A site and its events now and in the baseline.
  package struct Site: Sendable, Hashable {
    /// The site.
    package var site: SiteKey
    /// Events now.
    package var events: Int
    /// Events in the baseline, `nil` for a new site.
    package var baselineEvents: Int?
  }

  /// Sites not in the baseline, sorted.
  package var new: [Site] = []
  /// Known sites whose events grew more than the allowed factor, sorted.
  package var grown: [Site] = []
  /// Known sites seen this time.
  package var known = 0
  /// Sites in the baseline not seen this time, sorted.
  package var unseen: [SiteKey] = []

  /// Compares the sites of `summary` (grouped by site) with `baseline`.
  /// - Parameters:
  ///   - summary: This run's summary.
  ///   - baseline: The recorded sites.
  ///   - maxGrowth: How much a known site's events may grow, or `nil` for no limit.
  ///   - sources: This run's source line hashes by site, when a source root was given.
  package init(
    _ summary: Summary, baseline: Baseline, maxGrowth: GrowthFactor? = nil,
    sources: [SiteKey: String] = [:]
  ) {
    var matched = [Bool](repeating: false, count: baseline.entries.count)
    // Entries by kind and file: a site is looked for among few.
    var candidates: [String: [Int]] = [:]
    for (index, entry) in baseline.entries.enumerated() {
      candidates[entry.site.kind + "\u{0}" + entry.site.file, default: []].append(index)
    }
    let sites = summary.groups.compactMap { group in summary.site(of: group).map { (group, $0) } }
      .sorted { $0.1 < $1.1 }
    func entries(for site: SiteKey, _ group: Summary.Group) -> [Int] {
      let identity = SiteIdentity(site, group: group)
      return (candidates[site.kind + "\u{0}" + site.file] ?? []).filter {
        !matched[$0]
          && baseline.entries[$0].matches(site, identity: identity, source: sources[site])
      }
    }
    // Each site takes one entry: first one at its own line, then, in line order, the first
    // left of its identity (several unlabelled sites of one function share one).
    var entryOf = [Int?](repeating: nil, count: sites.count)
    for (position, (group, site)) in sites.enumerated() {
      if let same = entries(for: site, group).first(where: { baseline.entries[$0].site == site }) {
        entryOf[position] = same
        matched[same] = true
      }
    }
    for (position, (group, site)) in sites.enumerated() where entryOf[position] == nil {
      if let moved = entries(for: site, group).first {
        entryOf[position] = moved
        matched[moved] = true
      }
    }
    for (position, (group, site)) in sites.enumerated() {
      guard let entry = entryOf[position] else {
        new.append(Site(site: site, events: group.events, baselineEvents: nil))
        continue
      }
      known += 1
      let before = baseline.entries[entry].events
      if let maxGrowth, maxGrowth.isExceeded(by: group.events, baseline: before) {
        grown.append(Site(site: site, events: group.events, baselineEvents: before))
      }
    }
    new.sort { $0.site < $1.site }
    grown.sort { $0.site < $1.site }
    unseen = baseline.entries.indices.filter { !matched[$0] }.map { baseline.entries[$0].site }
      .sorted()
  }

  /// Events at new sites.
  package var newEvents: Int { new.reduce(0) { $0 + $1.events } }
}
