import Foundation

/// Reads the environment's variables and the configuration file's model into a
/// ``ConfigurationSpecification``, with one warning line per mistake. No I/O: the file's bytes
/// are handed in.
struct ConfigurationParser {
  var specification = ConfigurationSpecification()
  var warnings: [String] = []

  /// Every variable the library reads.
  static let variables = [
    EnvironmentConfiguration.sinksVariable, EnvironmentConfiguration.fileVariable,
    "BINDING_DIAGNOSTICS_PRIVACY", "BINDING_DIAGNOSTICS_HASH_KEY",
    "BINDING_DIAGNOSTICS_RATE_LIMIT", "BINDING_DIAGNOSTICS_MIN_LEVEL",
    "BINDING_DIAGNOSTICS_POLICY", "BINDING_DIAGNOSTICS_SIGNALS", "BINDING_DIAGNOSTICS_WRITER",
    "BINDING_DIAGNOSTICS_MAIN_THREAD_CHECK",
  ] + ConfigurationParser.endOfRunVariables.map(\.variable) + [
    // Read by the package's own tests of BindingDiagnosticsTesting.
    "BINDING_DIAGNOSTICS_TESTING_FIXTURES",
  ]

  /// The file's top-level keys.
  static let fileKeys =
    ["sinks", "privacy", "hash_key", "rate_limit", "min_level", "policy", "main_thread_check"]
    + ConfigurationParser.endOfRunVariables.map(\.key)

  /// A `jsonl` sink object's keys.
  static let fileSinkKeys = [
    "type", "path", "max_bytes", "keep", "queue_capacity", "fsync", "synchronous",
  ]

  // MARK: The environment

  /// Applies every variable the library reads, and names once each that looks like one of them
  /// but is not (`BINDING_DIAGNOSTIC`, `BINDING_DIAGNOSTICS_PRIVCY`).
  mutating func applyEnvironment(_ environment: [String: String]) {
    for name in environment.keys.sorted() where !Self.variables.contains(name) {
      let hint = NameSuggestion.hint(for: name, in: Self.variables, quoted: false)
      if name.hasPrefix("BINDING_DIAGNOSTICS") || !hint.isEmpty {
        warnings.append("\(name): unknown variable\(hint); ignored")
      }
    }
    if let value = environment[EnvironmentConfiguration.sinksVariable] {
      parseSinkList(value, source: EnvironmentConfiguration.sinksVariable)
    }
    if let value = environment["BINDING_DIAGNOSTICS_PRIVACY"] {
      parsePrivacy(value, source: "BINDING_DIAGNOSTICS_PRIVACY")
    }
    if let value = environment["BINDING_DIAGNOSTICS_HASH_KEY"] {
      parseHashKey(value, source: "BINDING_DIAGNOSTICS_HASH_KEY")
    }
    if let value = environment["BINDING_DIAGNOSTICS_RATE_LIMIT"] {
      parseRateLimit(value, source: "BINDING_DIAGNOSTICS_RATE_LIMIT")
    }
    if let value = environment["BINDING_DIAGNOSTICS_MIN_LEVEL"] {
      parseLevel(value, source: "BINDING_DIAGNOSTICS_MIN_LEVEL")
    }
    if let value = environment["BINDING_DIAGNOSTICS_POLICY"] {
      parsePolicy(value, source: "BINDING_DIAGNOSTICS_POLICY")
    }
    applyEndOfRunVariables(environment)
    if let value = environment["BINDING_DIAGNOSTICS_MAIN_THREAD_CHECK"] {
      parseMainThreadCheck(value, source: "BINDING_DIAGNOSTICS_MAIN_THREAD_CHECK")
    }
  }

  // MARK: The file

