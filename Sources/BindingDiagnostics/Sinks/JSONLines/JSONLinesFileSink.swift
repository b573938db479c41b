import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Appends contract JSON Lines to a file, safely shared by threads and processes.
///
/// - The file is opened once with `O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW`,
///   mode `0640`. A symlink, or anything but a regular file at the path (a directory, a device
///   such as `/dev/full`, a FIFO, a socket), is refused: the sink says so in one line on
///   standard error and prints its records there instead (as a sink named in the environment
///   does).
/// - Every record is at most ``maxRecordBytes`` (long `msg`, `value`, `label`, `file`,
///   `function`, `value_type` are cut with `…`), and whole records are written by single
///   `write(2)` calls, so appends from several threads and processes never interleave or tear.
/// - Asynchronous by default: the caller only encodes, straight into a queue; a writer thread
///   batches. Threads are spread over four queues, each with its own lock
///   (a thread always uses the same one, so its records stay in order), so misusing threads do
///   not wait for each other. When a queue is full the record is dropped and counted: the
///   caller never waits for I/O, only for its queue's lock.
/// - Rotation by size, coordinated between processes with `flock(2)`: one rename of the full
///   file to `PATH.<UTC time of the rotation>` (see ``Options/keep``), whatever the number of
///   files kept; a file moved or deleted by an outside tool is noticed (inode check, at most
///   once a second) and the path reopened.
/// - Failures (`ENOSPC`, `EIO`, a vanished path) are said once on standard error as one logfmt
///   line, the records concerned are counted as dropped, and the sink retries with backoff.
///   So does a path that cannot be opened for a passing reason (no descriptor left, `EMFILE` or
///   `ENFILE`; no memory; a full disk or quota; `EIO`): the sink opens it on a later try and
///   says `action=recovered` once, with the records dropped meanwhile.
/// - Each sink holds one descriptor and (unless synchronous) one thread. At most
///   ``maximumOpenSinks`` are open in a process at once (half the soft descriptor limit, 512 at
///   the most); beyond that a sink is refused as a bad path is (`EMFILE`, "too many JSON Lines
///   sinks open"), so a loop making sinks cannot take every descriptor of the app.
public final class JSONLinesFileSink: DiagnosticsSink {
  /// When the file is `fsync`ed.
  public enum FsyncPolicy: String, Sendable, Hashable {
    /// Never; the kernel writes back in its own time. The default.
    case never
    /// On every ``JSONLinesFileSink/flush()``.
    case flush
    /// After every batch written.
    case always
  }

  /// How the sink writes and rotates.
  public struct Options: Sendable, Hashable {
    /// Rotate when the file would grow past this many bytes; `nil` (default) never rotates.
    public var maxBytes: Int?
    /// Rotated files kept; older ones are deleted. Default 5. A rotated file is named after
    /// the UTC time of its rotation, `PATH.20261201T141530.123456Z`, so that the generations
    /// sort by name oldest first (`bindiag summary PATH.2* PATH` reads them in age order).
    public var keep: Int
    /// When to `fsync`. Default `.never`.
    public var fsync: FsyncPolicy
    /// Records each queue holds before new ones are dropped and counted (a thread uses one
    /// queue; threads are spread over 4). Default 65 536.
    public var queueCapacity: Int
    /// Write on the caller's thread instead of a writer thread (for tools and tests).
    public var synchronous: Bool

    /// Options with the documented defaults.
    /// - Parameters:
    ///   - maxBytes: Rotation size, or `nil` for none.
    ///   - keep: Rotated files kept.
    ///   - fsync: When to `fsync`.
    ///   - queueCapacity: Queue bound in records.
    ///   - synchronous: Whether to write on the caller's thread.
    public init(
      maxBytes: Int? = nil, keep: Int = 5, fsync: FsyncPolicy = .never,
      queueCapacity: Int = 65_536, synchronous: Bool = false
    ) {
      self.maxBytes = maxBytes
      self.keep = max(1, keep)
      self.fsync = fsync
      self.queueCapacity = max(1, queueCapacity)
      self.synchronous = synchronous
    }
  }

