#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes each event as one line to standard error (or another descriptor), with one `write(2)`.
/// A line is at most 64 KiB: longer fields are cut as the JSON Lines file sink cuts them.
///
/// Unless a format is named, a person reading a terminal gets one short line per event in a
/// compiler's shape, its level coloured as `bindiag` colours it (not under `NO_COLOR`):
///
///     App/InboxView.swift:31: error: a Binding<Bool> mapped from String? was set to true; no effect [mapped-bool-set-true, save-alert]
///
/// and anything else (a pipe, a file, a log collector) gets the contract's logfmt, which
/// `bindiag` reads back.
///
/// When the descriptor is a pipe whose reader has gone (`app 2>&1 | head`), the write fails
/// with `EPIPE` and is counted in ``failedWrites``; `SIGPIPE` never kills the app. A pipe whose
/// reader has stopped reading never blocks the app either: when the pipe is full, the line is
/// dropped and counted in ``failedWrites`` (a line of up to 4 KiB, the pipe's atomic unit, is
/// written only when it fits). On Linux a record leaves a quarter of the pipe free (the kernel
/// fills a pipe by pages, not bytes), so that the run's `run-end` and the line saying what was
/// dropped still fit when the process ends, even when nobody read the pipe.
///
/// Run records (`run-heartbeat`, `run-end`) are written in logfmt and JSON Lines, with the
/// sink's dropped lines as `run_dropped`; the short human line never shows them.
public struct StandardErrorSink: DiagnosticsSink {
  /// The wire form of each line.
  public enum Format: String, Sendable, Hashable {
    /// Contract logfmt, the default: readable in a terminal, parseable by `bindiag`.
    case logfmt
    /// Contract JSON Lines.
    case jsonLines = "json"
    /// One short line in a compiler's shape for a person (`FILE:LINE: LEVEL: what [KIND,
    /// LABEL] (+N folded)`); not a wire form, `bindiag` does not read it back.
    case human
  }

  /// The form lines are written in: the one asked for, or the one chosen for the descriptor.
  public let format: Format
  /// Whether ``Format/human`` lines colour their level.
  let colors: Bool
  /// The descriptor written to; 2 unless injected.
  public let fileDescriptor: Int32
  private let isPipe: Bool
  /// Whether this is a test process's standard error in its default format: records of misuses
  /// already shown as test issues are not printed again.
  private let quietForTestIssues: Bool
  /// The pipe's size, where it can be known (Linux).
  private let pipeSize: Int?
  private let failures = Failures()

  /// Counters shared by copies of the sink.
  private final class Failures: Sendable {
    /// Lines not written.
    let count = Counter()
    /// Lines written.
    let written = Counter()
    /// Lines being written now. With `ending`, the exit handshake: a line enters, then reads
    /// `ending`; the end sets `ending`, then waits for `writing` to empty. Both sequentially
    /// consistent (``InFlightCount``, ``Latch``), so they cannot miss each other: the line is
    /// refused, or the end waits for it.
    let writing = InFlightCount()
    /// Set once the process has begun to end: lines are then refused (counted in `count`).
    let ending = Latch()
    /// Lines refused as the process ends.
    let refused = Counter()
    /// Set once the lines under way as the process began to end are written, and the run's
    /// `run-end` after them.
    let drained = Latch()
    /// Set once the drops were said (one line, after the last record).
    let announced = Latch()
  }

  /// Bytes a record leaves free in a pipe of `size` bytes, for the `run-end` and the line about
  /// drops: a quarter, so that pages stay free however the records filled the others.
  static func pipeReserve(size: Int) -> Int { max(4096, size / 4) }

  /// A sink writing `format` lines to `fileDescriptor`.
  /// - Parameters:
  ///   - format: `.logfmt`, `.jsonLines` or `.human`; when `nil` (the default), `.human` if
  ///     `fileDescriptor` is a terminal (`isatty(3)`) and `.logfmt` otherwise.
  ///   - fileDescriptor: The descriptor to write to; standard error by default.
  public init(format: Format? = nil, fileDescriptor: Int32 = 2) {
    self.init(format: format, fileDescriptor: fileDescriptor, environment: Self.environment)
  }

