import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The queues and writer thread behind ``JSONLinesFileSink``.
///
/// Callers encode straight into one of ``shardCount`` queues, each behind its own lock; a thread
/// always uses the same queue (``ThreadOrdinal``), so misusing threads do not contend with each
/// other, and each waits only for its own queue's lock, which the writer holds for a swap.
/// A caller wakes the writer when it finds its queue empty (the first record since the writer
/// took the last batch), so a busy app pays for one wake-up per batch.
///
/// `@unchecked Sendable`: the writer's state is read and written only while `condition` is
/// locked (the writer thread releases it while it writes, when only it touches `file` and
/// `spares`), and each queue's state only while that queue's lock is held.
final class JSONLinesWriter: @unchecked Sendable {
  typealias Statistics = JSONLinesFileSink.Statistics

  /// Records waiting for the writer: their bytes back to back in memory of their own (a record
  /// is encoded straight into it: no intermediate array, no zero fill), and where each ends.
  private final class Batch {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var byteCount = 0
    private(set) var ends: [Int] = []

    var count: Int { ends.count }

    init() {
      capacity = 4096
      base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    func removeAll() {
      byteCount = 0
      ends.removeAll(keepingCapacity: true)
    }

    /// Encodes `event` at the end, its long fields cut when the record would pass
    /// ``JSONLinesFileSink/maxRecordBytes``.
    func append(_ event: MisuseEvent) {
      let encoder = JSONLinesEncoder()
      var written = encoder.write(event, to: room(JSONLinesEncoder.bound(event)))
      if written > JSONLinesFileSink.maxRecordBytes {
        let cut = event.cutToRecordLimit()
        written = encoder.write(cut, to: room(JSONLinesEncoder.bound(cut)))
      }
      byteCount += written
      ends.append(byteCount)
    }

    /// The bytes from `start` to `end`.
    func bytes(from start: Int, to end: Int) -> UnsafeRawBufferPointer {
      UnsafeRawBufferPointer(start: base + start, count: end - start)
    }

    /// Where the next `bound` bytes go, growing the memory when they do not fit.
    private func room(_ bound: Int) -> UnsafeMutablePointer<UInt8> {
      if byteCount + bound > capacity {
        var grown = capacity * 2
        while byteCount + bound > grown { grown *= 2 }
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        moved.update(from: base, count: byteCount)
        base.deallocate()
        base = moved
        capacity = grown
      }
      return base + byteCount
    }
  }

  /// One queue callers append to, with what its lock guards.
  private final class Shard: @unchecked Sendable {
    let lock = NSLock()
    var batch = Batch()
    /// Records dropped because this queue was full.
    var dropped = 0
    /// Records appended.
    var accepted = 0
    /// Drops because this queue was full, said when they start and when they stop.
    var notice = DropNotice()
    /// Keeps the next queue's state off this one's cache line.
    private let padding = CacheLinePadding()
  }

  /// Queues callers are spread over; threads beyond this many share them.
  static let shardCount = 4

  private let path: String
  private let options: JSONLinesFileSink.Options
  private let condition = NSCondition()
  private let shards = Striped(count: JSONLinesWriter.shardCount) { Shard() }
  private var flushRequested: UInt64 = 0
  private var flushCompleted: UInt64 = 0
  private var stopping = false
  private var running = false
  /// Above 0 once ``stop(within:)`` closed the queues: later records are dropped.
  private let closed = Counter()
  /// Records dropped because the queues were closed.
  private let droppedClosed = Counter()
  /// A caller found its queue empty and appended: the writer has a batch to take.
  private var pending = false
  private var stats = Statistics()

  /// Held by the writer for each `write(2)`, so that the end of the process can wait until no
  /// write is under way and keep any more from starting (``finish(within:)``).
  private let writeGate = NSLock()
  /// Set under `writeGate` as the process ends: the writer writes no more.
  private var halted = false
  /// Records written, counted under `writeGate` as each write returns.
  private var writtenThroughGate = 0

  // Owned by the writer (the thread, or the caller under `condition` in synchronous mode).
  /// What the writer swaps each queue's batch with, one per queue.
  private var spares = (0..<JSONLinesWriter.shardCount).map { _ in Batch() }
  private var file: LogFile?
  private var rotation: LogRotation
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

  /// Bytes written by one `write(2)` at the most (always whole records).
  private static let chunkBytes = 1 << 20
  /// The longest ``flush()`` and ``stop(within:)`` wait for the writer (a hung filesystem).
  private static let waitSeconds = 5.0
  /// How long the writer waits for another process's lock on the file before writing
  /// without it (a writer stopped with SIGSTOP, or another user's `flock`, must not stop us);
  /// long enough for a writer descheduled on a loaded machine. While the lock stays
  /// unavailable, each later batch tries once and goes on.
  private static let lockWaitNanoseconds: UInt64 = 500_000_000
  /// How long the writer lets records gather after it wakes, so that a busy app pays for one
  /// wake-up per batch instead of one per record.
  private static let gatherSeconds = 0.001