  /// What the sink has done so far.
  public struct Statistics: Sendable, Hashable {
    /// Records written to the file.
    public var written = 0
    /// Records not written: queue full, or lost to a failed write or an unusable path.
    public var dropped = 0
    /// Write or open attempts that failed.
    public var failed = 0
    /// Rotations this process performed.
    public var rotations = 0
    /// Times the path was reopened after an outside tool moved or deleted the file.
    public var reopens = 0
    /// Records printed on standard error instead, because the path was refused.
    public var fellBack = 0
  }

  /// The largest record written, in bytes, newline included: 64 KiB
  /// (``MisuseEvent/maxRecordBytes``, every sink's limit).
  public static let maxRecordBytes = MisuseEvent.maxRecordBytes

  /// The most JSON Lines file sinks open in the process at once: half the soft limit on
  /// descriptors (`RLIMIT_NOFILE`, read when a sink opens), 512 at the most, 8 at the least.
  public static var maximumOpenSinks: Int {
    max(8, min(512, FileDescriptorIO.openFileLimit() / 2))
  }

  /// How many sinks hold a descriptor or wait to open one (each takes a slot until deinit).
  private static let openSinks = Lock(0)

  /// The path written to.
  public let path: String
  /// The options in force.
  public let options: Options
  /// The queues and thread writing to the file, or `nil` when the path was refused and records
  /// go to ``fallback``.
  private let writer: SinkWorker<JSONLinesWriter>?
  /// Where records go when the path was refused.
  private let fallback = StandardErrorSink()
  private let fellBack = Counter()

  /// Opens (or creates) `path`, refusing what is not a regular file or a device named directly.
  /// - Parameters:
  ///   - path: The file; created `0640` if missing.
  ///   - options: Rotation, fsync, queue and mode.
  /// - Returns: The sink, or the error that makes the path unusable (`ELOOP` for a symlink,
  ///   `EISDIR` for a directory, …).
  ///   `EMFILE` "too many JSON Lines sinks open" beyond ``maximumOpenSinks``). A path that
  ///   cannot be opened for a passing reason (`EMFILE`, `ENFILE`, `ENOMEM`, `ENOSPC`, `EDQUOT`,
  ///   `EIO`) gives a sink that says so and opens it on a later try.
  public static func open(path: String, options: Options = Options()) -> Result<
    JSONLinesFileSink, SystemError
  > {
    start(path).map { JSONLinesFileSink(path: path, options: options, start: $0) }
  }

  /// How a sink starts: with the file open, or retrying a passing failure to open it; a failure
  /// when the path is refused (no slot taken then).
  private static func start(_ path: String) -> Result<JSONLinesWriter.Start, SystemError> {
    let limit = maximumOpenSinks
    let slot = openSinks.withLock { count in
      guard count < limit else { return false }
      count += 1
      return true
    }
    guard slot else {
      return .failure(SystemError("open (too many JSON Lines sinks open: \(limit))", code: EMFILE))
    }
    switch LogFile.open(path) {
    case .success(let file): return .success(.opened(file))
    case .failure(let error) where JSONLinesWriter.isPassing(error):
      return .success(.retrying(error))
    case .failure(let error):
      openSinks.withLock { $0 -= 1 }
      return .failure(error)
    }
  }

  /// A sink for `path` that never fails: when the path cannot be opened (it is not a regular
  /// file, its directory is missing, …) it says so in one line on standard error and prints its
  /// records there instead, as a sink named in the environment does.
  /// - Parameters:
  ///   - path: The file; created `0640` if missing.
  ///   - options: Rotation, fsync, queue and mode.
  public convenience init(path: String, options: Options = Options()) {
    switch Self.start(path) {
    case .success(let start):
      self.init(path: path, options: options, start: start)
    case .failure(let error):
      JSONLinesWriter.say(path: path, error: error, action: "using stderr")
      self.init(path: path, options: options, start: nil)
    }
  }

  private init(path: String, options: Options, start: JSONLinesWriter.Start?) {
    if case .opened(let file) = start, let exposure = file.exposure {
      JSONLinesWriter.say(path: path, error: nil, action: exposure)
    }
    self.path = path
    self.options = options
    self.writer = start.map { JSONLinesWriter.worker(path: path, options: options, start: $0) }
  }

