public import BindingDiagnostics
import BindingDiagnosticsTesting
import XCTest

/// Runs `expression` and fails the current test once for each call site it misused a binding at.
///
/// Each failure sits at the line that wrote (or read) the binding, the first such line of the
/// site, when the build has debug information and the file is found in the caller's SwiftPM
/// package; else at the mapping's line when the mapping is in the calling file, else at the
/// caller's line. Its message names the mapping's `#fileID` and line, the writer, the kind,
/// label, value type and count.
/// The misuses are also written to the process's sinks, with the test's name in the record's
/// `test` field.
/// - Parameters:
///   - expression: The code under test.
///   - message: Added to each failure.
///   - fileID: The caller's `#fileID`, captured by default.
///   - file: The caller's `#filePath`, captured by default.
///   - line: The caller's line, captured by default.
/// - Throws: What `expression` throws.
public func XCTAssertNoMisuse(
  _ expression: () throws -> Void, _ message: @autoclosure () -> String = "",
  fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line
) rethrows {
  let outer = DiagnosticsSystem.current
  let events = try ClaimingSink.claiming(nil, in: expression)
  failEachSite(of: events, message(), fileID: fileID, file: file, line: line)
  relay(events, to: outer)
}

/// Runs async `expression` and fails the current test once for each call site it misused a
/// binding at; see ``XCTAssertNoMisuse(_:_:fileID:file:line:)``.
/// - Parameters:
///   - expression: The code under test.
///   - message: Added to each failure.
///   - fileID: The caller's `#fileID`, captured by default.
///   - file: The caller's `#filePath`, captured by default.
///   - line: The caller's line, captured by default.
/// - Throws: What `expression` throws.
public func XCTAssertNoMisuse(
  _ expression: () async throws -> Void, _ message: @autoclosure () -> String = "",
  fileID: StaticString = #fileID, file: StaticString = #filePath, line: UInt = #line
) async rethrows {
  let outer = DiagnosticsSystem.current
  let events = try await ClaimingSink.claiming(nil, in: expression)
  failEachSite(of: events, message(), fileID: fileID, file: file, line: line)
  relay(events, to: outer)
}

/// Runs `expression` and fails at the caller unless it misused a binding with `kind`: `count`
/// times, or at least once. Misuses of other kinds are reported as they would have been; the
/// expected ones are not written to the process's sinks.
/// - Parameters:
///   - kind: The expected kind.
///   - expression: The code under test.
///   - count: The exact number of misuses expected, or `nil` for at least one.
///   - message: Added to the failure.
///   - file: The caller's `#filePath`, captured by default.
///   - line: The caller's line, captured by default.
/// - Returns: The events of `kind`, with values rendered as `.public`.
/// - Throws: What `expression` throws.
@discardableResult
public func XCTAssertMisuse(
  _ kind: MisuseKind, _ expression: () throws -> Void, count: Int? = nil,
  _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
) rethrows -> [MisuseEvent] {
  let events = try ClaimingSink.claiming(kind, in: expression)
  return check(events, of: kind, count: count, message(), file: file, line: line)
}

/// Runs async `expression` and fails at the caller unless it misused a binding with `kind`:
/// `count` times, or at least once; see ``XCTAssertMisuse(_:_:count:_:file:line:)``.
/// - Parameters:
///   - kind: The expected kind.
///   - expression: The code under test.
///   - count: The exact number of misuses expected, or `nil` for at least one.
///   - message: Added to the failure.
///   - file: The caller's `#filePath`, captured by default.
///   - line: The caller's line, captured by default.
/// - Returns: The events of `kind`, with values rendered as `.public`.
/// - Throws: What `expression` throws.
@discardableResult
public func XCTAssertMisuse(
  _ kind: MisuseKind, _ expression: () async throws -> Void, count: Int? = nil,
  _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
) async rethrows -> [MisuseEvent] {
  let events = try await ClaimingSink.claiming(kind, in: expression)
  return check(events, of: kind, count: count, message(), file: file, line: line)
}

/// One `XCTFail` at the caller when `events` miss the expectation; returns them.
private func check(
  _ events: [MisuseEvent], of kind: MisuseKind, count: Int?, _ message: String,
  file: StaticString, line: UInt
) -> [MisuseEvent] {
  if let failure = ClaimingSink.mismatch(of: kind, count: count, in: events) {
    XCTFail(joined(failure, message), file: file, line: line)
  }
  return events
}

/// One `XCTFail` per site of `events`, in first-seen order.
private func failEachSite(
  of events: [MisuseEvent], _ message: String, fileID: StaticString, file: StaticString,
  line: UInt
) {
  var counts: [MisuseSite.Key: Int] = [:]
  var sites: [MisuseSite] = []
  for event in events {
    let site = MisuseSite(event)
    if counts[site.key] == nil { sites.append(site) }
    counts[site.key, default: 0] += event.events
  }
  for site in sites {
    let text = joined(site.describe(count: counts[site.key]), message)
    if let (writerFileID, writerLine) = MisuseSite.split(site.writer), writerLine > 0 {
      let path = SourcePaths.path(
        of: writerFileID, anchorFileID: "\(fileID)", anchorPath: "\(file)")
      if path.hasPrefix("/") {
        XCTFail(text, file: InternedStaticString.of(path), line: UInt(writerLine))
        continue
      }
    }
    let here = site.fileID == "\(fileID)" && site.line > 0
    XCTFail(text, file: file, line: here ? UInt(site.line) : line)
  }
}

/// Writes the misuses an assertion caught to the process's sinks, naming the running test, as
/// the Swift Testing trait does, so `bindiag` in CI sees every site the tests hit. After the
/// failures: the first one may be how XCTest's reporter learns the running test. Nothing when the
/// assertion ran inside a pipeline a test installed.
private func relay(_ events: [MisuseEvent], to outer: Diagnostics) {
  guard !events.isEmpty, DiagnosticsSystem.isProcessPipeline(outer) else { return }
  let test = MisusePolicy.testName(for: outer)
  for event in events { outer.relay(event, test: test) }
}

private func joined(_ failure: String, _ message: String) -> String {
  message.isEmpty ? failure : failure + " - " + message
}
