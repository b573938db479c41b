package import BindingDiagnostics

/// What `check` decides about what it read: pass, or why not. Written once, read by both
/// `check`'s exit code and the JUnit report (``JUnitRenderer``), so the two cannot disagree:
/// a report shows a failing case exactly when `check` exits 3 on the same input.
///
/// In order, `check` refuses to pass when it could not read an input, when a filter matched
/// nothing, when an input asked for was skipped, and (with `--strict`) on malformed lines; then
/// it applies its thresholds: events at ``Thresholds/failingLevel`` and above (or, with a
/// baseline, at sites it does not know, and known sites that grew), lost records and stale runs.
package struct CheckVerdict: Sendable {
  /// `check`'s thresholds.
  package struct Thresholds: Sendable, Hashable {
    /// The least level whose events count (`--level`, `warning` by default).
    package var failingLevel: MisuseLevel
    /// The most events allowed (`--max-events`); with a baseline, at sites not in it.
    package var maxEvents: Int
    /// The most lost records allowed (`--max-lost`).
    package var maxLost: Int
    /// The most stale runs allowed (`--max-stale`), or `nil` for no limit.
    package var maxStale: Int?

    /// Thresholds, `check`'s defaults unless given.
    /// - Parameters:
    ///   - failingLevel: The least level counted.
    ///   - maxEvents: The events allowed.
    ///   - maxLost: The lost records allowed.
    ///   - maxStale: The stale runs allowed, `nil` for no limit.
    package init(
      failingLevel: MisuseLevel = .warning, maxEvents: Int = 0, maxLost: Int = 0,
      maxStale: Int? = nil
    ) {
      self.failingLevel = failingLevel
      self.maxEvents = maxEvents
      self.maxLost = maxLost
      self.maxStale = maxStale
    }
  }

  /// What the baseline options bring.
  package enum Baseline: Sendable {
    /// No baseline option (or a baseline that could not be read): the plain thresholds.
    case none
    /// `--write-baseline` alone: the sites are recorded and no threshold applies.
    case recordOnly
    /// `--baseline`: sites it does not know count, and known ones that grew past the factor fail.
    case compared(BaselineComparison, maxGrowth: GrowthFactor?)
  }

  /// What stops `check` before any threshold.
  package struct Refusals: Sendable, Hashable {
    /// An input could not be read (exit 1).
    package var readFailed = false
    /// Filters that matched no record (exit 1).
    package var unmatchedFilters = 0
    /// Inputs asked for but skipped, such as a corrupt journal file (exit 1).
    package var skippedInputs = 0
    /// The malformed lines that fail the run under `--strict` (exit 65); 0 without it.
    package var strictMalformed = 0

    /// What went wrong before the thresholds; nothing by default.
    /// - Parameters:
    ///   - readFailed: Whether an input could not be read.
    ///   - unmatchedFilters: The filters that matched no record.
    ///   - skippedInputs: The inputs skipped.
    ///   - strictMalformed: The malformed lines under `--strict`, 0 without it.
    package init(
      readFailed: Bool = false, unmatchedFilters: Int = 0, skippedInputs: Int = 0,
      strictMalformed: Int = 0
    ) {
      self.readFailed = readFailed
      self.unmatchedFilters = unmatchedFilters
      self.skippedInputs = skippedInputs
      self.strictMalformed = strictMalformed
    }
  }

  /// The decision.
  package enum Outcome: Sendable, Hashable {
    /// Every threshold holds.
    case passed
    /// `--write-baseline` alone: recorded, nothing judged.
    case recorded
    /// A threshold was crossed (exit 3).
    case crossed
    /// An input could not be read (exit 1).
    case readFailed
    /// A filter matched no record (exit 1).
    case unmatchedFilters
    /// Inputs asked for were skipped (exit 1).
    case skippedInputs(Int)
    /// Malformed lines under `--strict` (exit 65).
    case malformed(Int)
  }

  /// The thresholds judged against.
  package let thresholds: Thresholds
  /// The decision.
  package let outcome: Outcome
  /// Each threshold crossed, as `check failed:` lists them (`3 events (--max-events 0)`).
  package let crossed: [String]
  /// With a baseline, one line per offending site (`  new: …`, `  grew: …`), each ending in a
  /// newline.
  package let siteLines: String
  /// The events counted against `--max-events`: all those at the failing level and above, or
  /// with a baseline those at sites not in it.
  package let countedEvents: Int
  /// Whether a baseline was compared.
  package let usesBaseline: Bool
  /// Whether the lost records fail the run.
  package let lostFailed: Bool
  /// Whether the stale runs fail the run.
  package let staleFailed: Bool
  /// With a baseline, why each failing site fails; without one, `nil` (a site fails when it
  /// has counted events and ``eventsCrossed``).
  private let baselineFailures: [SiteKey: String]?
  /// Without a baseline, whether the counted events crossed `--max-events`.
  package let eventsCrossed: Bool

  /// Judges `summary`.
  /// - Parameters:
  ///   - summary: What was read.
  ///   - thresholds: `check`'s thresholds.
  ///   - summaryLevel: The least level the summary was filtered at (`--level`), if any. When it
  ///     is the failing level or above, every event of the summary counts and the groups are
  ///     not visited.
  ///   - baseline: What the baseline options bring.
  ///   - refusals: What stops `check` before any threshold.
  package init(
    _ summary: Summary, thresholds: Thresholds, summaryLevel: MisuseLevel?,
    baseline: Baseline = .none, refusals: Refusals = Refusals()
  ) {
    self.thresholds = thresholds
    var crossed: [String] = []
    var lines = ""
    var failures: [SiteKey: String]?
    var counted = 0
    var eventsCrossed = false
    switch baseline {
    case .none:
      if let summaryLevel, summaryLevel >= thresholds.failingLevel {
        counted = summary.events
      } else {
        counted = summary.groups.reduce(0) {
          $0 + CheckVerdict.events(of: $1, atOrAbove: thresholds.failingLevel)
        }
      }
      eventsCrossed = counted > thresholds.maxEvents
      if eventsCrossed {
        crossed.append(
          "\(HumanText.count(counted, "event")) (--max-events \(thresholds.maxEvents))")
      }
    case .recordOnly:
      failures = [:]
    case .compared(let comparison, let maxGrowth):
      counted = comparison.newEvents
      failures = [:]
      (crossed, lines) = CheckVerdict.baselineCrossed(
        comparison, maxGrowth: maxGrowth, maxEvents: thresholds.maxEvents, failures: &failures)
    }
    let judged: Bool
    if case .recordOnly = baseline { judged = false } else { judged = true }
    lostFailed = judged && summary.lost > thresholds.maxLost
    if lostFailed {
      crossed.append(
        "\(HumanText.count(summary.lost, "lost record")) (--max-lost \(thresholds.maxLost))")
    }
    if judged, let maxStale = thresholds.maxStale, summary.runStates.stale > maxStale {
      staleFailed = true
      crossed.append(
        "\(HumanText.count(summary.runStates.stale, "stale run")) (--max-stale \(maxStale))")
    } else {
      staleFailed = false
    }
    self.crossed = crossed
    self.siteLines = lines
    self.countedEvents = counted
    self.eventsCrossed = eventsCrossed
    self.baselineFailures = failures
    if case .compared = baseline { usesBaseline = true } else { usesBaseline = false }
    outcome = CheckVerdict.decide(refusals, judged: judged, crossed: !crossed.isEmpty)
  }

  /// Why the site of `group` fails, or `nil` when it passes.
  /// - Parameters:
  ///   - group: A group of a summary grouped by site.
  ///   - site: Its site.
  package func failure(of group: Summary.Group, site: SiteKey) -> String? {
    if let baselineFailures { return baselineFailures[site] }
    let events = CheckVerdict.events(of: group, atOrAbove: thresholds.failingLevel)
    guard eventsCrossed && events > 0 else { return nil }
    return "\(events) counted (\(thresholds.failingLevel.rawValue) and above), "
      + "\(countedEvents) in all (--max-events \(thresholds.maxEvents))"
  }

  /// The first of `refusals` that stops a run before its thresholds, in the order `check`
  /// applies them, or `nil` when none does. `summary`'s exit code is this alone.
  /// - Parameter refusals: What went wrong before the thresholds.
  package static func refusal(_ refusals: Refusals) -> Outcome? {
    if refusals.readFailed { return .readFailed }
    if refusals.unmatchedFilters > 0 { return .unmatchedFilters }
    if refusals.skippedInputs > 0 { return .skippedInputs(refusals.skippedInputs) }
    if refusals.strictMalformed > 0 { return .malformed(refusals.strictMalformed) }
    return nil
  }

  /// The outcome: the first refusal, else what the thresholds say.
  private static func decide(_ refusals: Refusals, judged: Bool, crossed: Bool) -> Outcome {
    if let refused = refusal(refusals) { return refused }
    if !judged { return .recorded }
    return crossed ? .crossed : .passed
  }

  /// A group's events at `level` and above.
  private static func events(of group: Summary.Group, atOrAbove level: MisuseLevel) -> Int {
    group.levels.reduce(0) { $0 + ($1.key >= level ? $1.value : 0) }
  }
}
