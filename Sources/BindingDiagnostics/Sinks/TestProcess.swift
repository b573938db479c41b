import Foundation

/// What a sink needs to know of a test process: whether this process runs tests, and whether the
/// record being delivered is one the running test already shows as an issue.
///
/// Below the pipeline, so that a sink (the standard-error sink's short lines in `swift test`)
/// reads it without knowing the policy that decides it (``MisusePolicy``, in the pipeline).
package enum TestProcess {
  /// The classes the test libraries provide for test failures, by name: the core never imports a
  /// test framework. Swift Testing's (`BindingDiagnosticsTesting`) comes first; XCTest's
  /// (`BindingDiagnosticsXCTest`) acts only when it did not.
  package static let reporterClassNames = [
    "BindingDiagnosticsTesting.PolicyFailureReporter",
    "BindingDiagnosticsXCTest.XCTestPolicyReporter",
  ]

  /// Whether this process runs tests: it links `BindingDiagnosticsTesting` or
  /// `BindingDiagnosticsXCTest`. Its standard error then gets short human lines, not logfmt.
  package static let isTestProcess: Bool = reporterClassNames.contains {
    NSClassFromString($0) != nil
  }

  /// Set while a record goes to the sinks whose misuse the running test already shows as an
  /// issue, so the standard-error sink does not print it a second time.
  @TaskLocal package static var recordShownAsTestIssue = false
}
