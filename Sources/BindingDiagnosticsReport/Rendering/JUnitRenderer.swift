/// `--format junit`: a JUnit XML report, as CI systems show test results (GitLab, Jenkins,
/// Azure Pipelines, the JUnit report actions). One test case per call site, named
/// `KIND at FILEID:LINE`, failing exactly when ``verdict`` fails it: when the site has counted
/// events and the counted events cross `--max-events`, or, with a baseline, when the site is new
/// or grew. One more case, `lost records`, fails when the verdict's lost records do, and with
/// `--max-stale` a case `stale runs` fails when its stale runs do. A case's message counts the
/// site's events and names the writers its records carry (where the misusing calls were made, by
/// their path under the source root when it is known, as `gcc` points at them).
package struct JUnitRenderer: Sendable {
  /// At most this many sites (all when `nil`).
  package var top: Int?
  /// The path for each `#fileID`, relative to the source root, written as the case's `file`
  /// and naming the writers in its message.
  package var paths: [String: String]
  /// What `check` decides: which sites fail and why, and whether lost records and stale runs do.
  package var verdict: CheckVerdict

  /// A renderer.
  /// - Parameters:
  ///   - top: The site limit, or `nil` for all.
  ///   - paths: Paths by `#fileID` (see ``SourceRootResolver``).
  ///   - verdict: `check`'s verdict on the summary this renderer will render.
  package init(top: Int? = nil, paths: [String: String] = [:], verdict: CheckVerdict) {
    self.top = top
    self.paths = paths
    self.verdict = verdict
  }

  /// The report as XML and a newline. Groups must be keyed by site (kind, file, line); other
  /// groups are left out.
  /// - Parameter summary: The summary the verdict judged.
  package func render(_ summary: Summary) -> String {
    var cases: [(xml: String, failed: Bool)] = []
    for group in summary.groups.prefix(top ?? Int.max) {
      guard let site = summary.site(of: group) else { continue }
      let failure = verdict.failure(of: group, site: site)
      var xml = "    <testcase name=\"\(JUnitRenderer.escape(site.description))\""
      xml += " classname=\"\(JUnitRenderer.escape(site.file))\""
      if let path = SourceRootResolver.relativePath(paths[site.file] ?? site.file) {
        xml += " file=\"\(JUnitRenderer.escape(path))\""
        if site.line >= 1 { xml += " line=\"\(site.line)\"" }
      }
      xml += " time=\"0\">\n"
      let text = JUnitRenderer.escape(SiteMessage.text(group, kind: site.kind, paths: paths))
      if let failure {
        xml += "      <failure type=\"\(JUnitRenderer.escape(site.kind))\" message=\"\(text)\">"
        xml += "\(JUnitRenderer.escape(failure))</failure>\n"
      } else {
        xml += "      <system-out>\(text)</system-out>\n"
      }
      cases.append((xml + "    </testcase>\n", failure != nil))
    }
    let thresholds = verdict.thresholds
    cases.append(
      runCase(
        "lost records", failure: verdict.lostFailed ? "lost-records" : nil,
        text: HumanText.count(summary.lost, "lost record"),
        option: "--max-lost \(thresholds.maxLost)"))
    if let maxStale = thresholds.maxStale {
      cases.append(
        runCase(
          "stale runs", failure: verdict.staleFailed ? "stale-runs" : nil,
          text: HumanText.count(summary.runStates.stale, "stale run"),
          option: "--max-stale \(maxStale)"))
    }
    let failures = cases.filter(\.failed).count
    let counts = "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\""
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<testsuites name=\"bindiag\" \(counts) time=\"0\">\n"
    out += "  <testsuite name=\"bindiag\" \(counts) skipped=\"0\" time=\"0\">\n"
    out += cases.map(\.xml).joined()
    out += "  </testsuite>\n</testsuites>\n"
    return out
  }

  /// A case for the whole run (`lost records`, `stale runs`), failing with `failure` as its
  /// type when given.
  private func runCase(_ name: String, failure: String?, text: String, option: String) -> (
    xml: String, failed: Bool
  ) {
    var xml = "    <testcase name=\"\(name)\" classname=\"bindiag\" time=\"0\">\n"
    if let failure {
      xml += "      <failure type=\"\(failure)\" message=\"\(text) (\(option))\">"
      xml += "\(text)</failure>\n"
    }
    return (xml + "    </testcase>\n", failure != nil)
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

extension JUnitRenderer: SummaryRenderer {
  /// `JUnit XML for CI test reports` in `--format` help.
  package static var formatNote: String? { "JUnit XML for CI test reports" }
  /// It points at call sites.
  package static var pointsAtSites: Bool { true }
  /// Its cases pass or fail as `check` does.
  package static var needsVerdict: Bool { true }

  /// The sites' paths resolved under the source root, judged by the context's verdict (which
  /// this format needs).
  package init(for summary: Summary, context: RenderContext) {
    self.init(top: context.top, paths: context.paths, verdict: context.verdict!)
  }
}
