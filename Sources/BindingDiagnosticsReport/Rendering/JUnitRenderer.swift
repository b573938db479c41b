package import BindingDiagnostics

/// `--format junit`: a JUnit XML report, as CI systems show test results (GitLab, Jenkins,
/// Azure Pipelines, the JUnit report actions). One test case per call site, named
/// `KIND at FILEID:LINE`, failing as `check` would: when the site has events at or above
/// ``failingLevel`` and those events in the whole summary are more than ``maxEvents``, or, with a
/// baseline, when ``baselineFailures`` names it. One more case, `lost records`, fails when more
/// than ``maxLost`` records were lost. A case's message counts the site's events and names the
/// writers its records carry (where the misusing calls were made).
package struct JUnitRenderer: Sendable {
  /// At most this many sites (all when `nil`).
  package var top: Int?
  /// The path for each `#fileID`, relative to the source root, written as the case's `file`.
  package var paths: [String: String]
  /// The least level whose events count against the threshold (`check`'s `--level`).
  package var failingLevel: MisuseLevel
  /// The most events allowed before counted sites fail (`check`'s `--max-events`).
  package var maxEvents: Int
  /// The most lost records allowed (`check`'s `--max-lost`).
  package var maxLost: Int
  /// With a baseline, why each site `check` fails on fails (new sites, grown ones): these
  /// sites fail and no other does. `nil` to judge every site by ``maxEvents``.
  package var baselineFailures: [SiteKey: String]?

  /// A renderer with `check`'s defaults.
  /// - Parameters:
  ///   - top: The site limit, or `nil` for all.
  ///   - paths: Paths by `#fileID` (see ``SourceRootResolver``).
  ///   - failingLevel: The least level counted, `warning` by default.
  ///   - maxEvents: The events allowed, 0 by default.
  ///   - maxLost: The lost records allowed, 0 by default.
  ///   - baselineFailures: With a baseline, the failing sites and why; `nil` by default.
  package init(
    top: Int? = nil, paths: [String: String] = [:], failingLevel: MisuseLevel = .warning,
    maxEvents: Int = 0, maxLost: Int = 0, baselineFailures: [SiteKey: String]? = nil
  ) {
    self.top = top
    self.paths = paths
    self.failingLevel = failingLevel
    self.maxEvents = maxEvents
    self.maxLost = maxLost
    self.baselineFailures = baselineFailures
  }

  /// The report as XML and a newline. Groups must be keyed by site (kind, file, line); other
  /// groups are left out.
  /// - Parameter summary: The summary.
  package func render(_ summary: Summary) -> String {
    let counted = summary.groups.reduce(0) { $0 + countedEvents($1) }
    let crossed = counted > maxEvents
    var cases: [(xml: String, failed: Bool)] = []
    for group in summary.groups.prefix(top ?? Int.max) {
      guard let site = summary.site(of: group) else { continue }
      var failure: String?
      if let baselineFailures {
        failure = baselineFailures[site]
      } else if crossed && countedEvents(group) > 0 {
        failure =
          "\(countedEvents(group)) counted (\(failingLevel.rawValue) and above), "
          + "\(counted) in all (--max-events \(maxEvents))"
      }
      var xml = "    <testcase name=\"\(JUnitRenderer.escape(site.description))\""
      xml += " classname=\"\(JUnitRenderer.escape(site.file))\""
      if let path = SourceRootResolver.relativePath(paths[site.file] ?? site.file) {
        xml += " file=\"\(JUnitRenderer.escape(path))\""
        if site.line >= 1 { xml += " line=\"\(site.line)\"" }
      }
      xml += " time=\"0\">\n"
      let text = JUnitRenderer.escape(SiteMessage.text(group, kind: site.kind))
      if let failure {
        xml += "      <failure type=\"\(JUnitRenderer.escape(site.kind))\" message=\"\(text)\">"
        xml += "\(JUnitRenderer.escape(failure))</failure>\n"
      } else {
        xml += "      <system-out>\(text)</system-out>\n"
      }
      cases.append((xml + "    </testcase>\n", failure != nil))
    }
    let lostFailed = summary.lost > maxLost
    var lost = "    <testcase name=\"lost records\" classname=\"bindiag\" time=\"0\">\n"
    if lostFailed {
      let text = HumanText.count(summary.lost, "lost record")
      lost += "      <failure type=\"lost-records\" message=\"\(text) (--max-lost \(maxLost))\">"
      lost += "\(text)</failure>\n"
    }
    cases.append((lost + "    </testcase>\n", lostFailed))
    let failures = cases.filter(\.failed).count
    let counts = "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\""
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<testsuites name=\"bindiag\" \(counts) time=\"0\">\n"
    out += "  <testsuite name=\"bindiag\" \(counts) skipped=\"0\" time=\"0\">\n"
    out += cases.map(\.xml).joined()
    out += "  </testsuite>\n</testsuites>\n"
    return out
  }

  /// The group's events at or above ``failingLevel``.
  private func countedEvents(_ group: Summary.Group) -> Int {
    group.levels.reduce(0) { $0 + ($1.key >= failingLevel ? $1.value : 0) }
  }

  /// Text for an attribute or element: `&`, `<`, `>`, quotes as entities; control characters
  /// (which XML 1.0 cannot hold) and the noncharacters U+FFFE and U+FFFF as `\uXXXX` text.
  static func escape(_ text: String) -> String {
    var out = ""
    for scalar in DisplayText.escapingControls(text).unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\u{FFFE}": out += "\\ufffe"
      case "\u{FFFF}": out += "\\uffff"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
