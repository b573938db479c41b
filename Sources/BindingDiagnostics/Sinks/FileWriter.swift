import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The queue and writer thread behind ``JSONLinesFileSink``.
///
/// `@unchecked Sendable`: every mutable property is read and written only while `condition` is
/// locked (the writer thread holds it while it writes in synchronous mode, and releases it
/// while it writes a batch in asynchronous mode, when only it touches `file`).
final class FileWriter: @unchecked Sendable {
  /// Records waiting for the writer: their bytes back to back, and where each one ends.
  private struct Batch {
    var bytes: [UInt8] = []
    var ends: [Int] = []

    var count: Int { ends.count }

    mutating func removeAll() {
      bytes.removeAll(keepingCapacity: true)
      ends.removeAll(keepingCapacity: true)
    }
  }

  private let path: String
  private let options: JSONLinesFileSink.Options
  private let condition = NSCondition()
  private var queue = Batch()
  private var spare = Batch()
  private var flushRequested: UInt64 = 0
  private var flushCompleted: UInt64 = 0
  private var stopping = false
  private var running = false
  private var writerIdle = false
  private var stats = JSONLinesFileSink.Statistics()

  // Owned by the writer (the thread, or the caller under `condition` in synchronous mode).
  private var file: LogFile?
  /// Whether anything was written to `file` since it was opened.
  private var wroteToFile = false
  /// Whether the writer is writing without the file's lock (said once per episode).
  private var lockingFailed = false
  private var lastIdentityCheck: UInt64 = 0
  private var failing = false
  private var nextRetry: UInt64 = 0
  private var backoff: UInt64 = 100_000_000
  /// Records dropped since writes started failing, said when they work again.
  private var droppedWhileFailing = 0
  /// Drops because the queue was full, said when they start and when they stop.
  private var queueNotice = DropNotice()

  /// Bytes written by one `write(2)` at the most (always whole records).
  private static let chunkBytes = 1 << 20
  /// The longest ``flush()`` and ``stop()`` wait for the writer (a hung filesystem).
  private static let waitSeconds = 5.0
  /// How long the writer waits for another process's lock on the file before writing
  /// without it (a writer stopped with SIGSTOP, or another user's `flock`, must not stop us);
  /// long enough for a writer descheduled on a loaded machine. While the lock stays
  /// unavailable, each later batch tries once and goes on.
  private static let lockWaitNanoseconds: UInt64 = 500_000_000
  /// How long the writer lets records gather after it wakes, so that a busy app pays for one
  /// wake-up per batch instead of one per record.
  private static let gatherSeconds = 0.001

  init(path: String, options: JSONLinesFileSink.Options, file: LogFile?) {
    self.path = path
    self.options = options
    self.file = file
    if file == nil {
      failing = true
      nextRetry = RateLimiter.monotonicNanoseconds() &+ backoff
    }
  }

  func start() {
    condition.lock()
    running = true
    condition.unlock()
    let thread = Thread { [self] in self.run() }
    thread.name = "binding-diagnostics.jsonl"
    thread.start()
  }

  /// Enqueues (or, synchronously, writes) one record; drops and counts it when the queue is
  /// full. The caller waits for the lock only: it wakes the writer at most once per batch.
  func submit(_ record: [UInt8]) {
    condition.lock()
    if options.synchronous {
      var batch = Batch()
      batch.bytes = record
      batch.ends = [record.count]
      write(batch)
      condition.unlock()
      return
    }
    let change: DropNotice.Change?
    if queue.count < options.queueCapacity, !stopping {
      queue.bytes.append(contentsOf: record)
      queue.ends.append(queue.bytes.count)
      change = queueNotice.accepted(now: RateLimiter.monotonicNanoseconds())
      if writerIdle {
        writerIdle = false
        condition.signal()
      }
    } else {
      stats.dropped += 1
      change = queueNotice.dropped(now: RateLimiter.monotonicNanoseconds())
    }
    condition.unlock()
    if let change {
      var sink = Array("jsonl path=".utf8)
      sink.appendLogfmtValue(path)
      DropNotice.say(change, sink: sink, capacity: options.queueCapacity)
    }
  }

  func flush() {
    condition.lock()
    defer { condition.unlock() }
    if options.synchronous || !running {
      if queue.count > 0 {
        let batch = queue
        queue = Batch()
        write(batch)
      }
      if options.fsync != .never, let file { _ = FileDescriptorIO.sync(file.fd) }
      return
    }
    flushRequested += 1
    let ticket = flushRequested
    condition.broadcast()
    let deadline = Date(timeIntervalSinceNow: FileWriter.waitSeconds)
    while flushCompleted < ticket && running {
      if !condition.wait(until: deadline) {
        FileWriter.say(
          path: path, error: nil,
          action: "flush gave up after \(Int(FileWriter.waitSeconds)) s; writes are stuck")
        return
      }
    }
  }