  /// Applies the file's keys in sorted order. A top-level key with a key written twice in it (or
  /// written twice itself) is not applied: which of the two was meant is unknown, so the setting
  /// keeps its default, and each repeat is named with its line and column.
  mutating func applyFile(_ file: ConfigurationFile, path: String) {
    for duplicate in file.duplicateKeys {
      let inside = duplicate.isTopLevel ? "" : " (in \"\(duplicate.topLevelKey)\")"
      warnings.append(
        "\(path): line \(duplicate.line), column \(duplicate.column): key \"\(duplicate.key)\"\(inside) repeats the one at line \(duplicate.firstLine), column \(duplicate.firstColumn); \"\(duplicate.topLevelKey)\" ignored, using its default"
      )
    }
    let repeated = Set(file.duplicateKeys.map(\.topLevelKey))
    for (key, value) in file.entries.map({ ($0.key, $0.value) }) where !repeated.contains(key) {
      let place = "\(path): key \"\(key)\""
      switch key {
      case "sinks":
        parseSinkArray(value, source: place)
      case "privacy", "hash_key", "rate_limit", "min_level", "policy", "main_thread_check":
        guard case .string(let text) = value else {
          warnings.append("\(place): expected a string; ignored")
          continue
        }
        switch key {
        case "privacy": parsePrivacy(text, source: place)
        case "hash_key": parseHashKey(text, source: place)
        case "rate_limit": parseRateLimit(text, source: place)
        case "min_level": parseLevel(text, source: place)
        case "main_thread_check": parseMainThreadCheck(text, source: place)
        default: parsePolicy(text, source: place)
        }
      case "$comment":
        continue
      case _ where Self.endOfRunVariables.contains { $0.key == key }:
        parseEndOfRun(key: key, value, source: place)
      default:
        let hint = NameSuggestion.hint(for: key, in: Self.fileKeys)
        warnings.append("\(place): unknown key\(hint); ignored")
      }
    }
  }

  // MARK: Sinks

  mutating func parseSinkList(_ text: String, source: String) {
    let entries = Self.sinkListEntries(text).map { $0.trimmingCharacters(in: .whitespaces) }
    setSinks(entries.filter { !$0.isEmpty }.map { sink(fromText: $0, source: source) })
  }

