import Foundation

/// What happens after a misuse is reported.
public enum MisusePolicy: String, Sendable, Hashable, CaseIterable {
  /// Report; in a test process, a misuse reaching the process-wide pipeline also fails the
  /// running test. The default.
  ///
  /// "A test process" is one that links `BindingDiagnosticsTesting` and runs a Swift Testing
  /// test on the misusing task, or links `BindingDiagnosticsXCTest` and runs an XCTest test
  /// (on any thread). Kinds below ``MisuseLevel/warning`` (such as
  /// ``MisuseKind/unwrappedReadAfterNil``) are recorded as test warnings, not failures. A pipeline
  /// a test installs itself with ``DiagnosticsSystem/withDiagnostics(_:operation:)`` only reports:
  /// the test collects those misuses on purpose. Elsewhere (an app, a test runner's own threads)
  /// the same as ``report``.
  case automatic
  /// Report and go on, never failing a test: turns ``automatic``'s test failures off.
  case report
  /// Report, flush, then `assertionFailure` (debug builds stop in the debugger; release builds go on).
  case assert
  /// Report, and fail the Swift Testing test running on the misusing task (or the running XCTest
  /// test, with `BindingDiagnosticsXCTest` linked), from any pipeline (also one a test
  /// installed). Needs `BindingDiagnosticsTesting` linked into the process; outside a test, or
  /// without that library, the same as ``report``.
  case failTests = "fail-tests"
  /// Report, flush, then stop in the debugger when one is attached (`SIGTRAP`; continuing goes on
  /// as if nothing happened); with none attached, only report.
  ///
  /// A debugger is attached when `/proc/self/status` names a `TracerPid` (Linux) or the kernel
  /// flags the process `P_TRACED` (Darwin `sysctl`).
  case `break`
}

extension MisusePolicy {
  /// The reporters the test libraries provide for test failures, made from their classes, found
  /// by name the first time one is needed: the core never imports a test framework. Swift
  /// Testing's (`BindingDiagnosticsTesting`) comes first; XCTest's (`BindingDiagnosticsXCTest`)
  /// acts only when it did not. Empty when neither library is linked.
  static let testFailureReporters: [any TestFailureReporter] = [
    "BindingDiagnosticsTesting.PolicyFailureReporter",
    "BindingDiagnosticsXCTest.XCTestPolicyReporter",
  ].compactMap { (NSClassFromString($0) as? any TestFailureReporter.Type)?.init() }

  /// Whether this process runs tests: it links `BindingDiagnosticsTesting` or
  /// `BindingDiagnosticsXCTest`. Its standard error then gets short human lines, not logfmt.
  package static var isTestProcess: Bool { !testFailureReporters.isEmpty }

  /// Set while a record goes to the sinks whose misuse the running test already shows as an
  /// issue, so the standard-error sink does not print it a second time.
  @TaskLocal package static var recordShownAsTestIssue = false

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
  ///   - kind: What went wrong.
  ///   - level: The report's level.
  ///   - message: The report's sentence.
  ///   - label: The mapping's label.
  ///   - valueType: The optional's type.
  ///   - site: Where the mapping was created.
  ///   - writer: Where the misusing read or write was made, found when first asked.
  ///   - pipeline: The pipeline that reported it.
  ///   - flush: Flushes that pipeline's sink, before a stop.
  /// - Returns: Whether a test framework took the misuse (as an issue, or counted under one).
  @discardableResult
  func respond(
    to kind: MisuseKind, level: MisuseLevel, message: String, label: String?, valueType: String,
    site: CallSite, writer: () -> WriterSite?,
    pipeline: Diagnostics, flush: () -> Void
  ) -> Bool {
    if pipeline.configuration.runtimeWarnings, RuntimeWarning.isActive {
      RuntimeWarning.raise(
        kind: kind, message: message, label: label, valueType: valueType, site: site,
        interval: pipeline.configuration.rateLimit?.interval ?? RateLimit.default.interval)
    }
    switch self {
    case .report:
      return false
    case .automatic:
      guard DiagnosticsSystem.isProcessPipeline(pipeline) else { return false }
      return MisusePolicy.failCurrentTest(
        kind: kind, level: level, message: message, label: label, valueType: valueType,
        site: site, writer: writer, failsBelowWarning: false)
    case .failTests:
      return MisusePolicy.failCurrentTest(
        kind: kind, level: level, message: message, label: label, valueType: valueType,
        site: site, writer: writer, failsBelowWarning: true)
    case .assert:
      flush()
      assertionFailure("Binding misuse \(kind.code) at \(site.fileID):\(site.line)")
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
  /// ``TestFailureReporter/failCurrentTest(kind:level:message:label:valueType:site:writer:failsBelowWarning:)``.
  private static func failCurrentTest(
    kind: MisuseKind, level: MisuseLevel, message: String, label: String?, valueType: String,
    site: CallSite, writer: () -> WriterSite?, failsBelowWarning: Bool
  ) -> Bool {
    for reporter in testFailureReporters {
      let handled = reporter.failCurrentTest(
        kind: kind, level: level, message: message, label: label, valueType: valueType,
        site: site, writer: writer, failsBelowWarning: failsBelowWarning)
      if handled { return true }
    }
    return false
  }
}
