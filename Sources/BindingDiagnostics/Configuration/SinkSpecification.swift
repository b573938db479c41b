/// A sink named in configuration, before it is opened: what ``EnvironmentConfiguration``
/// parses from `BINDING_DIAGNOSTICS` and the configuration file, without touching the system.
///
/// Make one with a built-in sink's constructor, ``standardError(_:)``,
/// ``jsonLines(path:options:)``, ``journald``, ``osLog``, ``platformDefault`` or ``none``, and
/// compare them with `==`: two specifications are equal when they name the same sink with the
/// same settings. The configuration's sink registry makes one per row, so a new built-in sink
/// adds no case here. (Before 3.0 this was an enum; see <doc:Migrating>.)
public struct SinkSpecification: Sendable, Hashable, CustomStringConvertible {
  /// How configuration writes the sink: `stderr:human`, `jsonl:/var/log/app.jsonl`,
  /// `journald`, `none`; `default` for ``platformDefault``.
  public let description: String
  /// What tells two specifications written the same way apart (a file sink's options).
  private let settings: any Hashable & Sendable
  /// Opens the sink.
  private let opener: @Sendable () -> (sink: (any DiagnosticsSink)?, warning: String?)

  /// A specification; the registry's rows and the constructors below make them.
  /// - Parameters:
  ///   - description: How configuration writes the sink.
  ///   - settings: What tells two specifications written the same way apart.
  ///   - open: Opens the sink: a sink or none, and at most one warning line.
  package init(
    description: String, settings: some Hashable & Sendable = 0,
    open: @escaping @Sendable () -> (sink: (any DiagnosticsSink)?, warning: String?)
  ) {
    self.description = description
    self.settings = settings
    self.opener = open
  }

  /// Opens the sink: the only step of configuration that touches files or sockets.
  /// - Returns: The sink (`nil` for ``none``), and one warning line when it fell back to
  ///   standard error (a file that cannot be opened).
  public func open() -> (sink: (any DiagnosticsSink)?, warning: String?) { opener() }

  /// Whether both name the same sink with the same settings.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.description == rhs.description && AnyHashable(lhs.settings) == AnyHashable(rhs.settings)
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(description)
    hasher.combine(AnyHashable(settings))
  }
}

extension SinkSpecification {
  /// ``StandardErrorSink`` in a format, or chosen for the descriptor when `nil` (`stderr`,
  /// `stderr:human`, `stderr:logfmt`, `stderr:json`).
  public static func standardError(_ format: StandardErrorSink.Format?) -> Self {
    Self(description: "stderr" + (format.map { ":" + $0.rawValue } ?? "")) {
      (StandardErrorSink(format: format), nil)
    }
  }

  /// ``JSONLinesFileSink`` at `path` (`jsonl:PATH`, or an object in the file); standard error,
  /// with one warning, when the file cannot be opened.
  public static func jsonLines(path: String, options: JSONLinesFileSink.Options) -> Self {
    Self(description: "jsonl:" + path, settings: options) {
      switch JSONLinesFileSink.open(path: path, options: options) {
      case .success(let sink): (sink, nil)
      case .failure(let error): (StandardErrorSink(), "jsonl:\(path): \(error); using stderr")
      }
    }
  }

  /// ``JournaldSink`` (`journald`).
  public static var journald: Self { Self(description: "journald") { (JournaldSink(), nil) } }

  /// The unified log, `OSLogSink` (`oslog`, Apple platforms): the default sink.
  public static var osLog: Self {
    Self(description: "oslog") { (DiagnosticsConfiguration.defaultSink, nil) }
  }

  /// ``DiagnosticsConfiguration/defaultSink``, when no sink is named.
  public static var platformDefault: Self {
    Self(description: "default") { (DiagnosticsConfiguration.defaultSink, nil) }
  }

  /// Nothing (`none`).
  public static var none: Self { Self(description: "none") { (nil, nil) } }
}
