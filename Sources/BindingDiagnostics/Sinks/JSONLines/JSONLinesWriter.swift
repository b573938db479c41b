#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the worker behind ``JSONLinesFileSink`` delivers to: the log file (``LogFile``), with
/// its `flock`, size rotation (``LogRotation``), identity checks, torn-tail repair, the cut-back
/// of a record a full disk cut short, and retries after failures (``Backoff``). The queues and
/// the thread are a ``SinkWorker``'s.
///
/// `@unchecked Sendable`: everything but `totals` belongs to whoever delivers, one at a time
/// (the worker thread, or a caller under the worker's lock); `totals` is a ``Lock``.
final class JSONLinesWriter: SinkDelivery, @unchecked Sendable {
  typealias Statistics = JSONLinesFileSink.Statistics

  /// Records waiting for the writer: their bytes back to back in memory of their own (a record
  /// is encoded straight into it: no intermediate array, no zero fill), and where each ends.
  final class Batch: SinkBatch {
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
      if written > MisuseEvent.maxRecordBytes {
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

  /// Queues callers are spread over; threads beyond this many share them.
  static let shardCount = 4

  private let path: String
  private let options: JSONLinesFileSink.Options
  private let totals = Lock(Statistics())
  private var file: LogFile?
  private var rotation: LogRotation
  /// Whether anything was written to `file` since it was opened.
  private var wroteToFile = false
  /// Whether the writer is writing without the file's lock (said once per episode).
  private var lockingFailed = false
  private var lastIdentityCheck: UInt64 = 0
  private var backoff = Backoff()
  /// Records dropped since writes started failing, said when they work again.
  private var droppedWhileFailing = 0

  /// Bytes written by one `write(2)` at the most (always whole records).
  private static let chunkBytes = 1 << 20
  /// The longest ``JSONLinesFileSink/flush()`` and the sink's end wait for the writer (a hung
  /// filesystem).
  static let waitSeconds = 5.0
  /// How long the writer waits for another process's lock on the file before writing
  /// without it (a writer stopped with SIGSTOP, or another user's `flock`, must not stop us);
  /// long enough for a writer descheduled on a loaded machine. While the lock stays
  /// unavailable, each later batch tries once and goes on.
  private static let lockWaitNanoseconds: UInt64 = 500_000_000

  /// How the writer starts.
  enum Start {
    /// With the file open.
    case opened(LogFile)
    /// Without it: opening failed for a passing reason (``isPassing(_:)``), said at once; the
    /// first batch after the backoff's delay opens it again.
    case retrying(SystemError)
  }

  /// Whether a failure to open the path may pass: no descriptor left (`EMFILE`, `ENFILE`), no
  /// memory, a full disk or quota (creating the file), `EIO`, or the path changing under a
  /// rotation. A refused path (a symlink, a directory, no permission, no directory) is not.
  static func isPassing(_ error: SystemError) -> Bool {
    [EMFILE, ENFILE, ENOMEM, ENOSPC, EDQUOT, EIO, EAGAIN].contains(error.code)
  }

  init(path: String, options: JSONLinesFileSink.Options, start: Start) {
    self.path = path
    self.options = options
    self.rotation = LogRotation(path: path, keep: options.keep)
    switch start {
    case .opened(let file): self.file = file
    case .retrying(let error): enterFailure(error)
    }
  }

  /// The worker for this writer: four queues, a writer thread that lets records gather for
  /// 1 ms after it wakes (a busy app pays for one wake-up per batch, not one per record).
  static func worker(path: String, options: JSONLinesFileSink.Options, start: Start)
    -> SinkWorker<JSONLinesWriter>
  {
    var name = Array("jsonl path=".utf8)
    name.appendLogfmtValue(path)
    let worker = SinkWorker(
      delivering: JSONLinesWriter(path: path, options: options, start: start),
      .init(
        threadName: "bindiag.jsonl", noticeName: name, capacity: options.queueCapacity,
        shards: shardCount, gatherNanoseconds: 1_000_000, synchronous: options.synchronous))
    if !options.synchronous { worker.start() }
    return worker
  }

  /// What the writer did so far (drops in the queues are the worker's).
  var statistics: Statistics { totals.withLock { $0 } }

  func deliver(_ batch: Batch, fromShard shard: Int, worker: SinkWorker<JSONLinesWriter>) {
    let outcome = writeBatch(batch, worker: worker)
    totals.withLock { $0.add(outcome) }
  }

  func flushed() {
    if options.fsync != .never, let file { _ = FileDescriptorIO.sync(file.fd) }
  }

  func stopped() {
    flushed()
    file?.close()
    file = nil
  }

  /// Writes whole records in chunks of at most ``chunkBytes``, one `write(2)` each, rotating
  /// and reopening as needed. Only the writer calls it.
  ///
  /// A regular file is written under an exclusive `flock`, taken per chunk: every process
  /// sharing the file then sees the others' size (no rotated file exceeds `maxBytes` by more
  /// than one record), rotations (the path is checked under the lock) and torn tails (a
  /// record cut short by SIGKILL or ENOSPC gets its `\n` before anything is appended).
  private func writeBatch(_ batch: Batch, worker: SinkWorker<JSONLinesWriter>) -> Statistics {
    var outcome = Statistics()
    guard batch.count > 0 else { return outcome }
    let now = MonotonicClock.nanoseconds()
    if !backoff.allowsTry(now: now) {
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
      var failure: SystemError?
      var cut = false
      let before = index
      // The end of the process waits for this step, and then lets no other start.
      let ran = worker.unlessHalted {
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
          index = last + 1
        case .failure(let error):
          // Records written whole before the disk filled stay; a record cut short is cut back
          // off the file (under the lock no other process appended meanwhile), so no fragment
          // stays behind. Without the lock it stays, and the next append starts a new line.
          failure = error
          if let base {
            var whole = start
            while index < batch.count && batch.ends[index] <= start + reached {
              whole = batch.ends[index]
              index += 1
            }
            if whole - start < reached,
              case .success = FileDescriptorIO.truncate(current.fd, to: base + whole - start)
            {
              cut = true
            }
          } else {
            // One that lacks only its `\n` is whole: the next append adds it.
            while index < batch.count && batch.ends[index] - 1 - start <= reached { index += 1 }
          }
        }
        return index - before
      }
      if locked { _ = FileDescriptorIO.lock(current.fd, LOCK_UN) }
      guard ran else {
        outcome.dropped += batch.count - index
        break
      }
      outcome.written += index - before
      if let failure {
        outcome.failed += 1
        outcome.dropped += batch.count - index
        droppedWhileFailing += batch.count - index
        enterFailure(failure, cut: cut)
        index = batch.count
      } else if backoff.succeeded() {
        JSONLinesWriter.say(
          path: path, error: nil, action: "recovered", dropped: droppedWhileFailing)
        droppedWhileFailing = 0
      }
    }
    if options.fsync == .always, let file { _ = FileDescriptorIO.sync(file.fd) }
    return outcome
  }

  /// Takes the exclusive `flock` on `current`, waiting at most ``lockWaitNanoseconds``.
  /// - Returns: Whether the lock is held (otherwise the writer goes on without it).
  private func lock(_ current: LogFile) -> Bool {
    let start = MonotonicClock.nanoseconds()
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
          MonotonicClock.nanoseconds() &- start < JSONLinesWriter.lockWaitNanoseconds
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
    if backoff.failed(now: MonotonicClock.nanoseconds()) {
      let action =
        cut
        ? "partial record cut off; dropping records and retrying" : "dropping records and retrying"
      JSONLinesWriter.say(path: path, error: error, action: action)
    }
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