  init(path: String, options: JSONLinesFileSink.Options, file: LogFile) {
    self.path = path
    self.options = options
    self.file = file
    self.rotation = LogRotation(path: path, keep: options.keep)
  }

  func start() {
    condition.lock()
    running = true
    condition.unlock()
    LibraryThread.start(name: "bindiag.jsonl") { [self] in self.run() }
  }

  /// Encodes `event` into the calling thread's queue (or, synchronously, writes it); drops and
  /// counts it when that queue is full. The caller waits for its queue's lock only, and wakes
  /// the writer at most once per batch.
  func submit(_ event: MisuseEvent) {
    if options.synchronous {
      condition.lock()
      if stopping {
        stats.dropped += 1
        condition.unlock()
        return
      }
      let batch = spares[0]
      batch.removeAll()
      batch.append(event)
      write(batch)
      batch.removeAll()
      condition.unlock()
      return
    }
    // Ending (the process goes, or the sink): counted, without waiting for the queue's lock
    // (misusing threads would keep the writer and the ending thread from it).
    if closed.value != 0 {
      droppedClosed.increment()
      return
    }
    let shard = shards[ThreadOrdinal.current()]
    let change: DropNotice.Change?
    var wake = false
    shard.lock.lock()
    if shard.batch.count < options.queueCapacity {
      wake = shard.batch.count == 0
      shard.batch.append(event)
      shard.accepted += 1
      change = shard.notice.accepted(now: RateLimiter.monotonicNanoseconds())
    } else {
      shard.dropped += 1
      change = shard.notice.dropped(now: RateLimiter.monotonicNanoseconds())
    }
    shard.lock.unlock()
    if wake {
      condition.lock()
      pending = true
      condition.signal()
      condition.unlock()
    }
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
      for index in 0..<JSONLinesWriter.shardCount where take(index) {
        write(spares[index])
        spares[index].removeAll()
      }
      if options.fsync != .never, let file { _ = FileDescriptorIO.sync(file.fd) }
      return
    }
    flushRequested += 1
    let ticket = flushRequested
    condition.broadcast()
    let deadline = Date(timeIntervalSinceNow: JSONLinesWriter.waitSeconds)
    while flushCompleted < ticket && running {
      if !condition.wait(until: deadline) {
        JSONLinesWriter.say(
          path: path, error: nil,
          action: "flush gave up after \(Int(JSONLinesWriter.waitSeconds)) s; writes are stuck")
        return
      }
    }
  }

  /// Drains the queues, then ends the writer thread; records received later are dropped and
  /// counted.
  /// - Parameter seconds: How long to wait for the writer.
  /// - Returns: Whether the writer is still running (stuck, or slower than `seconds`).
  @discardableResult
  func stop(within seconds: Double = JSONLinesWriter.waitSeconds) -> Bool {
    closed.increment()
    condition.lock()
    defer { condition.unlock() }
    stopping = true
    condition.broadcast()
    let deadline = Date(timeIntervalSinceNow: seconds)
    while running {
      if !condition.wait(until: deadline) { break }
    }
    guard !running else { return true }
    if options.fsync != .never, let file { _ = FileDescriptorIO.sync(file.fd) }
    file?.close()
    file = nil
    return false
  }

  /// Ends the writer as the process ends (`exit`, a stop signal), so that no `write(2)` is under
  /// way when the process goes: the kernel cuts a write to a regular file short when the process
  /// is killed, tearing a record. The queues are closed (later records are dropped and counted)
  /// and written out for two thirds of `seconds`; a writer still at work by then is halted once
  /// its current write returns. Then, if any record was left unwritten at the end, one line
  /// gives the account: records written, and every other record received, dropped.
  /// - Parameter seconds: How long the process may wait.
  func finish(within seconds: Double) {
    let stuck = stop(within: seconds * 2 / 3)
    if stuck {
      guard writeGate.lock(before: Date(timeIntervalSinceNow: seconds / 3)) else {
        JSONLinesWriter.say(
          path: path, error: nil,
          action: "a write is stuck as the process ends; queued records lost")
        return
      }
      halted = true
      writeGate.unlock()
    }
    // One reading of the closed-sink drops serves both the decision and the account, so a
    // record dropped in between cannot make a line that says `dropped=0`.
    let droppedAfterClose = droppedClosed.value
    guard stuck || droppedAfterClose > 0 else { return }
    var received = droppedAfterClose
    for shard in shards.all {
      shard.lock.lock()
      received += shard.accepted + shard.dropped
      shard.lock.unlock()
    }
    writeGate.lock()
    let written = writtenThroughGate
    writeGate.unlock()
    JSONLinesWriter.say(
      path: path, error: nil, action: "process ending; the rest dropped", written: written,
      dropped: received - written)
  }

