/// The test framework's half of ``MisusePolicy/automatic`` and ``MisusePolicy/failTests``.
///
/// `BindingDiagnosticsTesting` declares the one conforming class; the core finds it by name
/// (``MisusePolicy/testFailureReporter``), so apps, which do not link that library, never load a
/// test framework.
package protocol TestFailureReporter: AnyObject, Sendable {
  /// The reporter; it holds no state.
  init()

  /// Fails the test running on the current task at `site`; does nothing when there is none.
  /// - Parameters:
  ///   - kind: What went wrong.
  ///   - level: The report's level: below ``MisuseLevel/warning``, a test warning, unless
  ///     `failsBelowWarning`.
  ///   - message: The report's sentence.
  ///   - label: The mapping's label.
  ///   - valueType: The optional's type.
  ///   - site: Where the mapping was created.
  ///   - failsBelowWarning: Whether every level fails the test.
  func failCurrentTest(
    kind: MisuseKind, level: MisuseLevel, message: String, label: String?, valueType: String,
    site: CallSite, failsBelowWarning: Bool)

  /// The name of the test running on the current task, or `nil` outside a test.
  func currentTestName() -> String?
}
