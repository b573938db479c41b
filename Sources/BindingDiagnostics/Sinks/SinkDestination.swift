/// Where a sink writes lines, when two sinks may write the same ones to the same place: a
/// descriptor, and the wire form of its lines. A fan-out (``MultiplexSink``) prints each line
/// once per destination (``DiagnosticsSink/destination``,
/// ``DiagnosticsSink/fallbackDestination``).
public struct SinkDestination: Hashable, Sendable {
  /// The descriptor written to.
  public let fileDescriptor: Int32
  /// The wire form of the lines (`logfmt`, `json`, `human`, or a name of the sink's own).
  public let format: String

  /// Lines in `format` on `fileDescriptor`.
  /// - Parameters:
  ///   - fileDescriptor: The descriptor written to.
  ///   - format: The wire form of the lines: sinks that write the same line for an event name
  ///     the same form.
  public init(fileDescriptor: Int32, format: String) {
    self.fileDescriptor = fileDescriptor
    self.format = format
  }
}
