/// What happens after a misuse is reported.
public enum MisusePolicy: String, Sendable, Hashable, CaseIterable {
  /// Report; in a test process, a misuse reaching the process-wide pipeline also fails the
  /// running test. The default.
  ///
  /// "A test process" is one that links `BindingDiagnosticsTesting` and runs a Swift Testing
  /// test on the misusing task, or links `BindingDiagnosticsXCTest` and runs an XCTest test
  /// (on any thread). Kinds below ``MisuseLevel/warning`` (such as
  /// ``MisuseKind/unwrappedReadAfterNil``) are recorded as test warnings, not failures. A pipeline
  /// a test installs itself with ``DiagnosticsSystem/withDiagnostics(_:operation:)`` only reports:
  /// the test collects those misuses on purpose. Elsewhere (an app, a test runner's own threads)
  /// the same as ``report``.
  case automatic
  /// Report and go on, never failing a test: turns ``automatic``'s test failures off.
  case report
  /// Report, flush, then `assertionFailure` (debug builds stop in the debugger; release builds go on).
  case assert
  /// Report, and fail the Swift Testing test running on the misusing task (or the running XCTest
  /// test, with `BindingDiagnosticsXCTest` linked), from any pipeline (also one a test
  /// installed). Needs `BindingDiagnosticsTesting` linked into the process; outside a test, or
  /// without that library, the same as ``report``.
  case failTests = "fail-tests"
  /// Report, flush, then stop in the debugger when one is attached (`SIGTRAP`; continuing goes on
  /// as if nothing happened); with none attached, only report.
  ///
  /// A debugger is attached when `/proc/self/status` names a `TracerPid` (Linux) or the kernel
  /// flags the process `P_TRACED` (Darwin `sysctl`).
  case `break`
}
