/// What ``OSLogSink`` logs for an event: the unified-log level and the message. Worked out
/// without the `os` module, so the mapping is tested on every platform.
package struct UnifiedLogEntry: Sendable, Hashable {
  /// The unified log's levels, named as `log show` prints them in `messageType`.
  package enum Level: String, Sendable, Hashable {
    case debug = "Debug"
    case info = "Info"
    case `default` = "Default"
    case error = "Error"
    case fault = "Fault"
  }

  /// The level the entry is logged at.
  package let level: Level
  /// The event's contract logfmt line, without its newline.
  package let message: String

  /// The entry for `event`: critical → fault, error → error, warning and notice → default,
  /// info → info, debug and trace → debug.
  /// - Parameter event: The event.
  package init(_ event: MisuseEvent) {
    level =
      switch event.level {
      case .critical: .fault
      case .error: .error
      case .warning, .notice: .default
      case .info: .info
      case .debug, .trace: .debug
      }
    var line = LogfmtEncoder().encode(event)
    line.removeLast()
    message = String(decoding: line, as: UTF8.self)
  }
}