  /// Drains the queue, then ends the writer thread.
  func stop() {
    condition.lock()
    stopping = true
    condition.broadcast()
    let deadline = Date(timeIntervalSinceNow: FileWriter.waitSeconds)
    while running {
      if !condition.wait(until: deadline) { break }
    }
    file?.close()
    file = nil
    condition.unlock()
  }

  var statistics: JSONLinesFileSink.Statistics {
    condition.lock()
    defer { condition.unlock() }
    return stats
  }

  func reportFailure(_ error: SystemError) {
    condition.lock()
    defer { condition.unlock() }
    stats.failed += 1
    FileWriter.say(path: path, error: error, action: "dropping records and retrying")
  }

  private func run() {
    ProcessFlush.blockStopSignals()
    condition.lock()
    while true {
      while queue.count == 0 && flushRequested == flushCompleted && !stopping {
        writerIdle = true
        condition.wait()
      }
      writerIdle = false
      if flushRequested == flushCompleted && !stopping && queue.count < options.queueCapacity / 2 {
        // Let a burst gather; a flush or stop request cuts the wait short.
        _ = condition.wait(until: Date(timeIntervalSinceNow: FileWriter.gatherSeconds))
      }
      swap(&queue, &spare)
      let ticket = flushRequested
      let stop = stopping
      // Write with the lock released, so callers only ever wait for the enqueue.
      condition.unlock()
      let outcome = writeBatch(spare)
      spare.removeAll()
      if ticket != flushCompleted, options.fsync == .flush, let file {
        _ = FileDescriptorIO.sync(file.fd)
      }
      condition.lock()
      stats.written += outcome.written
      stats.dropped += outcome.dropped
      stats.failed += outcome.failed
      stats.rotations += outcome.rotations
      stats.reopens += outcome.reopens
      flushCompleted = ticket
      condition.broadcast()
      if stop && queue.count == 0 { break }
    }
    running = false
    condition.broadcast()
    condition.unlock()
  }

  /// Synchronous mode: writes under the lock and counts at once.
  private func write(_ batch: Batch) {
    let outcome = writeBatch(batch)
    stats.written += outcome.written
    stats.dropped += outcome.dropped
    stats.failed += outcome.failed
    stats.rotations += outcome.rotations
    stats.reopens += outcome.reopens
  }

  private struct Outcome {
    var written = 0
    var dropped = 0
    var failed = 0
    var rotations = 0
    var reopens = 0
  }

  /// Writes whole records in chunks of at most ``chunkBytes``, one `write(2)` each, rotating
  /// and reopening as needed. Only the writer calls it.
  ///
  /// A regular file is written under an exclusive `flock`, taken per chunk: every process
  /// sharing the file then sees the others' size (no rotated file exceeds `maxBytes` by more
  /// than one record), rotations (the path is checked under the lock) and torn tails (a
  /// record cut short by SIGKILL or ENOSPC gets its `\n` before anything is appended).
  private func writeBatch(_ batch: Batch) -> Outcome {
    var outcome = Outcome()
    guard batch.count > 0 else { return outcome }
    let now = RateLimiter.monotonicNanoseconds()
    if failing && now < nextRetry {
      outcome.dropped = batch.count
      droppedWhileFailing += batch.count
      return outcome
    }
    let identityDue = options.maxBytes != nil || now &- lastIdentityCheck >= 1_000_000_000
    if identityDue { lastIdentityCheck = now }
    var checkIdentity = identityDue
    var index = 0
    while index < batch.count {
      if file == nil { open(outcome: &outcome) }
      guard let current = file else {
        outcome.dropped += batch.count - index
        droppedWhileFailing += batch.count - index
        break
      }
      let start = index == 0 ? 0 : batch.ends[index - 1]
      let first = batch.ends[index] - start
      let locked = current.isRegular && lock(current)
      if checkIdentity && !current.isStillAt(path) {
        // Moved or deleted by an outside tool, or rotated by another process.
        current.close()
        file = nil
        outcome.reopens += 1
        continue
      }
      checkIdentity = options.maxBytes != nil
      var room = FileWriter.chunkBytes
      // Rotation only under the lock: without it another process may be rotating too.
      if let maxBytes = options.maxBytes, locked {
        let size = current.size()
        if size > 0 && size + first > maxBytes {
          rotate(current, outcome: &outcome)
          continue
        }
        room = min(room, max(maxBytes - size, first))
      }
      // Whole records up to `room` bytes (at least one).
      var last = index
      while last + 1 < batch.count && batch.ends[last + 1] - start <= room { last += 1 }
      let end = batch.ends[last]
      var result = Result<Void, SystemError>.success(())
      if current.needsNewlineBeforeAppend(firstWrite: !wroteToFile) {
        result = FileDescriptorIO.writeAll(current.fd, [UInt8(ascii: "\n")])
      }
      var reached = 0
      if case .success = result {
        result = batch.bytes.withUnsafeBytes {
          FileDescriptorIO.writeAll(
            current.fd, UnsafeRawBufferPointer(rebasing: $0[start..<end]), written: &reached)
        }
      }
      if locked { _ = FileDescriptorIO.lock(current.fd, LOCK_UN) }
      wroteToFile = true
      switch result {
      case .success:
        outcome.written += last - index + 1
        index = last + 1
        if failing {
          failing = false
          backoff = 100_000_000
          FileWriter.say(path: path, error: nil, action: "recovered", dropped: droppedWhileFailing)
          droppedWhileFailing = 0
        }
      case .failure(let error):
        // Records written before the disk filled are in the file (one that lacks only its
        // `\n` is whole: the next append adds it); the one cut short and the rest are dropped.
        while index < batch.count && batch.ends[index] - 1 - start <= reached {
          outcome.written += 1
          index += 1
        }
        outcome.failed += 1
        outcome.dropped += batch.count - index
        droppedWhileFailing += batch.count - index
        enterFailure(error)
        index = batch.count
      }
    }
    if options.fsync == .always, let file { _ = FileDescriptorIO.sync(file.fd) }
    return outcome
  }

