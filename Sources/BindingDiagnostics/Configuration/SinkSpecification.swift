/// A sink named in configuration, before it is opened: what ``EnvironmentConfiguration``
/// parses from `BINDING_DIAGNOSTICS` and the configuration file, without touching the system.
public enum SinkSpecification: Sendable, Hashable {
  /// ``StandardErrorSink`` in a format, or chosen for the descriptor when `nil` (`stderr`).
  case standardError(StandardErrorSink.Format?)
  /// ``JSONLinesFileSink`` at `path` (`jsonl:PATH`, or an object in the file).
  case jsonLines(path: String, options: JSONLinesFileSink.Options)
  /// ``JournaldSink`` (`journald`).
  case journald
  /// The unified log, `OSLogSink` (`oslog`, Apple platforms).
  case osLog
  /// ``DiagnosticsConfiguration/defaultSink``, when no sink is named.
  case platformDefault
  /// Nothing (`none`).
  case none
}

extension SinkSpecification {
  /// Opens the sink: the only step of configuration that touches files or sockets.
  /// - Returns: The sink (`nil` for ``none``), and one warning line when it fell back to
  ///   standard error (a file that cannot be opened).
  public func open() -> (sink: (any DiagnosticsSink)?, warning: String?) {
    switch self {
    case .standardError(let format):
      return (StandardErrorSink(format: format), nil)
    case .none:
      return (nil, nil)
    case .journald:
      return (JournaldSink(), nil)
    case .osLog, .platformDefault:
      return (DiagnosticsConfiguration.defaultSink, nil)
    case .jsonLines(let path, let options):
      switch JSONLinesFileSink.open(path: path, options: options) {
      case .success(let sink): return (sink, nil)
      case .failure(let error):
        return (StandardErrorSink(), "jsonl:\(path): \(error); using stderr")
      }
    }
  }
}
