/// What the environment and the configuration file describe, as data: parsed, checked, and not
/// yet opened. ``EnvironmentConfiguration/specification(environment:readFile:)`` makes one without
/// touching the system; ``open()`` opens its sinks.
public struct ConfigurationSpecification: Sendable, Hashable {
  /// How values appear, by name.
  public enum Privacy: String, Sendable, Hashable, CaseIterable {
    /// `<private>` (``ValuePrivacy/private``).
    case `private`
    /// `hash:` and 16 hex digits (``ValuePrivacy/hash(key:)``).
    case hash
    /// `String(describing:)` (``ValuePrivacy/public``).
    case `public`
  }

  /// The sinks, in order, without repeats; ``SinkSpecification/platformDefault`` by default.
  public var sinks: [SinkSpecification] = [.platformDefault]
  /// `private` by default.
  public var privacy: Privacy = .private
  /// The SipHash key for `hash`; a random one per process when `nil`.
  public var hashKey: HashKey?
  /// `10/1` by default; `nil` is off.
  public var rateLimit: RateLimit? = .default
  /// `trace` (everything) by default.
  public var minimumLevel: MisuseLevel = .trace
  /// `automatic` by default.
  public var policy: MisusePolicy = .automatic
  /// Seconds between `run-heartbeat` records; 60 by default, 0 for none.
  public var heartbeatInterval: Double = 60
  /// Seconds the end of the process waits for the sinks; 1 by default.
  public var exitDeadline: Double = 1
  /// Entries the journald sink queues for journald; 8192 by default.
  public var journaldQueue: Int = 8192
  /// Whether writes from another thread through bindings made on the main thread are reported
  /// (``MisuseKind/setOffMainThread``); `true` (`on`) by default.
  public var checksMainThread = true

  /// The defaults.
  public init() {}

  /// Opens the sinks and makes the configuration.
  /// - Returns: The configuration, and one warning line per sink that fell back to standard
  ///   error.
  public func open() -> (configuration: DiagnosticsConfiguration, warnings: [String]) {
    var opened: [any DiagnosticsSink] = []
    var warnings: [String] = []
    for specification in sinks {
      let (sink, warning) =
        specification == .journald
        ? (JournaldSink(queueCapacity: journaldQueue), nil) : specification.open()
      if let sink { opened.append(sink) }
      if let warning { warnings.append(warning) }
    }
    let sink: any DiagnosticsSink =
      switch opened.count {
      case 0: DiscardingSink()
      case 1: opened[0]
      default: MultiplexSink(opened)
      }
    let valuePrivacy: ValuePrivacy =
      switch privacy {
      case .private: .private
      case .hash: .hash(key: hashKey ?? .random())
      case .public: .public
      }
    var configuration = DiagnosticsConfiguration(
      sink: sink, privacy: valuePrivacy, rateLimit: rateLimit, minimumLevel: minimumLevel,
      policy: policy, heartbeatInterval: heartbeatInterval, exitDeadline: exitDeadline)
    configuration.checksMainThread = checksMainThread
    return (configuration, warnings)
  }
}