  /// A sink as ``init(format:fileDescriptor:)`` makes it, reading `NO_COLOR` and `TERM` from
  /// `environment` instead of the process's.
  package init(format: Format?, fileDescriptor: Int32, environment: (String) -> String?) {
    let terminal = Self.isTerminal(fileDescriptor)
    // A test process's own standard error (what `swift test` shows, no terminal) gets the short
    // lines too, without those its tests already show as issues.
    let testOutput = format == nil && fileDescriptor == 2 && TestProcess.isTestProcess
    let format = format ?? (terminal || testOutput ? .human : .logfmt)
    self.quietForTestIssues = testOutput
    self.format = format
    self.fileDescriptor = fileDescriptor
    self.isPipe = FileDescriptorIO.isPipeOrSocket(fileDescriptor)
    self.pipeSize = isPipe ? FileDescriptorIO.pipeSize(fileDescriptor) : nil
    // no-color.org: set and not empty turns colours off; a terminal without a TERM, or a
    // dumb one, gets none either (as `bindiag`'s own output).
    let noColor = environment("NO_COLOR").map { !$0.isEmpty } ?? false
    let term = environment("TERM") ?? ""
    self.colors = format == .human && terminal && !noColor && !term.isEmpty && term != "dumb"
  }

  /// The descriptor and the format: two sinks with the same destination print the same lines,
  /// and a fan-out keeps one.
  public var destination: SinkDestination? {
    SinkDestination(fileDescriptor: fileDescriptor, format: format.rawValue)
  }

  /// Lines that could not be written (closed descriptor, vanished reader, full disk).
  public var failedWrites: Int { failures.count.value }

  /// Encodes and writes the event; a failed write is dropped, never raised.
  /// - Parameter event: The event.
  public func receive(_ event: MisuseEvent) {
    if quietForTestIssues, event.suppressed == 0, !event.carriesRunCounts,
      TestProcess.recordShownAsTestIssue
    { return }
    if event.carriesRunCounts {
      guard format != .human else { return }
      // Heartbeats keep the pipe's reserve too: it is for the end.
      let reserve = pipeSize.map { Self.pipeReserve(size: $0) } ?? 0
      _ = write(event.stampedUnlessSet(dropped: failures.count.value), reserving: reserve)
      return
    }
    _ = write(event, reserving: pipeSize.map { Self.pipeReserve(size: $0) } ?? 0)
  }

  /// Lines written so far.
  var writtenLines: Int { failures.written.value }

  /// Writes `event` as one line, unless the process is ending (refused), the pipe is full or
  /// would keep less than `reserve` bytes free (dropped), or the write fails; each counted.
  /// - Returns: Whether the line was written.
  private func write(_ event: MisuseEvent, reserving reserve: Int) -> Bool {
    var bytes = encode(event)
    if bytes.count > MisuseEvent.maxRecordBytes { bytes = encode(event.cutToRecordLimit()) }
    // Counted as writing before `ending` is looked at, and the end of the process sets `ending`
    // before it looks at `writing`: it waits for this line, or this line sees it is ending.
    // Sequentially consistent on both sides (see `Failures.writing`), on every architecture.
    failures.writing.enter()
    defer { failures.writing.leave() }
    if failures.ending.isSet {
      failures.count.increment()
      failures.refused.increment()
      if failures.drained.isSet { announceDrops() }
      return false
    }
    guard !isPipe || hasRoom(for: bytes.count + reserve) else {
      failures.count.increment()
      return false
    }
    return deliver(bytes)
  }

  /// One `write(2)` through the ``WriteGate``: refused once the process is going.
  private func deliver(_ bytes: [UInt8]) -> Bool {
    guard WriteGate.enter() else {
      failures.count.increment()
      return false
    }
    defer { WriteGate.leave() }
    let result =
      isPipe
      ? FileDescriptorIO.writeAllWithoutSigpipe(fileDescriptor, bytes)
      : FileDescriptorIO.writeAll(fileDescriptor, bytes)
    guard case .success = result else {
      failures.count.increment()
      return false
    }
    failures.written.increment()
    return true
  }
}

extension StandardErrorSink {
  /// A sink like this one, with counters of its own, for a forked child.
  /// - Returns: The child's sink.
  public func renewedAfterFork() -> any DiagnosticsSink {
    StandardErrorSink(format: format, fileDescriptor: fileDescriptor)
  }

