/// What a ``SummaryRenderer`` is made for beyond the summary: the options that shape its output
/// and the terminal it writes to. Each renderer reads the part it needs.
package struct RenderContext: Sendable {
  /// `--top`: the most groups shown, or `nil` when not given (each format has its default).
  package var top: Int?
  /// The terminal's width for standard output, or `nil` when it is not a terminal.
  package var width: Int?
  /// Whether to write ANSI colours.
  package var color: Bool
  /// The zone times are shown in.
  package var timeZone: DisplayTimeZone
  /// The most columns a cell of text from the input takes in a table, or `nil` for no cap.
  package var cellLimit: Int?
  /// Each `#fileID`'s path under the source root, for formats that point at sites.
  package var paths: [String: String]
  /// The source root as an absolute directory path, or `nil` when none was given.
  package var sourceRoot: String?
  /// Whether every input could be read.
  package var executionSuccessful: Bool
  /// `bindiag`'s version, for formats that name their tool.
  package var toolVersion: String
  /// `check`'s verdict on the summary, for formats that show it.
  package var verdict: CheckVerdict?

  /// A context; every part has the default a plain `summary` would use.
  /// - Parameters:
  ///   - top: `--top`, or `nil`.
  ///   - width: The terminal's width, or `nil`.
  ///   - color: Whether to write colours.
  ///   - timeZone: The zone for times.
  ///   - cellLimit: The cell cap, or `nil`.
  ///   - paths: Resolved paths by `#fileID`.
  ///   - sourceRoot: The source root's absolute path, or `nil`.
  ///   - executionSuccessful: Whether every input could be read.
  ///   - toolVersion: `bindiag`'s version.
  ///   - verdict: `check`'s verdict, or `nil`.
  package init(
    top: Int? = nil, width: Int? = nil, color: Bool = false, timeZone: DisplayTimeZone = .utc,
    cellLimit: Int? = nil, paths: [String: String] = [:], sourceRoot: String? = nil,
    executionSuccessful: Bool = true, toolVersion: String = "", verdict: CheckVerdict? = nil
  ) {
    self.top = top
    self.width = width
    self.color = color
    self.timeZone = timeZone
    self.cellLimit = cellLimit
    self.paths = paths
    self.sourceRoot = sourceRoot
    self.executionSuccessful = executionSuccessful
    self.toolVersion = toolVersion
    self.verdict = verdict
  }
}
