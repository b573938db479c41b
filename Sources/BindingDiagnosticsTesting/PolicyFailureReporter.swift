import BindingDiagnostics
import Foundation
import Testing

/// What `BINDING_DIAGNOSTICS_POLICY=fail-tests` calls: fails the Swift Testing test running on the
/// misusing task, one issue per misuse, at the mapping's call site.
///
/// The core finds this class by name (`BindingDiagnosticsTesting.PolicyFailureReporter`), so it
/// works in any process that links this library, imported or not. There is no test scope to group
/// in, so each misuse is its own issue; ``FailsOnMisuseTrait`` groups them by site.
final class PolicyFailureReporter: NSObject, TestFailureReporter {
  /// The reporter; the core makes the one it uses.
  override required init() {}

  /// Records one issue for the misuse in `Test.current`, if there is one.
  func failCurrentTest(
    kind: MisuseKind, message: String, label: String?, valueType: String, site: CallSite
  ) {
    guard let test = Test.current else { return }
    let site = MisuseSite(
      kind: kind, fileID: site.fileID, line: site.line, label: label, valueType: valueType,
      message: message)
    Issue.record(
      Comment(rawValue: site.describe(count: nil) + " (BINDING_DIAGNOSTICS_POLICY=fail-tests)"),
      sourceLocation: site.sourceLocation(near: test.sourceLocation))
  }
}
