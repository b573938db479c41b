import Foundation

/// The policy's step after a report: the pipeline's half of ``MisusePolicy``.
extension MisusePolicy {
  /// The reporters the test libraries provide for test failures (``TestProcess/reporterClassNames``),
  /// made from their classes the first time one is needed. Empty when neither library is linked.
  static let testFailureReporters: [any TestFailureReporter] = TestProcess.reporterClassNames
    .compactMap { (NSClassFromString($0) as? any TestFailureReporter.Type)?.init() }

  /// Whether the policy's step is a test failure, taken before the misuse's record is written:
  /// XCTest's reporter learns the running test from its own failure, for the record's `test`.
  var failsTests: Bool { self == .automatic || self == .failTests }

  /// Whether a misuse needs its call site resolved even when no sink takes the event.
  var actsOnMisuse: Bool {
    switch self {
    case .report: RuntimeWarning.isActive
    case .automatic: !MisusePolicy.testFailureReporters.isEmpty || RuntimeWarning.isActive
    case .assert, .failTests, .break: true
    }
  }

  /// What follows the report of one misuse by `pipeline`: a runtime warning in Xcode, then the
  /// policy's own step (a test failure, an assertion, a debugger stop).
  /// - Parameters:
  ///   - misuse: What went wrong, where.
  ///   - writer: Where the misusing read or write was made, found when first asked.
  ///   - pipeline: The pipeline that reported it.
  ///   - flush: Flushes that pipeline's sink, before a stop.
  /// - Returns: Whether a test framework took the misuse (as an issue, or counted under one).
  @discardableResult
  func respond(
    to misuse: Misuse, writer: () -> WriterSite?, pipeline: Diagnostics, flush: () -> Void
  ) -> Bool {
    if pipeline.configuration.runtimeWarnings, RuntimeWarning.isActive {
      RuntimeWarning.raise(
        misuse,
        interval: pipeline.configuration.rateLimit?.interval ?? RateLimit.default.interval)
    }
    switch self {
    case .report:
      return false
    case .automatic:
      guard DiagnosticsSystem.isProcessPipeline(pipeline) else { return false }
      return MisusePolicy.failCurrentTest(misuse, writer: writer, failsBelowWarning: false)
    case .failTests:
      return MisusePolicy.failCurrentTest(misuse, writer: writer, failsBelowWarning: true)
    case .assert:
      flush()
      assertionFailure("Binding misuse \(misuse.kind.code) at \(misuse.site.fileID):\(misuse.site.line)")
      return false
    case .break:
      guard Debugger.isAttached else { return false }
      flush()
      Debugger.stop()
      return false
    }
  }

  /// The name of the test running on this task, for the event's `test` field: only for a
  /// misuse reaching the process-wide pipeline in a test process.
  /// - Parameter pipeline: The pipeline reporting.
  /// - Returns: The test's name, or `nil`.
  package static func testName(for pipeline: Diagnostics) -> String? {
    guard !testFailureReporters.isEmpty, DiagnosticsSystem.isProcessPipeline(pipeline)
    else { return nil }
    return testFailureReporters.lazy.compactMap { $0.currentTestName() }.first
  }

  /// Hands the misuse to the first reporter with a test running; see
  /// ``TestFailureReporter/failCurrentTest(_:writer:failsBelowWarning:)``.
  private static func failCurrentTest(
    _ misuse: Misuse, writer: () -> WriterSite?, failsBelowWarning: Bool
  ) -> Bool {
    for reporter in testFailureReporters
    where reporter.failCurrentTest(misuse, writer: writer, failsBelowWarning: failsBelowWarning) {
      return true
    }
    return false
  }
}
