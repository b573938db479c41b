import BindingDiagnosticsReport
import Foundation

/// The CI options of `summary` and `check`: `--source-root` for `--format sarif|github`, and
/// the baseline options of `check`.
struct CIReportOptions {
  /// Where `#fileID`s are looked up (`--source-root DIR`).
  var sourceRoot: String?
  /// Where to record this run's sites (`--write-baseline FILE`).
  var writeBaseline: String?
  /// The sites to accept (`--baseline FILE`).
  var baseline: String?
  /// How much known sites may grow (`--baseline-max-growth N`).
  var maxGrowth: GrowthFactor?

  /// Whether a baseline is read or written.
  var usesBaseline: Bool { baseline != nil || writeBaseline != nil }

  /// Parses the option `id` (spelled `name`): `--source-root` or a baseline option.
  mutating func parse(
    _ id: OptionSpec.ID, name: String, inline: String?, scanner: inout ArgumentScanner,
    command: Command
  ) throws(UsageError) {
    let value = try scanner.value(name, inline: inline)
    switch id {
    case .sourceRoot:
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: value, isDirectory: &isDirectory),
        isDirectory.boolValue
      else {
        throw UsageError(
          "The value '\(value)' is invalid for '--source-root': not a directory", command: command)
      }
      sourceRoot = value
    case .writeBaseline: writeBaseline = value
    case .baseline: baseline = value
    default:
      guard let factor = GrowthFactor(value) else {
        throw UsageError(
          "The value '\(value)' is invalid for '--baseline-max-growth': expected a number of at least 1, such as 2 or 1.5",
          command: command)
      }
      maxGrowth = factor
    }
  }

  /// The formats that point at sites, as `--source-root`'s error names them:
  /// `'--format sarif', 'github', 'gcc' or 'junit'`.
  static var siteFormats: String {
    let names = SummaryFormat.pointingAtSites.map(\.rawValue)
    return Suggestion.list(
      names.enumerated().map { $0.offset == 0 ? "'--format \($0.element)'" : "'\($0.element)'" })
  }

  /// Checks these options against the others.
  func validate(_ options: ReportOptions) throws(UsageError) {
    let command = options.command
    let ciFormat = options.format.renderer.pointsAtSites
    if sourceRoot != nil && !ciFormat && !usesBaseline {
      throw UsageError(
        "'--source-root' needs \(CIReportOptions.siteFormats), or a baseline", command: command)
    }
    if maxGrowth != nil && baseline == nil {
      throw UsageError("'--baseline-max-growth' needs '--baseline'", command: command)
    }
    if !SiteKey.isKey(options.groupBy) {
      if ciFormat {
        throw UsageError(
          "'--format \(options.format.rawValue)' needs '--group-by site'", command: command)
      }
      if usesBaseline {
        throw UsageError(
          "'\(baseline != nil ? "--baseline" : "--write-baseline")' needs '--group-by site'",
          command: command)
      }
    }
  }
}
