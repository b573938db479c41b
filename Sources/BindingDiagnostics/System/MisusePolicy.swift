import Foundation

/// What happens after a misuse is reported.
public enum MisusePolicy: String, Sendable, Hashable, CaseIterable {
  /// Report and go on. The default.
  case report
  /// Report, flush, then `assertionFailure` (debug builds stop in the debugger; release builds go on).
  case assert
  /// Report, and fail the Swift Testing test running on the misusing task at the mapping's call
  /// site. Needs `BindingDiagnosticsTesting` linked into the process; outside a test, or without
  /// that library, the same as ``report``.
  case failTests = "fail-tests"
}

extension MisusePolicy {
  /// The reporter `BindingDiagnosticsTesting` provides for ``failTests``, made from its class,
  /// found by name the first time it is needed: the core never imports a test framework. `nil`
  /// when that library is not linked.
  static let testFailureReporter: (any TestFailureReporter)? =
    (NSClassFromString("BindingDiagnosticsTesting.PolicyFailureReporter")
    as? any TestFailureReporter.Type)?.init()
}
