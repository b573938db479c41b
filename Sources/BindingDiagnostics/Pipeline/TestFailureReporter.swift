/// The test framework's half of ``MisusePolicy/automatic`` and ``MisusePolicy/failTests``.
///
/// `BindingDiagnosticsTesting` (Swift Testing) and `BindingDiagnosticsXCTest` (XCTest) each
/// declare one conforming class; the core finds them by name
/// (``MisusePolicy/testFailureReporters``), so apps, which link neither library, never load a
/// test framework.
package protocol TestFailureReporter: AnyObject, Sendable {
  /// The reporter; it holds no state.
  init()

  /// Fails the test running on the current task, at the writer's line (the mapping's when there
  /// is no writer), once per site per test; does nothing when there is none.
  ///
  /// Returns whether this reporter's framework had a test to record the misuse in, so the next
  /// reporter is asked only when it had none.
  /// - Parameters:
  ///   - misuse: What went wrong, where; below ``MisuseLevel/warning``, a test warning, unless
  ///     `failsBelowWarning`.
  ///   - writer: Where the misusing read or write was made; walks the stack the first time only,
  ///     so call it only for an issue being recorded.
  ///   - failsBelowWarning: Whether every level fails the test.
  /// - Returns: Whether a test of this reporter's framework recorded it.
  @discardableResult
  func failCurrentTest(
    _ misuse: Misuse, writer: () -> WriterSite?, failsBelowWarning: Bool
  ) -> Bool

  /// The name of the test running on the current task, or `nil` outside a test.
  func currentTestName() -> String?
}