  /// `BINDING_DIAGNOSTICS` split at its commas. A backslash escapes a comma (`\,`, a comma in a
  /// path) or a backslash (`\\`); before any other character it is kept as written, so a value
  /// without `\,` or `\\` reads as it always did.
  static func sinkListEntries(_ text: String) -> [String] {
    var entries: [String] = []
    var current = ""
    var escaped = false
    for character in text {
      if escaped {
        if character != "," && character != "\\" { current.append("\\") }
        current.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "," {
        entries.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    if escaped { current.append("\\") }
    entries.append(current)
    return entries
  }

  mutating func parseSinkArray(_ value: ConfigurationFile.Value, source: String) {
    guard case .array(let array) = value else {
      warnings.append("\(source): expected an array of sinks; using stderr")
      setSinks([.standardError(nil)])
      return
    }
    var sinks: [SinkSpecification] = []
    for (index, element) in array.enumerated() {
      let place = "\(source)[\(index)]"
      switch element {
      case .string(let text): sinks.append(sink(fromText: text, source: place))
      case .object(let object): sinks.append(sink(fromObject: object, source: place))
      default:
        warnings.append("\(place): expected a string or an object; using stderr")
        sinks.append(.standardError(nil))
      }
    }
    setSinks(sinks)
  }

  mutating func setSinks(_ sinks: [SinkSpecification]) {
    var unique: [SinkSpecification] = []
    for sink in sinks where !unique.contains(sink) { unique.append(sink) }
    specification.sinks = unique.isEmpty ? [.standardError(nil)] : unique
  }

  /// The sink `text` names (``SinkRegistry``), or standard error with one warning: an unknown
  /// name, one this platform does not have, or a missing argument.
  mutating func sink(fromText text: String, source: String) -> SinkSpecification {
    switch SinkRegistry.lookUp(text) {
    case .found(let specification):
      return specification
    case .unavailable(let problem), .missingArgument(let problem), .unknown(let problem):
      warnings.append("\(source): \(problem)")
      return .standardError(nil)
    }
  }

  mutating func sink(
    fromObject object: [ConfigurationFile.Member], source: String
  ) -> SinkSpecification {
    let fields = Dictionary(object.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
    guard case .string(let type) = fields["type"] else {
      warnings.append("\(source): a sink object needs \"type\"; using stderr")
      return .standardError(nil)
    }
    guard type == "jsonl" else {
      for key in object.map(\.key) where key != "type" {
        warnings.append("\(source).\(key): only a jsonl sink takes more than \"type\"; ignored")
      }
      return sink(fromText: type, source: source)
    }
    guard case .string(let path) = fields["path"], !path.isEmpty else {
      warnings.append("\(source): a jsonl sink needs \"path\"; using stderr")
      return .standardError(nil)
    }
    var options = JSONLinesFileSink.Options()
    for (key, value) in object.map({ ($0.key, $0.value) }) where key != "type" && key != "path" {
      let place = "\(source).\(key)"
      switch (key, value) {
      case ("max_bytes", .integer(let number)) where number > 0:
        options.maxBytes = number
      case ("max_bytes", _):
        warnings.append("\(place): expected a positive integer; ignored")
      case ("keep", .integer(let number)) where number >= 1:
        options.keep = number
      case ("queue_capacity", .integer(let number)) where number >= 1:
        options.queueCapacity = number
      case ("keep", _), ("queue_capacity", _):
        warnings.append("\(place): expected an integer of at least 1; ignored")
      case ("fsync", .string(let text)) where JSONLinesFileSink.FsyncPolicy(rawValue: text) != nil:
        options.fsync = JSONLinesFileSink.FsyncPolicy(rawValue: text)!
      case ("fsync", _):
        warnings.append("\(place): expected never, flush or always; ignored")
      case ("synchronous", .bool(let flag)):
        options.synchronous = flag
      case ("synchronous", _):
        warnings.append("\(place): expected true or false; ignored")
      default:
        let hint = NameSuggestion.hint(for: key, in: Self.fileSinkKeys)
        warnings.append("\(place): unknown key\(hint); ignored")
      }
    }
    return .jsonLines(path: path, options: options)
  }

  // MARK: Settings

  mutating func parsePrivacy(_ text: String, source: String) {
    guard let privacy = ConfigurationSpecification.Privacy(rawValue: text) else {
      let hint = NameSuggestion.hint(for: text, in: ["private", "hash", "public"])
      warnings.append(
        "\(source): expected private, hash or public, got \"\(text)\"\(hint); using private")
      specification.privacy = .private
      return
    }
    specification.privacy = privacy
  }

  mutating func parseHashKey(_ text: String, source: String) {
    guard let key = HashKey(hex: text) else {
      warnings.append("\(source): expected 32 hex digits; using a random per-process key")
      return
    }
    specification.hashKey = key
  }

  mutating func parseRateLimit(_ text: String, source: String) {
    if text == "off" {
      specification.rateLimit = nil
    } else if let limit = RateLimit(parsing: text) {
      specification.rateLimit = limit
    } else {
      warnings.append("\(source): expected off or BURST/SECONDS, got \"\(text)\"; using 10/1")
      specification.rateLimit = .default
    }
  }

  /// A level by its name, or as journalctl takes a priority: `emerg`, `alert`, `crit`, `err`,
  /// `warn`, or a number 0–7 (7 is everything: `trace` and `debug` are both priority 7).
  static func level(_ text: String) -> MisuseLevel? {
    if let level = MisuseLevel(rawValue: text) { return level }
    switch text {
    case "emerg", "alert", "crit", "0", "1", "2": return .critical
    case "err", "3": return .error
    case "warn", "4": return .warning
    case "5": return .notice
    case "6": return .info
    case "7": return .trace
    default: return nil
    }
  }

  mutating func parseLevel(_ text: String, source: String) {
    guard let level = Self.level(text) else {
      let names = MisuseLevel.allCases.map(\.rawValue)
      let hint = NameSuggestion.hint(for: text, in: names)
      warnings.append(
        "\(source): expected one of \(names.joined(separator: ", ")) (or as journalctl: emerg, alert, crit, err, warn, 0-7), got \"\(text)\"\(hint); using trace"
      )
      specification.minimumLevel = .trace
      return
    }
    specification.minimumLevel = level
  }

  mutating func parsePolicy(_ text: String, source: String) {
    guard let policy = MisusePolicy(rawValue: text) else {
      let hint = NameSuggestion.hint(for: text, in: MisusePolicy.allCases.map(\.rawValue))
      warnings.append(
        "\(source): expected automatic, report, assert, fail-tests or break, got \"\(text)\"\(hint); using automatic"
      )
      specification.policy = .automatic
      return
    }
    specification.policy = policy
  }

  mutating func parseMainThreadCheck(_ text: String, source: String) {
    switch text {
    case "on": specification.checksMainThread = true
    case "off": specification.checksMainThread = false
    default:
      let hint = NameSuggestion.hint(for: text, in: ["on", "off"])
      warnings.append("\(source): expected on or off, got \"\(text)\"\(hint); using on")
      specification.checksMainThread = true
    }
  }
}
