import BindingDiagnostics
import Foundation
import Testing

/// What fails a test at a misuse without the trait: the process pipeline's default policy
/// (`automatic`) and `fail-tests` call it, one issue per misuse, at the mapping's call site.
///
/// The core finds this class by name (`BindingDiagnosticsTesting.PolicyFailureReporter`), so it
/// works in any process that links this library, imported or not. There is no test scope to group
/// in, so each misuse is its own issue; ``FailsOnMisuseTrait`` groups them by site.
final class PolicyFailureReporter: NSObject, TestFailureReporter {
  /// The reporter; the core makes the one it uses.
  override required init() {}

  /// Records one issue for the misuse in `Test.current`, if there is one: a failure, or a
  /// warning for a level below `warning` unless `failsBelowWarning`. Returns whether there was.
  func failCurrentTest(
    kind: MisuseKind, level: MisuseLevel, message: String, label: String?, valueType: String,
    site: CallSite, failsBelowWarning: Bool
  ) -> Bool {
    guard let test = Test.current else { return false }
    let site = MisuseSite(
      kind: kind, fileID: site.fileID, line: site.line, label: label, valueType: valueType,
      message: message)
    let severity: Issue.Severity = failsBelowWarning || level >= .warning ? .error : .warning
    site.record(count: nil, severity: severity, near: test.sourceLocation)
    return true
  }

  /// The running test's name (its suites, then its own), or `nil` outside a test.
  func currentTestName() -> String? {
    Test.current.map(\.qualifiedName)
  }
}

extension Test {
  /// `Suite/test()`: the test's id without its module, as the test runner's `--filter` reads it.
  var qualifiedName: String {
    let components = id.nameComponents
    return components.isEmpty ? name : components.joined(separator: "/")
  }
}
