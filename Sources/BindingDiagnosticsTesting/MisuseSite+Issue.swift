package import Testing

extension MisuseSite {
  /// Records this site in the running test, a failure or a warning, as an issue with a comment
  /// (nothing was thrown), at ``sourceLocation(near:writerPath:)``.
  /// - Parameters:
  ///   - count: How many misuses the site made, or `nil` to leave it out.
  ///   - severity: `.error` fails the test; `.warning` only shows.
  ///   - anchor: A location in the same package (the test's), for
  ///     ``sourceLocation(near:writerPath:)``.
  ///   - writerPath: The writer's file path, when the debug information named it.
  package func record(
    count: Int?, severity: Issue.Severity, near anchor: SourceLocation, writerPath: String? = nil
  ) {
    Issue.record(
      Comment(rawValue: describe(count: count)), severity: severity,
      sourceLocation: sourceLocation(near: anchor, writerPath: writerPath))
  }
}
