/// The test framework's half of ``MisusePolicy/failTests``.
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
  ///   - message: The report's sentence.
  ///   - label: The mapping's label.
  ///   - valueType: The optional's type.
  ///   - site: Where the mapping was created.
  func failCurrentTest(
    kind: MisuseKind, message: String, label: String?, valueType: String, site: CallSite)
}
