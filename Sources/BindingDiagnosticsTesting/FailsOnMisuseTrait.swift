public import BindingDiagnostics
public import Testing

/// A trait that fails a test at each binding misuse the test makes: `@Test(.failsOnMisuse)`.
///
/// For each test, and each case of a parameterised test, the trait installs a pipeline of its own
/// with ``BindingDiagnostics/DiagnosticsSystem/withDiagnostics(_:isolation:operation:)``: the
/// test's task and its child tasks report there, so tests running in parallel are never blamed
/// for each other. Each call site the test misuses becomes one issue of that test, recorded at the
/// mapping's call site (its `#fileID` and line) and named by kind, label and value type. The issue
/// is recorded on the misusing task when the site first misuses, so `withKnownIssue` around the
/// misusing code expects it; a site misused again adds a warning with the total when the test ends.
///
/// Misuses on threads outside the test's task tree (a `DispatchQueue`, a `Thread`) do not see the
/// test's pipeline and go to the process pipeline, as in the app. To attribute them, take
/// `DiagnosticsSystem.current` in the test and run the work inside
/// `DiagnosticsSystem.withDiagnostics(_:operation:)` with it; those misuses are recorded when the
/// test ends.
///
/// Applied to a suite, the trait applies to every test in it; a test's own
/// ``failsOnMisuse(except:)`` replaces it for that test.
public struct FailsOnMisuseTrait: TestTrait, SuiteTrait, TestScoping {
  /// Kinds that do not fail the test.
  public let allowedKinds: [MisuseKind]

  /// A trait failing the test at every kind of misuse except `allowedKinds`.
  /// - Parameter allowedKinds: Kinds that do not fail the test, matched by code.
  public init(except allowedKinds: [MisuseKind] = []) {
    self.allowedKinds = allowedKinds
  }

  /// `true`: a suite's trait applies to every test and suite inside it.
  public var isRecursive: Bool { true }

  /// Runs one test (or test case) with a pipeline of its own, then records what it still owes.
  /// - Parameters:
  ///   - test: The test.
  ///   - testCase: The test case, for a parameterised test.
  ///   - function: The test's body.
  /// - Throws: What `function` throws.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    let recorder = MisuseIssueRecorder(test: test, except: Set(allowedKinds.map(\.code)))
    let diagnostics = Diagnostics(
      configuration: DiagnosticsConfiguration(sink: recorder, rateLimit: nil))
    defer {
      diagnostics.flush()
      recorder.finish()
    }
    try await DiagnosticsSystem.withDiagnostics(diagnostics) { try await function() }
  }
}

extension Trait where Self == FailsOnMisuseTrait {
  /// Fails the test at each call site where it misuses a binding.
  public static var failsOnMisuse: Self { FailsOnMisuseTrait() }

  /// Fails the test at each call site where it misuses a binding, except for `kinds`.
  /// - Parameter kinds: Kinds the test may commit, such as
  ///   ``BindingDiagnostics/MisuseKind/unwrappedReadAfterNil`` while a view animates away.
  /// - Returns: The trait.
  public static func failsOnMisuse(except kinds: [MisuseKind]) -> Self {
    FailsOnMisuseTrait(except: kinds)
  }
}
