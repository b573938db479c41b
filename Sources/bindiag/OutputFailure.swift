import Synchronization

/// Whether a write to standard output failed during a run (a full disk, an I/O error): the run
/// then says so and ends with status 1 instead of 0, so that a CI step does not take a cut
/// report for a whole one (`export` says so through its exporter). A closed pipe does not get
/// here: `SIGPIPE` ends the process first, as it ends `head`'s writers.
final class OutputFailure: Sendable {
  private let failed = Atomic<Bool>(false)

  /// Notes a failed write.
  func record() { failed.store(true, ordering: .relaxed) }

  /// Whether a write failed.
  var happened: Bool { failed.load(ordering: .relaxed) }
}