  /// Takes the exclusive `flock` on `current`, waiting at most ``lockWaitNanoseconds``.
  /// - Returns: Whether the lock is held (otherwise the writer goes on without it).
  private func lock(_ current: LogFile) -> Bool {
    let start = RateLimiter.monotonicNanoseconds()
    while true {
      switch FileDescriptorIO.lock(current.fd, LOCK_EX | LOCK_NB) {
      case .success:
        if lockingFailed {
          lockingFailed = false
          FileWriter.say(path: path, error: nil, action: "file lock available again")
        }
        return true
      case .failure(let error) where error.code == EWOULDBLOCK:
        if !lockingFailed,
          RateLimiter.monotonicNanoseconds() &- start < FileWriter.lockWaitNanoseconds
        {
          usleep(1000)
          continue
        }
        if !lockingFailed {
          lockingFailed = true
          FileWriter.say(
            path: path, error: nil,
            action: "another process holds the file's lock; writing without it")
        }
        return false
      case .failure:
        return false
      }
    }
  }

  private func enterFailure(_ error: SystemError) {
    if !failing {
      FileWriter.say(path: path, error: error, action: "dropping records and retrying")
    }
    failing = true
    nextRetry = RateLimiter.monotonicNanoseconds() &+ backoff
    backoff = min(backoff * 2, 5_000_000_000)
  }

  /// Opens the path (after an outside move or delete, a rotation, or a failure).
  private func open(outcome: inout Outcome) {
    switch LogFile.open(path) {
    case .success(let opened):
      file = opened
      wroteToFile = false
    case .failure(let error):
      outcome.failed += 1
      enterFailure(error)
    }
  }

  /// Size rotation; the caller holds the exclusive `flock` on `current`, so exactly one
  /// process rotates a given file. Renames only the generations that exist (`PATH.1` …
  /// up to the first missing one), so the cost does not grow with `keep`.
  private func rotate(_ current: LogFile, outcome: inout Outcome) {
    defer {
      _ = FileDescriptorIO.lock(current.fd, LOCK_UN)
      current.close()
    }
    file = nil
    let keep = options.keep
    var highest = 0
    while highest < keep, case .success = FileDescriptorIO.linkStatus("\(path).\(highest + 1)") {
      highest += 1
    }
    if highest == keep {
      _ = unlink("\(path).\(keep)")
      highest = keep - 1
    }
    for generation in stride(from: highest, through: 1, by: -1) {
      _ = FileDescriptorIO.renameFile("\(path).\(generation)", "\(path).\(generation + 1)")
    }
    _ = FileDescriptorIO.renameFile(path, "\(path).1")
    outcome.rotations += 1
  }

  /// One logfmt line on standard error about the sink's state.
  static func say(path: String, error: SystemError?, action: String, dropped: Int? = nil) {
    var line = Array("binding-diagnostics: sink=jsonl path=".utf8)
    line.appendLogfmtValue(path)
    if let error {
      line.append(contentsOf: " error=".utf8)
      line.appendLogfmtValue(error.description)
      line.append(contentsOf: " errno=".utf8)
      line.appendDecimal(Int(error.code))
    }
    if let dropped {
      line.append(contentsOf: " dropped=".utf8)
      line.appendDecimal(dropped)
    }
    line.append(contentsOf: " action=".utf8)
    line.appendLogfmtValue(action)
    line.append(UInt8(ascii: "\n"))
    ConfigurationWarning.write(line)
  }
}
