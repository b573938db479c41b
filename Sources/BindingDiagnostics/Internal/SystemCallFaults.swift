/// A test hook of the system-call seam (``FileDescriptorIO``): failures to inject into the
/// `write(2)` calls made on the current task, so that the writers' failure paths are unit tests.
///
/// Task-local, like ``DiagnosticsSystem``'s override: only writes made on the task that set it
/// (a synchronous sink's) see it; the library's own threads never do.
package final class SystemCallFaults: Sendable {
  /// What one `write(2)` does instead of its work.
  package enum Fault: Sendable, Equatable {
    /// Fails with this errno (`ENOSPC`, `EPIPE`, `EINTR`, `EWOULDBLOCK`, …), writing nothing.
    case error(Int32)
    /// Writes at most this many bytes (a short write), then returns.
    case short(Int)
  }

  /// The faults still to come, in order; each `write(2)` takes the first.
  private let pending: Lock<[Fault]>

  /// Faults for the next `write(2)` calls, in order; later calls work as usual.
  /// - Parameter faults: One per call.
  package init(_ faults: [Fault]) {
    pending = Lock(faults)
  }

  /// The faults not yet taken.
  package var remaining: [Fault] { pending.withLock { $0 } }

  /// The fault for the next `write(2)`, if any is left.
  func next() -> Fault? {
    pending.withLock { faults in faults.isEmpty ? nil : faults.removeFirst() }
  }

  /// The faults in force for the current task.
  @TaskLocal package static var current: SystemCallFaults?
}
