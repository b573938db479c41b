import BindingDiagnostics
import Testing

/// The retry schedule of a failing writer, on a clock the test moves by hand.
@Suite struct BackoffTests {
  @Test func delaysDoubleFromAHundredMillisecondsUpToFiveSeconds() {
    var backoff = Backoff()
    var now: UInt64 = 1_000_000_000
    #expect(backoff.allowsTry(now: now))
    var delays: [UInt64] = []
    var starts: [Bool] = []
    for _ in 0..<9 {
      let start = backoff.failed(now: now)
      starts.append(start)
      delays.append(backoff.nextTry - now)
      #expect(!backoff.allowsTry(now: backoff.nextTry - 1))
      #expect(backoff.allowsTry(now: backoff.nextTry))
      now = backoff.nextTry + 7
    }
    let milliseconds: [UInt64] = [100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000]
    #expect(delays == milliseconds.map { $0 * 1_000_000 })
    // Only the first failure of the episode is the one to say.
    #expect(starts == [true] + Array(repeating: false, count: 8))
  }

  @Test func aSuccessEndsTheEpisodeAndStartsTheScheduleAgain() {
    var backoff = Backoff()
    let successBeforeAnyFailure = backoff.succeeded()
    _ = backoff.failed(now: 0)
    _ = backoff.failed(now: 100_000_000)
    let recovery = backoff.succeeded()
    let secondSuccess = backoff.succeeded()
    let allowedAtOnce = backoff.allowsTry(now: 0)
    let startsAnEpisode = backoff.failed(now: 50)
    #expect(!successBeforeAnyFailure)
    #expect(recovery)
    #expect(!secondSuccess)
    #expect(allowedAtOnce)
    #expect(startsAnEpisode)
    #expect(backoff.nextTry == 50 + Backoff.firstDelay)
  }
}
