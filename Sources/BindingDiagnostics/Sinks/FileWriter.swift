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
final class FileWriter: @unchecked Sendable {
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
    /// Drops because this queue was full, said when they start and when they stop.
    var notice = DropNotice()
    /// Set by ``FileWriter/stop()``: later records are dropped.
    var closed = false
    /// Keeps the next queue's state off this one's cache line.
    private let padding = CacheLinePadding()
  }

  /// Queues callers are spread over; threads beyond this many share them.
  static let shardCount = 4

  private let path: String
  private let options: JSONLinesFileSink.Options
  private let condition = NSCondition()
  private let shards = PerThread(count: FileWriter.shardCount) { Shard() }
  private var flushRequested: UInt64 = 0
  private var flushCompleted: UInt64 = 0
  private var stopping = false
  private var running = false
  /// A caller found its queue empty and appended: the writer has a batch to take.
  private var pending = false
  private var stats = JSONLinesFileSink.Statistics()

  // Owned by the writer (the thread, or the caller under `condition` in synchronous mode).
  /// What the writer swaps each queue's batch with, one per queue.
  private var spares = (0..<FileWriter.shardCount).map { _ in Batch() }
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

  deinit {
    shards.deallocate()
  }

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

  /// Encodes `event` into the calling thread's queue (or, synchronously, writes it); drops and
  /// counts it when that queue is full. The caller waits for its queue's lock only, and wakes
  /// the writer at most once per batch.
  func submit(_ event: MisuseEvent) {
    if options.synchronous {
      condition.lock()
      let batch = spares[0]
      batch.removeAll()
      batch.append(event)
      write(batch)
      batch.removeAll()
      condition.unlock()
      return
    }
    let shard = shards[ThreadOrdinal.current()]
    let change: DropNotice.Change?
    var wake = false
    shard.lock.lock()
    if shard.batch.count < options.queueCapacity, !shard.closed {
      wake = shard.batch.count == 0
      shard.batch.append(event)
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
      for index in 0..<FileWriter.shardCount where take(index) {
        write(spares[index])
        spares[index].removeAll()
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

  /// Drains the queues, then ends the writer thread.
  func stop() {
    for shard in shards.all {
      shard.lock.lock()
      shard.closed = true
      shard.lock.unlock()
    }
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
    var total = stats
    condition.unlock()
    for shard in shards.all {
      shard.lock.lock()
      total.dropped += shard.dropped
      shard.lock.unlock()
    }
    return total
  }

  func reportFailure(_ error: SystemError) {
    condition.lock()
    defer { condition.unlock() }
    stats.failed += 1
    FileWriter.say(path: path, error: error, action: "dropping records and retrying")
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
        condition.wait()
      }
      // Woken from idle: let a burst gather (a flush or stop request cuts the wait short). Not
      // after a batch when records are already waiting: they gathered while it was written, and
      // a writer that sleeps on a loaded machine may not run again for tens of milliseconds.
      if idled && flushRequested == flushCompleted && !stopping
        && !anyQueueHolds(max(1, options.queueCapacity / 2))
      {
        _ = condition.wait(until: Date(timeIntervalSinceNow: FileWriter.gatherSeconds))
      }
      pending = false
      let ticket = flushRequested
      let stop = stopping
      // Write with the lock released, so callers only ever wait for their queue's lock.
      condition.unlock()
      var outcome = Outcome()
      for index in 0..<FileWriter.shardCount where take(index) {
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

  /// What writing one batch did.
  fileprivate struct Outcome {
    var written = 0
    var dropped = 0
    var failed = 0
    var rotations = 0
    var reopens = 0

    mutating func add(_ other: Outcome) {
      written += other.written
      dropped += other.dropped
      failed += other.failed
      rotations += other.rotations
      reopens += other.reopens
    }
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
        result = FileDescriptorIO.writeAll(
          current.fd, batch.bytes(from: start, to: end), written: &reached)
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

extension JSONLinesFileSink.Statistics {
  /// Adds what the writer did with one batch.
  fileprivate mutating func add(_ outcome: FileWriter.Outcome) {
    written += outcome.written
    dropped += outcome.dropped
    failed += outcome.failed
    rotations += outcome.rotations
    reopens += outcome.reopens
  }
}
