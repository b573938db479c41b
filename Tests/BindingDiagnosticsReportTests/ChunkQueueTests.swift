import Dispatch
import Synchronization
import Testing

@testable import BindingDiagnosticsReport

/// The workers of a chunked read take chunks from one queue, oldest first.
@Suite struct ChunkQueueTests {
  /// A chunk of the tests: its number, and a semaphore its work signals.
  final class Job: Sendable {
    let index: Int
    let done = DispatchSemaphore(value: 0)
    init(_ index: Int) { self.index = index }
  }

  /// A worker held up on one chunk holds up no other: with two workers and the first chunk
  /// blocked, the other worker reads every chunk after it. (Handed out by index, as before
  /// 3.2.1, every other chunk waited behind the blocked one.)
  @Test func aBlockedWorkerHoldsUpNoOtherChunk() {
    let release = DispatchSemaphore(value: 0)
    let queue = ChunkQueue<Job>(workers: 2, label: "test.chunks") { job in
      if job.index == 0 { release.wait() }
      job.done.signal()
    }
    let jobs = (0..<7).map(Job.init)
    for job in jobs { queue.put(job) }
    // One deadline for all: a planted single worker fails in 20 s, not 20 s a chunk.
    let deadline = DispatchTime.now() + 20
    for job in jobs.dropFirst() {
      #expect(
        job.done.wait(timeout: deadline) == .success,
        "chunk \(job.index) waited behind the blocked chunk 0")
    }
    release.signal()
    #expect(jobs[0].done.wait(timeout: .now() + 20) == .success)
    queue.stop()
  }

  /// Every chunk is worked on once, whatever the workers' number, and `stop` returns once the
  /// workers have left (a second queue's workers then start with the first's gone).
  @Test(arguments: [1, 2, 3, 8])
  func everyChunkIsWorkedOnOnce(workers: Int) {
    let counts = Mutex([Int](repeating: 0, count: 250))
    for _ in 0..<2 {
      let queue = ChunkQueue<Job>(workers: workers, label: "test.once") { job in
        counts.withLock { $0[job.index] += 1 }
        job.done.signal()
      }
      let jobs = (0..<250).map(Job.init)
      for job in jobs { queue.put(job) }
      for job in jobs { job.done.wait() }
      queue.stop()
    }
    #expect(counts.withLock { $0.allSatisfy { $0 == 2 } })
  }
}
