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
/// written only when it fits).
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
  private let failures = Failures()

  /// Counters shared by copies of the sink.
  private final class Failures: Sendable {
    /// Lines not written.
    let count = Counter()
    /// Lines being written now.
    let writing = Counter()
    /// Not 0 once the process has begun to end: lines are then refused (counted in `count`).
    let ending = Counter()
    /// Lines refused as the process ends.
    let refused = Counter()
    /// Not 0 once the lines under way as the process began to end are written.
    let drained = Counter()
    /// Not 0 once the refusals were said (one line, after the last record).
    let announced = Counter()
  }

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
    let testOutput = format == nil && fileDescriptor == 2 && MisusePolicy.isTestProcess
    let format = format ?? (terminal || testOutput ? .human : .logfmt)
    self.quietForTestIssues = testOutput
    self.format = format
    self.fileDescriptor = fileDescriptor
    self.isPipe = FileDescriptorIO.isPipeOrSocket(fileDescriptor)
    // no-color.org: set and not empty turns colours off; a terminal without a TERM, or a
    // dumb one, gets none either (as `bindiag`'s own output).
    let noColor = environment("NO_COLOR").map { !$0.isEmpty } ?? false
    let term = environment("TERM") ?? ""
    self.colors = format == .human && terminal && !noColor && !term.isEmpty && term != "dumb"
  }

  /// Where lines go: two sinks with the same destination print the same lines.
  struct Destination: Hashable {
    let fileDescriptor: Int32
    let format: Format
  }

  /// This sink's destination.
  var destination: Destination { Destination(fileDescriptor: fileDescriptor, format: format) }

  /// Lines that could not be written (closed descriptor, vanished reader, full disk).
  public var failedWrites: Int { failures.count.value }

  /// Encodes and writes the event; a failed write is dropped, never raised.
  /// - Parameter event: The event.
  public func receive(_ event: MisuseEvent) {
    if quietForTestIssues, event.suppressed == 0, MisusePolicy.recordShownAsTestIssue { return }
    var bytes = encode(event)
    if bytes.count > JSONLinesFileSink.maxRecordBytes { bytes = encode(event.cutToRecordLimit()) }
    // Counted as writing before `ending` is looked at, and the end of the process sets `ending`
    // before it looks at `writing`: it waits for this line, or this line sees it is ending.
    // (The counters' steps are read-modify-writes, full barriers on x86; on weaker memory
    // models a line racing the very end could still be cut, as before.)
    failures.writing.increment()
    defer { failures.writing.decrement() }
    if failures.ending.value != 0 {
      failures.count.increment()
      failures.refused.increment()
      if failures.drained.value != 0 { announceRefusals() }
      return
    }
    if isPipe && !Self.hasRoom(fileDescriptor) {
      failures.count.increment()
      return
    }
    let result =
      isPipe
      ? FileDescriptorIO.writeAllWithoutSigpipe(fileDescriptor, bytes)
      : FileDescriptorIO.writeAll(fileDescriptor, bytes)
    if case .failure = result { failures.count.increment() }
  }
}

extension StandardErrorSink: ProcessBoundSink {
  func renewedAfterFork() -> any DiagnosticsSink {
    StandardErrorSink(format: format, fileDescriptor: fileDescriptor)
  }

  /// As the process ends (`exit` while other threads still misuse): lines already being written
  /// are finished (for at most `seconds`) and later ones refused, so that `exit` tears no line in
  /// the middle. Refusals are said in one line, after the last record: here, or by the first
  /// refusal after this.
  func finishAtProcessEnd(within seconds: Double) {
    failures.ending.increment()
    let deadline = RateLimiter.monotonicNanoseconds() + UInt64(max(0, seconds) * 1e9)
    while failures.writing.value > 0 && RateLimiter.monotonicNanoseconds() < deadline {
      usleep(100)
    }
    failures.drained.increment()
    if failures.refused.value != 0 { announceRefusals() }
  }

  /// Says once that records are refused from here on.
  private func announceRefusals() {
    guard failures.announced.increment() == 1 else { return }
    ConfigurationWarning.emit(
      "sink=stderr action=\"process ending; records after this line dropped\"",
      fileDescriptor: fileDescriptor)
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

  /// Whether a pipe or socket takes a write now (`poll(2)` for `POLLOUT`, no wait); a reader
  /// that has gone also counts (the write then fails with `EPIPE`).
  fileprivate static func hasRoom(_ fd: Int32) -> Bool {
    var entries = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
    guard case .success(let ready) = FileDescriptorIO.poll(&entries, milliseconds: 0) else {
      return true
    }
    return ready > 0
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
