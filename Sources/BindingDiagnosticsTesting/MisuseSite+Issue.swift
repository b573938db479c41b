package import Testing

extension MisuseSite {
  /// The error a failing site records, so that the test runner's own line for the issue names
  /// the misuse (`Caught error: Binding misuse …`) instead of a generic "Issue recorded".
  package struct Failure: Error, CustomStringConvertible {
    /// ``MisuseSite/describe(count:)``'s text.
    package let description: String
  }

  /// Records this site in the running test: a failure, or a warning.
  /// - Parameters:
  ///   - count: How many misuses the site made, or `nil` to leave it out.
  ///   - severity: `.error` fails the test; `.warning` only shows.
  ///   - anchor: A location in the same package (the test's), for ``sourceLocation(near:)``.
  package func record(count: Int?, severity: Issue.Severity, near anchor: SourceLocation) {
    let text = describe(count: count)
    let location = sourceLocation(near: anchor)
    if severity == .error {
      Issue.record(Failure(description: text), sourceLocation: location)
    } else {
      Issue.record(Comment(rawValue: text), severity: severity, sourceLocation: location)
    }
  }
}
