public import BindingDiagnostics
import Testing

/// Runs `body` and expects it to misuse a binding with `kind`: `count` times, or at least once.
///
/// Records an issue at the caller when the expectation fails. Misuses of other kinds go where they
/// would have gone without this call (the test's ``FailsOnMisuseTrait`` pipeline, or the process
/// pipeline); the expected ones stay in the test, out of the process's sinks.
/// - Parameters:
///   - kind: The expected kind.
///   - count: The exact number of misuses expected, or `nil` for at least one.
///   - fileID: The caller's `#fileID`, captured by default.
///   - filePath: The caller's `#filePath`, captured by default.
///   - line: The caller's line, captured by default.
///   - column: The caller's column, captured by default.
///   - body: The code under test.
/// - Returns: The events of `kind`, with values rendered as `.public`.
/// - Throws: What `body` throws.
@discardableResult
public func expectMisuse(
  _ kind: MisuseKind, count: Int? = nil, fileID: String = #fileID, filePath: String = #filePath,
  line: Int = #line, column: Int = #column, _ body: () throws -> Void
) rethrows -> [MisuseEvent] {
  let events = try ClaimingSink.claiming(kind, in: body)
  let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  return check(events, of: kind, count: count, at: location)
}

/// Runs async `body` and expects it to misuse a binding with `kind`: `count` times, or at least
/// once.
///
/// Records an issue at the caller when the expectation fails. Misuses of other kinds go where they
/// would have gone without this call. Child tasks of `body` report to it.
/// - Parameters:
///   - kind: The expected kind.
///   - count: The exact number of misuses expected, or `nil` for at least one.
///   - isolation: The caller's isolation, inherited.
///   - fileID: The caller's `#fileID`, captured by default.
///   - filePath: The caller's `#filePath`, captured by default.
///   - line: The caller's line, captured by default.
///   - column: The caller's column, captured by default.
///   - body: The code under test.
/// - Returns: The events of `kind`, with values rendered as `.public`.
/// - Throws: What `body` throws.
@discardableResult
public func expectMisuse(
  _ kind: MisuseKind, count: Int? = nil, isolation: isolated (any Actor)? = #isolation,
  fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
  column: Int = #column, _ body: () async throws -> Void
) async rethrows -> [MisuseEvent] {
  let events = try await ClaimingSink.claiming(kind, isolation: isolation, in: body)
  let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
  return check(events, of: kind, count: count, at: location)
}

/// Records an issue at `location` when `events` miss the expectation; returns them.
private func check(
  _ events: [MisuseEvent], of kind: MisuseKind, count: Int?, at location: SourceLocation
) -> [MisuseEvent] {
  if let failure = ClaimingSink.mismatch(of: kind, count: count, in: events) {
    Issue.record(Comment(rawValue: failure), sourceLocation: location)
  }
  return events
}