  var statistics: Statistics {
    condition.lock()
    var total = stats
    condition.unlock()
    total.dropped += droppedClosed.value
    for shard in shards.all {
      shard.lock.lock()
      total.dropped += shard.dropped
      shard.lock.unlock()
    }
    return total
  }

  /// Swaps queue `index`'s batch with its spare. Only the writer calls it.
  /// - Returns: Whether the batch taken holds records.
  private func take(_ index: Int) -> Bool {
    let shard = shards[index]
    shard.lock.lock()
    swap(&shard.batch, &spares[index])
    shard.lock.unlock()
    return spares[index].count > 0
  }

  /// Whether any queue holds at least `count` records.
  private func anyQueueHolds(_ count: Int) -> Bool {
    shards.all.contains { shard in
      shard.lock.lock()
      defer { shard.lock.unlock() }
      return shard.batch.count >= count
    }
  }

  private func run() {
    ProcessFlush.blockStopSignals()
    condition.lock()
    while true {
      var idled = false
      while !pending && flushRequested == flushCompleted && !stopping {
        idled = true
        LibraryThread.waiting { condition.wait() }
      }
      // Woken from idle: let a burst gather (a flush or stop request cuts the wait short). Not
      // after a batch when records are already waiting: they gathered while it was written, and
      // a writer that sleeps on a loaded machine may not run again for tens of milliseconds.
      if idled && flushRequested == flushCompleted && !stopping
        && !anyQueueHolds(max(1, options.queueCapacity / 2))
      {
        _ = condition.wait(until: Date(timeIntervalSinceNow: JSONLinesWriter.gatherSeconds))
      }
      pending = false
      let ticket = flushRequested
      let stop = stopping
      // Write with the lock released, so callers only ever wait for their queue's lock.
      condition.unlock()
      var outcome = Statistics()
      for index in 0..<JSONLinesWriter.shardCount where take(index) {
        outcome.add(writeBatch(spares[index]))
        spares[index].removeAll()
      }
      if ticket != flushCompleted, options.fsync == .flush, let file {
        _ = FileDescriptorIO.sync(file.fd)
      }
      condition.lock()
      stats.add(outcome)
      flushCompleted = ticket
      condition.broadcast()
      if stop && !anyQueueHolds(1) { break }
    }
    running = false
    condition.broadcast()
    condition.unlock()
  }

  /// Synchronous mode: writes under the lock and counts at once.
  private func write(_ batch: Batch) {
    stats.add(writeBatch(batch))
  }

