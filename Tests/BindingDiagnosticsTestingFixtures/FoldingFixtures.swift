import BindingDiagnostics
import BindingDiagnosticsTesting
import Testing

/// Swift Testing fixtures for the rate limit: `FixtureProcessTests` runs them in a child process
/// with a JSON Lines sink and a limit of 2 records per site a minute, so the misuses past the
/// burst are folded and written when the process ends. Both misuse the same site.
@Suite(.enabled(if: FixtureGate.isOn), .serialized)
struct FoldingFixtures {
  /// Five misuses without a trait: each fails the test; 2 records, then 1 folded record standing
  /// for 3, all naming this test.
  @Test func foldedWithoutTheTrait() {
    FixtureViews.tapAlertOK(times: 5)
  }

  /// Four misuses the trait catches and relays: 2 records, then 1 folded record standing for 2,
  /// all naming this test.
  @Test(.failsOnMisuse) func foldedWithTheTrait() {
    FixtureViews.tapAlertOK(times: 4)
  }
}
