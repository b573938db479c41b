/// Writes each event as one line to standard error (or another descriptor), with one `write(2)`.
/// A line is at most 64 KiB: longer fields are cut as the JSON Lines file sink cuts them.
///
/// When the descriptor is a pipe whose reader has gone (`app 2>&1 | head`), the write fails
/// with `EPIPE` and is counted in ``failedWrites``; `SIGPIPE` never kills the app.
public struct StandardErrorSink: DiagnosticsSink {
  /// The wire form of each line.
  public enum Format: String, Sendable, Hashable {
    /// Contract logfmt, the default: readable in a terminal, parseable by `bindiag`.
    case logfmt
    /// Contract JSON Lines.
    case jsonLines = "json"
  }

  /// The form lines are written in.
  public let format: Format
  /// The descriptor written to; 2 unless injected.
  public let fileDescriptor: Int32
  private let isPipe: Bool
  private let failures = Failures()

  /// A counter shared by copies of the sink.
  private final class Failures: Sendable {
    let count = Counter()
  }

  /// A sink writing `format` lines to `fileDescriptor`.
  /// - Parameters:
  ///   - format: `.logfmt` (default) or `.jsonLines`.
  ///   - fileDescriptor: The descriptor to write to; standard error by default.
  public init(format: Format = .logfmt, fileDescriptor: Int32 = 2) {
    self.format = format
    self.fileDescriptor = fileDescriptor
    self.isPipe = FileDescriptorIO.isPipeOrSocket(fileDescriptor)
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
    var bytes = encode(event)
    if bytes.count > JSONLinesFileSink.maxRecordBytes { bytes = encode(event.cutToRecordLimit()) }
    let result =
      isPipe
      ? FileDescriptorIO.writeAllWithoutSigpipe(fileDescriptor, bytes)
      : FileDescriptorIO.writeAll(fileDescriptor, bytes)
    if case .failure = result { failures.count.increment() }
  }
}

extension StandardErrorSink {
  fileprivate func encode(_ event: MisuseEvent) -> [UInt8] {
    switch format {
    case .logfmt: LogfmtEncoder().encode(event)
    case .jsonLines: JSONLinesEncoder().encode(event)
    }
  }
}

extension DiagnosticsSink where Self == StandardErrorSink {
  /// Contract logfmt lines on standard error.
  public static var standardError: StandardErrorSink { StandardErrorSink() }

  /// Lines in `format` on standard error.
  /// - Parameter format: `.logfmt` or `.jsonLines`.
  public static func standardError(format: StandardErrorSink.Format) -> StandardErrorSink {
    StandardErrorSink(format: format)
  }
}