  deinit {
    guard let writer else { return }
    writer.stop(within: JSONLinesWriter.waitSeconds)
    Self.openSinks.withLock { $0 -= 1 }
  }

  /// Encodes the event (cut to ``maxRecordBytes``) and enqueues or writes it.
  /// - Parameter event: The event.
  public func receive(_ event: MisuseEvent) {
    receive(event, deliveringFallback: true)
  }

  /// Returns once every record received before the call is written (and `fsync`ed under
  /// `.flush` or `.always`), or counted as dropped.
  public func flush() {
    guard let writer else { return fallback.flush() }
    if !writer.flush(within: JSONLinesWriter.waitSeconds) {
      JSONLinesWriter.say(
        path: path, error: nil,
        action: "flush gave up after \(Int(JSONLinesWriter.waitSeconds)) s; writes are stuck")
    }
  }

  /// Counters of records written, dropped and failed.
  public var statistics: Statistics {
    var statistics = Statistics(failed: 1)
    if let writer {
      statistics = writer.delivery.statistics
      statistics.dropped += writer.dropped
    }
    statistics.fellBack = fellBack.value
    return statistics
  }
}

extension JSONLinesFileSink {
  /// Standard error's, when the path was refused and records go there; `nil` while the file is
  /// written.
  public var fallbackDestination: SinkDestination? {
    writer == nil ? fallback.destination : nil
  }

  /// Enqueues or writes the event; when the path was refused, prints it on standard error only
  /// if `deliveringFallback` (counted in ``Statistics/fellBack`` either way).
  /// - Parameters:
  ///   - event: The event.
  ///   - deliveringFallback: Whether standard error, if used, prints the event.
  public func receive(_ event: MisuseEvent, deliveringFallback: Bool) {
    if let writer {
      writer.submit(
        event.carriesRunCounts ? event.stampedUnlessSet(dropped: statistics.dropped) : event)
    } else {
      fellBack.increment()
      if deliveringFallback { fallback.receive(event) }
    }
  }

  /// A sink for the same path and options, with a descriptor and writer thread of its own, for
  /// a forked child.
  /// - Returns: The child's sink.
  public func renewedAfterFork() -> any DiagnosticsSink {
    JSONLinesFileSink(path: path, options: options)
  }

  /// Writes what is queued, then `runEnd` as the last record (with the records dropped so far,
  /// those it refused included, as its `run_dropped`), within `seconds`; says what was dropped.
  /// - Parameters:
  ///   - seconds: How long to wait for the writer thread.
  ///   - runEnd: The run's `run-end` record, if it writes one.
  ///   - deliveringFallback: When the path was refused, whether standard error prints `runEnd`.
  public func finishAtProcessEnd(
    within seconds: Double, runEnd: MisuseEvent?, deliveringFallback: Bool
  ) {
    guard let writer else {
      if let runEnd, deliveringFallback { fallback.receive(runEnd.stamped(dropped: 0)) }
      return fallback.flush()
    }
    let last = runEnd.map { runEnd in { [self] in runEnd.stamped(dropped: statistics.dropped) } }
    switch writer.finish(within: seconds, last: last) {
    case nil: break
    case .stuck:
      JSONLinesWriter.say(
        path: path, error: nil, action: "a write is stuck as the process ends; queued records lost")
    case .account(let written, let dropped):
      JSONLinesWriter.say(
        path: path, error: nil, action: "process ending; the rest dropped", written: written,
        dropped: dropped)
    }
  }
}

extension DiagnosticsSink where Self == JSONLinesFileSink {
  /// A JSON Lines file sink for `path`; see ``JSONLinesFileSink``.
  /// - Parameters:
  ///   - path: The file; created `0640` if missing.
  ///   - options: Rotation, fsync, queue and mode.
  public static func jsonLines(
    path: String, options: JSONLinesFileSink.Options = JSONLinesFileSink.Options()
  ) -> JSONLinesFileSink {
    JSONLinesFileSink(path: path, options: options)
  }
}
