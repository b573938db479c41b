import BindingDiagnostics
import Foundation
import Testing

/// The one-shot flag and the in-flight count the exit handshake and `fork()` rely on. (Their
/// orderings matter on aarch64, where a relaxed counter let both sides of the handshake miss
/// each other; x86-64 orders these operations anyway, so what runs here checks what they do,
/// not how they are ordered.)
@Suite struct LatchTests {
  @Test func exactlyOneOfManyThreadsSetsTheLatch() {
    final class Shared: Sendable {
      let latch = Latch()
      let winners = LockedValue(0)
    }
    let shared = Shared()
    DispatchQueue.concurrentPerform(iterations: 64) { _ in
      if shared.latch.set() { shared.winners.withLock { $0 += 1 } }
    }
    #expect(shared.winners.value == 1)
    let setOnce = shared.latch.isSet
    shared.latch.reset()
    let afterReset = shared.latch.isSet
    let setAgain = shared.latch.set()
    #expect(setOnce && !afterReset && setAgain)
  }

  @Test func theHandshakeNeverLetsALineThroughAfterTheEndSawNone() {
    // The exit handshake of the standard-error sink: a writer enters, then reads `ending`; the
    // end sets `ending`, then waits for the count to empty. Every write that did not see
    // `ending` must be inside the count when the end looks.
    final class Shared: Sendable {
      let ending = Latch()
      let writing = InFlightCount()
      let lateWrites = LockedValue(0)
      let endSawEmpty = Latch()
    }
    for _ in 0..<200 {
      let shared = Shared()
      DispatchQueue.concurrentPerform(iterations: 4) { index in
        if index == 0 {
          shared.ending.set()
          while !shared.writing.isEmpty {}
          shared.endSawEmpty.set()
        } else {
          for _ in 0..<50 {
            shared.writing.enter()
            if !shared.ending.isSet, shared.endSawEmpty.isSet {
              shared.lateWrites.withLock { $0 += 1 }
            }
            shared.writing.leave()
          }
        }
      }
      #expect(shared.lateWrites.value == 0)
      let empty = shared.writing.isEmpty
      #expect(empty)
    }
  }
}
