import BindingDiagnostics
import Foundation

/// Keeps records in memory and appends them to a file in batches: at each flush, and as the
/// process ends, with the run's `run-end` last.
final class BufferedFileSink: DiagnosticsSink, @unchecked Sendable {
  // @unchecked: `pending` and `ended` are read and written only under `lock`.
  let path: String
  private let lock = NSLock()
  private var pending: [UInt8] = []
  private var ended = false

  init(path: String) {
    self.path = path
  }

  func receive(_ event: MisuseEvent) {
    lock.withLock {
      guard !ended else { return }
      JSONLinesEncoder().encode(event, into: &pending)
    }
  }

  func flush() {
    let batch = lock.withLock {
      defer { pending.removeAll() }
      return pending
    }
    guard !batch.isEmpty else { return }
    if !FileManager.default.fileExists(atPath: path) {
      _ = FileManager.default.createFile(
        atPath: path, contents: nil, attributes: [.posixPermissions: 0o640])
    }
    guard let file = FileHandle(forWritingAtPath: path) else { return }
    defer { try? file.close() }
    _ = try? file.seekToEnd()
    try? file.write(contentsOf: batch)
  }

  /// The forked child's sink: an empty buffer and a lock of its own. (The child's copy of this
  /// sink holds the parent's records, which are the parent's to write.)
  func renewedAfterFork() -> any DiagnosticsSink {
    BufferedFileSink(path: path)
  }

  /// At `exit` and on `SIGTERM`: the buffered records, then the `run-end`; nothing after it.
  func finishAtProcessEnd(within seconds: Double, runEnd: MisuseEvent?, deliveringFallback: Bool) {
    lock.withLock {
      if let runEnd, !ended { JSONLinesEncoder().encode(runEnd, into: &pending) }
      ended = true
    }
    flush()
  }
}
