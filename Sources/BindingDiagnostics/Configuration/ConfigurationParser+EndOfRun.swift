/// The settings of run records and of the end of the process: the heartbeat interval, the
/// exit deadline and journald's queue (the entries that may be waiting when the process ends).
extension ConfigurationParser {
  /// One setting: its file key, its variable, and what it takes.
  struct EndOfRunSetting {
    var key: String
    var variable: String
    /// Whole records (`true`), or seconds.
    var isCount: Bool
  }

  /// The settings, in the order they are read.
  static let endOfRunVariables = [
    EndOfRunSetting(
      key: "heartbeat_interval", variable: "BINDING_DIAGNOSTICS_HEARTBEAT_INTERVAL",
      isCount: false),
    EndOfRunSetting(
      key: "exit_deadline", variable: "BINDING_DIAGNOSTICS_EXIT_DEADLINE", isCount: false),
    EndOfRunSetting(
      key: "journald_queue", variable: "BINDING_DIAGNOSTICS_JOURNALD_QUEUE", isCount: true),
  ]

  /// Applies the variables of ``endOfRunVariables`` that are set.
  mutating func applyEndOfRunVariables(_ environment: [String: String]) {
    for setting in Self.endOfRunVariables {
      if let text = environment[setting.variable] {
        apply(setting, text, source: setting.variable)
      }
    }
  }

  /// Applies the file's `key` (a string, or an integer).
  mutating func parseEndOfRun(key: String, _ value: ConfigurationFile.Value, source: String) {
    guard let setting = Self.endOfRunVariables.first(where: { $0.key == key }) else { return }
    switch value {
    case .string(let text): apply(setting, text, source: source)
    case .integer(let number): apply(setting, String(number), source: source)
    default:
      warnings.append(
        "\(source): expected \(Self.expectation(setting)); using \(Self.defaultText(setting))")
    }
  }

  private mutating func apply(_ setting: EndOfRunSetting, _ text: String, source: String) {
    if setting.isCount {
      guard let count = Int(text), count >= 1, count <= 1 << 24 else {
        warnings.append(
          "\(source): expected \(Self.expectation(setting)), got \"\(text)\"; using \(Self.defaultText(setting))"
        )
        return
      }
      specification.journaldQueue = count
      return
    }
    guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 86_400,
      !text.contains(where: { $0.isLetter })
    else {
      warnings.append(
        "\(source): expected \(Self.expectation(setting)), got \"\(text)\"; using \(Self.defaultText(setting))"
      )
      return
    }
    if setting.key == "heartbeat_interval" {
      specification.heartbeatInterval = seconds
    } else {
      specification.exitDeadline = seconds
    }
  }

  private static func expectation(_ setting: EndOfRunSetting) -> String {
    switch setting.key {
    case "heartbeat_interval": "seconds (0 turns heartbeats off)"
    case "exit_deadline": "seconds"
    default: "an integer of at least 1"
    }
  }

  private static func defaultText(_ setting: EndOfRunSetting) -> String {
    switch setting.key {
    case "heartbeat_interval": "60"
    case "exit_deadline": "1"
    default: "8192"
    }
  }
}
