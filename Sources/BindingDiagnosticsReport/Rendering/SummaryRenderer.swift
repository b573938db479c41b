/// A renderer of a ``Summary``: one per `--format` of `summary` and `check`.
///
/// Adding an output format is one conforming type in its own file and one case of
/// ``SummaryFormat``: `bindiag` makes the renderer from a ``RenderContext``, resolves source
/// paths for it when it ``pointsAtSites``, judges the summary for it when it ``needsVerdict``,
/// pages or streams what it writes, and lists it in help, the man page and completions.
package protocol SummaryRenderer: Sendable {
  /// What `--format` help says of the format after its name, in parentheses, if anything:
  /// `SARIF 2.1.0 for code scanning`.
  static var formatNote: String? { get }
  /// Whether the format points at call sites in source files: it needs `--group-by site`, and
  /// `--source-root` resolves their `#fileID`s to paths (``RenderContext/paths``).
  static var pointsAtSites: Bool { get }
  /// Whether the format shows `check`'s verdict (``RenderContext/verdict``).
  static var needsVerdict: Bool { get }
  /// Fields every group is keyed by besides `--group-by`'s (Prometheus names each series'
  /// host).
  static var groupFields: [GroupField] { get }

  /// The renderer `context` asks for, for `summary`.
  /// - Parameters:
  ///   - summary: The summary it will render (some formats read files it names).
  ///   - context: The options and terminal it renders for.
  init(for summary: Summary, context: RenderContext)

  /// The whole output, ending in a newline.
  /// - Parameter summary: The summary.
  func render(_ summary: Summary) -> String

  /// The output in pieces, for formats that stream a large summary instead of holding it as
  /// one string; by default ``render(_:)`` in one piece.
  /// - Parameters:
  ///   - summary: The summary.
  ///   - write: Called with each piece, in order.
  func render(_ summary: Summary, to write: (String) -> Void)
}

extension SummaryRenderer {
  /// No note.
  package static var formatNote: String? { nil }
  /// Not by default.
  package static var pointsAtSites: Bool { false }
  /// Not by default.
  package static var needsVerdict: Bool { false }
  /// None by default.
  package static var groupFields: [GroupField] { [] }

  /// ``render(_:)`` in one piece.
  /// - Parameters:
  ///   - summary: The summary.
  ///   - write: Called once with the whole output.
  package func render(_ summary: Summary, to write: (String) -> Void) {
    write(render(summary))
  }
}