  /// Writes whole records in chunks of at most ``chunkBytes``, one `write(2)` each, rotating
  /// and reopening as needed. Only the writer calls it.
  ///
  /// A regular file is written under an exclusive `flock`, taken per chunk: every process
  /// sharing the file then sees the others' size (no rotated file exceeds `maxBytes` by more
  /// than one record), rotations (the path is checked under the lock) and torn tails (a
  /// record cut short by SIGKILL or ENOSPC gets its `\n` before anything is appended).
  private func writeBatch(_ batch: Batch) -> Statistics {
    var outcome = Statistics()
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
      let locked = lock(current)
      if checkIdentity && !current.isStillAt(path) {
        // Moved or deleted by an outside tool, or rotated by another process.
        current.close()
        file = nil
        outcome.reopens += 1
        continue
      }
      checkIdentity = options.maxBytes != nil
      var room = JSONLinesWriter.chunkBytes
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
      writeGate.lock()
      if halted {
        writeGate.unlock()
        if locked { _ = FileDescriptorIO.lock(current.fd, LOCK_UN) }
        outcome.dropped += batch.count - index
        break
      }
      var result = Result<Void, SystemError>.success(())
      // Under the lock, where the chunk starts: a write the disk cuts short is cut back to it.
      var base: Int? = locked ? current.size() : nil
      if current.needsNewlineBeforeAppend(firstWrite: !wroteToFile) {
        result = FileDescriptorIO.writeAll(current.fd, [UInt8(ascii: "\n")])
        base = base.map { $0 + 1 }
      }
      var reached = 0
      if case .success = result {
        result = FileDescriptorIO.writeAll(
          current.fd, batch.bytes(from: start, to: end), written: &reached)
      }
      wroteToFile = true
      switch result {
      case .success:
        writtenThroughGate += last - index + 1
        writeGate.unlock()
        if locked { _ = FileDescriptorIO.lock(current.fd, LOCK_UN) }
        outcome.written += last - index + 1
        index = last + 1
        if failing {
          failing = false
          backoff = 100_000_000
          JSONLinesWriter.say(
            path: path, error: nil, action: "recovered", dropped: droppedWhileFailing)
          droppedWhileFailing = 0
        }
      case .failure(let error):
        // Records written whole before the disk filled stay; a record cut short is cut back
        // off the file (under the lock no other process appended meanwhile), so no fragment
        // stays behind. Without the lock it stays, and the next append starts a new line.
        let before = index
        defer { writeGate.unlock() }
        var cut = false
        if let base {
          var whole = start
          while index < batch.count && batch.ends[index] <= start + reached {
            whole = batch.ends[index]
            outcome.written += 1
            index += 1
          }
          if whole - start < reached,
            case .success = FileDescriptorIO.truncate(current.fd, to: base + whole - start)
          {
            cut = true
          }
        } else {
          // One that lacks only its `\n` is whole: the next append adds it.
          while index < batch.count && batch.ends[index] - 1 - start <= reached {
            outcome.written += 1
            index += 1
          }
        }
        writtenThroughGate += index - before
        if locked { _ = FileDescriptorIO.lock(current.fd, LOCK_UN) }
        outcome.failed += 1
        outcome.dropped += batch.count - index
        droppedWhileFailing += batch.count - index
        enterFailure(error, cut: cut)
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
          JSONLinesWriter.say(path: path, error: nil, action: "file lock available again")
        }
        return true
      case .failure(let error) where error.code == EWOULDBLOCK:
        if !lockingFailed,
          RateLimiter.monotonicNanoseconds() &- start < JSONLinesWriter.lockWaitNanoseconds
        {
          usleep(1000)
          continue
        }
        if !lockingFailed {
          lockingFailed = true
          JSONLinesWriter.say(
            path: path, error: nil,
            action: "another process holds the file's lock; writing without it")
        }
        return false
      case .failure:
        return false
      }
    }
  }

  /// Says the failure (once per episode of failures) and schedules the next try.
  /// - Parameters:
  ///   - error: What failed.
  ///   - cut: Whether a record the failure cut short was cut back off the file.
  private func enterFailure(_ error: SystemError, cut: Bool = false) {
    if !failing {
      let action =
        cut
        ? "partial record cut off; dropping records and retrying" : "dropping records and retrying"
      JSONLinesWriter.say(path: path, error: error, action: action)
    }
    failing = true
    nextRetry = RateLimiter.monotonicNanoseconds() &+ backoff
    backoff = min(backoff * 2, 5_000_000_000)
  }

  /// Opens the path (after an outside move or delete, a rotation, or a failure).
  private func open(outcome: inout Statistics) {
    switch LogFile.open(path) {
    case .success(let opened):
      file = opened
      wroteToFile = false
    case .failure(let error):
      outcome.failed += 1
      enterFailure(error)
    }
  }

  /// Size rotation (``LogRotation``); the caller holds the exclusive `flock` on `current`, so
  /// exactly one process rotates a given file.
  private func rotate(_ current: LogFile, outcome: inout Statistics) {
    defer {
      _ = FileDescriptorIO.lock(current.fd, LOCK_UN)
      current.close()
    }
    file = nil
    switch rotation.rotate() {
    case .success: outcome.rotations += 1
    case .failure(let error):
      // The next batch reopens the path and tries again; say it once per episode.
      outcome.failed += 1
      enterFailure(error)
    }
  }

  /// One logfmt line on standard error about the sink's state.
  static func say(
    path: String, error: SystemError?, action: String, written: Int? = nil, dropped: Int? = nil
  ) {
    var line = Array("binding-diagnostics: sink=jsonl path=".utf8)
    line.appendLogfmtValue(path)
    if let error {
      line.append(contentsOf: " error=".utf8)
      line.appendLogfmtValue(error.description)
      line.append(contentsOf: " errno=".utf8)
      line.appendDecimal(Int(error.code))
    }
    if let written {
      line.append(contentsOf: " written=".utf8)
      line.appendDecimal(written)
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

extension JSONLinesFileSink.Statistics {
  /// Adds what the writer did with one batch (or another count).
  mutating func add(_ other: Self) {
    written += other.written
    dropped += other.dropped
    failed += other.failed
    rotations += other.rotations
    reopens += other.reopens
    fellBack += other.fellBack
  }
}
