import BindingDiagnostics
import Foundation
import Testing

/// What fails a test at a misuse without the trait: the process pipeline's default policy
/// (`automatic`) and `fail-tests` call it.
///
/// The core finds this class by name (`BindingDiagnosticsTesting.PolicyFailureReporter`), so it
/// works in any process that links this library, imported or not. Each call site a test (or test
/// case) misuses becomes one issue of that test, recorded at the first misuse, on the misusing
/// task, at the writer's line (the mapping's when the build has no debug information); later
/// misuses of the site in the same test are counted, never recorded again, so 20 000 misuses of
/// one site are one issue. Swift Testing gives a library no hook at a test's end, so the issue
/// cannot say the final count: the process's records carry it (`suppressed`), and
/// ``FailsOnMisuseTrait`` adds it to the test's output.
final class PolicyFailureReporter: NSObject, TestFailureReporter {
  /// A site in one test: what is recorded once.
  private struct Seen: Hashable {
    let test: String
    let site: MisuseSite.Key
  }

  /// Sites already recorded, with how many misuses each made since.
  private let seen = Lock<[Seen: Int]>([:])

  /// The reporter; the core makes the one it uses.
  override required init() {}

  /// Records one issue for the site's first misuse in `Test.current`, if there is one: a
  /// failure, or a warning for a level below `warning` unless `failsBelowWarning`. Returns
  /// whether there was a test.
  func failCurrentTest(
    _ misuse: Misuse, writer: () -> WriterSite?, failsBelowWarning: Bool
  ) -> Bool {
    guard let test = Test.current else { return false }
    let key = Seen(
      test: test.nameWithArguments(Test.Case.current), site: MisuseSite.key(of: misuse))
    let first = seen.withLock { seen -> Bool in
      let count = seen[key, default: 0]
      seen[key] = count + 1
      return count == 0
    }
    guard first else { return true }
    let writer = writer()
    let site = MisuseSite(misuse, writer: writer?.text)
    let severity: Issue.Severity = failsBelowWarning || misuse.level >= .warning ? .error : .warning
    site.record(count: nil, severity: severity, near: test.sourceLocation, writerPath: writer?.path)
    return true
  }

  /// The running test's name (its suites, then its own, with a parameterised case's
  /// arguments), or `nil` outside a test.
  func currentTestName() -> String? {
    Test.current.map { $0.nameWithArguments(Test.Case.current) }
  }
}
