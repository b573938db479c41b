public import BindingDiagnostics
public import Testing

/// A trait that fails a test at each call site where it misuses a binding, every kind included:
/// `@Test(.failsOnMisuse)`.
///
/// Without the trait a test already fails at a misuse (the process pipeline's default policy,
/// ``BindingDiagnostics/MisusePolicy/automatic``), once per misuse, with reads after `nil` as
/// warnings. The trait groups by site, fails for every kind (reads after `nil` too) except those
/// named in ``failsOnMisuse(except:reportsToProcessSinks:)``, and attributes misuses to the test
/// exactly.
///
/// For each test, and each case of a parameterised test, the trait installs a pipeline of its own
/// with ``BindingDiagnostics/DiagnosticsSystem/withDiagnostics(_:isolation:operation:)``: the
/// test's task and its child tasks report there, so tests running in parallel are never blamed
/// for each other. Each call site the test misuses becomes one issue of that test, recorded at the
/// mapping's call site (its `#fileID` and line) and named by kind, label and a short value type.
/// The issue is recorded on the misusing task when the site first misuses, so `withKnownIssue`
/// around the misusing code expects it; a site misused again adds a warning with the total when
/// the test ends.
///
/// Each misuse the trait catches, allowed kinds included, is also written to the sinks the
/// process is configured with (`BINDING_DIAGNOSTICS`, or the bootstrap), with the test's name in
/// the record's `test` field, so `bindiag` in CI sees every site the tests hit; pass
/// `reportsToProcessSinks: false` to keep them in the test.
///
/// Misuses on threads outside the test's task tree (a `DispatchQueue`, a `Thread`) do not see the
/// test's pipeline and go to the process pipeline, as in the app. To attribute them, take
/// `DiagnosticsSystem.current` in the test and run the work inside
/// `DiagnosticsSystem.withDiagnostics(_:operation:)` with it; those misuses are recorded when the
/// test ends.
///
/// Applied to a suite, the trait applies to every test in it; a test's own
/// ``failsOnMisuse(except:reportsToProcessSinks:)`` replaces it for that test.
public struct FailsOnMisuseTrait: TestTrait, SuiteTrait, TestScoping {
  /// Kinds that do not fail the test.
  public let allowedKinds: [MisuseKind]
  /// Whether caught misuses are also written to the process's sinks, naming the test.
  public let reportsToProcessSinks: Bool

  /// A trait failing the test at every kind of misuse except `allowedKinds`.
  /// - Parameters:
  ///   - allowedKinds: Kinds that do not fail the test, matched by code.
  ///   - reportsToProcessSinks: Whether caught misuses also go to the process's sinks, with the
  ///     test's name; `true` by default.
  public init(except allowedKinds: [MisuseKind] = [], reportsToProcessSinks: Bool = true) {
    self.allowedKinds = allowedKinds
    self.reportsToProcessSinks = reportsToProcessSinks
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
    // The pipeline the test would report to without any trait: a suite's trait wraps a test's,
    // and only the outermost pipeline that is not a trait's receives the records.
    let sinks = FailsOnMisuseTrait.processSinks ?? DiagnosticsSystem.current
    let recorder = MisuseIssueRecorder(
      test: test, testCase: testCase, except: Set(allowedKinds.map(\.code)),
      relayingTo: reportsToProcessSinks ? sinks : nil)
    // Values public here: a relayed record renders them again under the process's privacy.
    let diagnostics = Diagnostics(
      configuration: DiagnosticsConfiguration(sink: recorder, privacy: .public, rateLimit: nil))
    defer {
      diagnostics.flush()
      recorder.finish()
    }
    try await FailsOnMisuseTrait.$processSinks.withValue(sinks) {
      try await DiagnosticsSystem.withDiagnostics(diagnostics) { try await function() }
    }
  }

  /// The pipeline outside every trait scope on this task.
  @TaskLocal private static var processSinks: Diagnostics?
}

extension Trait where Self == FailsOnMisuseTrait {
  /// Fails the test at each call site where it misuses a binding.
  public static var failsOnMisuse: Self { FailsOnMisuseTrait() }

  /// Fails the test at each call site where it misuses a binding, except for `kinds`.
  /// - Parameters:
  ///   - kinds: Kinds the test may commit, such as
  ///     ``BindingDiagnostics/MisuseKind/unwrappedReadAfterNil`` while a view animates away.
  ///   - reportsToProcessSinks: Whether caught misuses also go to the process's sinks, with the
  ///     test's name; `true` by default.
  /// - Returns: The trait.
  public static func failsOnMisuse(except kinds: [MisuseKind], reportsToProcessSinks: Bool = true)
    -> Self
  {
    FailsOnMisuseTrait(except: kinds, reportsToProcessSinks: reportsToProcessSinks)
  }
}