  /// As the process ends (`exit` while other threads still misuse): lines already being written
  /// are finished (for at most `seconds`) and later ones refused, so that `exit` tears no line in
  /// the middle; then `runEnd`, with the lines dropped so far as its `run_dropped`. A pipe
  /// without room is waited for until `seconds` have passed. Drops are said in one line naming
  /// the lines written and dropped, after the last record: here, or by the first refusal after
  /// this.
  /// - Parameters:
  ///   - seconds: How long to wait for lines under way and for room in a pipe.
  ///   - runEnd: The run's `run-end` record, if it writes one.
  ///   - deliveringFallback: Ignored: this sink has no fallback.
  public func finishAtProcessEnd(
    within seconds: Double, runEnd: MisuseEvent?, deliveringFallback: Bool
  ) {
    failures.ending.set()
    let deadline = MonotonicClock.nanoseconds() + UInt64(max(0, seconds) * 1e9)
    while !failures.writing.isEmpty && MonotonicClock.nanoseconds() < deadline {
      usleep(100)
    }
    if let runEnd, format != .human {
      let bytes = encode(runEnd.stampedUnlessSet(dropped: failures.count.value))
      if !isPipe || waitForRoom(for: bytes.count, until: deadline) {
        _ = deliver(bytes)
      } else {
        failures.count.increment()
      }
    }
    failures.drained.set()
    if failures.count.value != 0 {
      if isPipe { _ = waitForRoom(for: 256, until: deadline) }
      announceDrops()
    }
  }

  /// Says once, with the lines written and dropped so far, that records are dropped from here
  /// on.
  private func announceDrops() {
    guard failures.announced.set() else { return }
    var line = Array("binding-diagnostics: sink=stderr written=".utf8)
    line.appendDecimal(failures.written.value)
    line.append(contentsOf: " dropped=".utf8)
    line.appendDecimal(failures.count.value)
    line.append(contentsOf: " action=\"process ending; records after this line dropped\"\n".utf8)
    ConfigurationWarning.write(line, fileDescriptor: fileDescriptor)
  }
}

extension StandardErrorSink {
  fileprivate func encode(_ event: MisuseEvent) -> [UInt8] {
    switch format {
    case .logfmt: LogfmtEncoder().encode(event)
    case .jsonLines: JSONLinesEncoder().encode(event)
    case .human: HumanLineEncoder(colors: colors).encode(event)
    }
  }

  /// Whether the pipe or socket takes a write of `count` bytes now: `poll(2)` for `POLLOUT`, no
  /// wait, and for a pipe whose size is known, `count` bytes of room (its size less the bytes
  /// waiting in it). A reader that has gone also counts (the write then fails with `EPIPE`).
  fileprivate func hasRoom(for count: Int) -> Bool {
    var entry = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
    guard case .success(let ready) = FileDescriptorIO.poll(&entry, milliseconds: 0) else {
      return true
    }
    guard ready > 0 else { return false }
    if entry.revents & Int16(POLLERR | POLLHUP) != 0 { return true }
    guard let pipeSize, let waiting = FileDescriptorIO.bytesWaiting(fileDescriptor) else {
      return true
    }
    return pipeSize - waiting >= count
  }

  /// Waits until the pipe or socket takes `count` bytes, or `deadline` passes.
  fileprivate func waitForRoom(for count: Int, until deadline: UInt64) -> Bool {
    while !hasRoom(for: count) {
      guard MonotonicClock.nanoseconds() < deadline else { return false }
      usleep(1000)
    }
    return true
  }

  /// Whether `fd` is a terminal: `isatty(3)`.
  fileprivate static func isTerminal(_ fd: Int32) -> Bool {
    isatty(fd) == 1
  }

  /// A variable of the process's environment: `getenv(3)`.
  fileprivate static func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }
}

extension DiagnosticsSink where Self == StandardErrorSink {
  /// Standard error: short human lines on a terminal, contract logfmt anywhere else.
  public static var standardError: StandardErrorSink { StandardErrorSink() }

  /// Lines in `format` on standard error.
  /// - Parameter format: `.logfmt`, `.jsonLines` or `.human`.
  public static func standardError(format: StandardErrorSink.Format) -> StandardErrorSink {
    StandardErrorSink(format: format)
  }
}
