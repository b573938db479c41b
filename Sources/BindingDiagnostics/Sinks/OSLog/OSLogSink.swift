#if canImport(os)
  import Foundation
  import os

  /// Sends each event to Apple's unified log through `os.Logger`: the default sink on Apple
  /// platforms, as `os_log` was for the original helper.
  ///
  /// One entry per event, at the level its event maps to (critical → fault, error → error,
  /// warning and notice → default, info → info, debug and trace → debug). The message is the
  /// event's contract logfmt line, logged `.public`: its value is already under the pipeline's
  /// privacy setting (`<private>` unless the app opted in), and the unified log would otherwise
  /// redact the whole line. `log show --style ndjson --predicate 'category == "BindingDiagnostics"'`
  /// piped to `bindiag summary` reads the entries back.
  public struct OSLogSink: DiagnosticsSink {
    /// The category used unless one is given.
    public static let defaultCategory = "BindingDiagnostics"

    /// The subsystem entries are logged under.
    public let subsystem: String
    /// The category entries are logged under.
    public let category: String
    private let logger: Logger

    /// A sink logging under `subsystem` and `category`.
    /// - Parameters:
    ///   - subsystem: The subsystem; the app's bundle identifier by default (or
    ///     `BindingDiagnostics` where there is none).
    ///   - category: The category; ``defaultCategory`` by default.
    public init(subsystem: String? = nil, category: String = OSLogSink.defaultCategory) {
      self.subsystem = subsystem ?? Bundle.main.bundleIdentifier ?? "BindingDiagnostics"
      self.category = category
      logger = Logger(subsystem: self.subsystem, category: category)
    }

    /// Logs the event as one entry (`Logger.log(level:_:)`).
    /// - Parameter event: The event.
    public func receive(_ event: MisuseEvent) {
      let entry = UnifiedLogEntry(event)
      logger.log(level: entry.level.type, "\(entry.message, privacy: .public)")
    }
  }

  extension UnifiedLogEntry.Level {
    /// The `OSLogType` of this level.
    fileprivate var type: OSLogType {
      switch self {
      case .debug: .debug
      case .info: .info
      case .default: .default
      case .error: .error
      case .fault: .fault
      }
    }
  }

  extension DiagnosticsSink where Self == OSLogSink {
    /// A unified-log sink; see ``OSLogSink``.
    /// - Parameters:
    ///   - subsystem: The subsystem; the app's bundle identifier by default.
    ///   - category: The category; `BindingDiagnostics` by default.
    public static func osLog(subsystem: String? = nil, category: String = OSLogSink.defaultCategory)
      -> OSLogSink
    {
      OSLogSink(subsystem: subsystem, category: category)
    }
  }
#endif
