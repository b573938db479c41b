/// A test hook of the system-call seam (``FileDescriptorIO``): failures to inject into the
/// system calls made on the current task, so that the writers', the flusher's and the readers'
/// failure paths are unit tests.
///
/// Task-local, like ``DiagnosticsSystem``'s override: only calls made on the task (or thread)
/// that set it see it; the library's own threads and a reader's worker threads never do.
///
/// Compiled into debug and test builds only (`BINDING_FAULT_INJECTION`, which the manifest
/// defines for the debug configuration): a release build has no hook and no per-call read.
#if BINDING_FAULT_INJECTION
package final class SystemCallFaults: Sendable {
  /// The system calls faults can be injected into, one queue of faults each.
  package typealias Call = SystemCall

  /// What one call does instead of its work.
  package enum Fault: Sendable, Equatable {
    /// Fails with this errno (`ENOSPC`, `EPIPE`, `EINTR`, `EWOULDBLOCK`, `EIO`, …), doing
    /// nothing.
    case error(Int32)
    /// Transfers at most this many bytes (a short read or write); other calls work as usual.
    case short(Int)
    /// Works as usual (to let the first calls through).
    case asUsual
    /// Runs this first, as another process could just before the call, then works as usual
    /// (a rename between two looks at a directory, at a chosen call).
    case interleaved(@Sendable () -> Void)

    /// Same errno, same byte count, or both as usual; an interleaved action equals none.
    package static func == (lhs: Fault, rhs: Fault) -> Bool {
      switch (lhs, rhs) {
      case (.error(let left), .error(let right)): left == right
      case (.short(let left), .short(let right)): left == right
      case (.asUsual, .asUsual): true
      default: false
      }
    }
  }

  /// The faults still to come per call, in order; each call takes the first of its own.
  private let pending: Lock<[Call: [Fault]]>

  /// Faults for the next calls of each kind, in order; later calls work as usual.
  /// - Parameter faults: One per call, per kind of call.
  package init(_ faults: [Call: [Fault]]) {
    pending = Lock(faults)
  }

  /// Faults for the next `write(2)` calls, in order; later calls work as usual.
  /// - Parameter faults: One per call.
  package convenience init(_ faults: [Fault]) {
    self.init([.write: faults])
  }

  /// The faults not yet taken, all kinds of call together (in ``Call``'s order).
  package var remaining: [Fault] {
    pending.withLock { faults in Call.allCases.flatMap { faults[$0] ?? [] } }
  }

  /// The fault for the next `call`, if any is left.
  func next(_ call: Call) -> Fault? {
    pending.withLock { faults in
      guard var queue = faults[call], !queue.isEmpty else { return nil }
      let fault = queue.removeFirst()
      faults[call] = queue
      return fault
    }
  }

  /// The faults in force for the current task.
  @TaskLocal package static var current: SystemCallFaults?
}
#endif
