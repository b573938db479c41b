import Foundation

/// Builds a ``DiagnosticsConfiguration`` from environment variables and an optional JSON file.
///
/// Variables (each overrides the file):
/// - `BINDING_DIAGNOSTICS`: comma-separated sinks `stderr` (human lines on a terminal, logfmt
///   elsewhere), `stderr:human`, `stderr:logfmt`, `stderr:json`, `jsonl:PATH`,
///   `journald`, `oslog` (Apple platforms), `none`;
/// - `BINDING_DIAGNOSTICS_CONFIG`: path of a JSON configuration file;
/// - `BINDING_DIAGNOSTICS_PRIVACY`: `private`, `hash` or `public`;
/// - `BINDING_DIAGNOSTICS_HASH_KEY`: 32 hex digits, the SipHash key for `hash`;
/// - `BINDING_DIAGNOSTICS_RATE_LIMIT`: `off` or `BURST/SECONDS`;
/// - `BINDING_DIAGNOSTICS_MIN_LEVEL`: a level name;
/// - `BINDING_DIAGNOSTICS_POLICY`: `report`, `assert` or `fail-tests`.
///
/// Every problem gives one warning naming the variable, or the file and key, and the setting
/// falls back to its default (`stderr` for sinks). With no sink named, events go to
/// ``DiagnosticsConfiguration/defaultSink``: the unified log on Apple platforms, standard error
/// elsewhere. Nothing here throws or crashes.
public struct EnvironmentConfiguration: Sendable {
  /// The configuration the environment describes.
  public var configuration: DiagnosticsConfiguration
  /// One line per problem found, already written to standard error by ``load(from:warn:)``.
  public var warnings: [String]

  /// The environment variable naming the sinks.
  public static let sinksVariable = "BINDING_DIAGNOSTICS"
  /// The environment variable naming the configuration file.
  public static let fileVariable = "BINDING_DIAGNOSTICS_CONFIG"

  /// Reads `environment` (the process's by default) and the file it names.
  /// - Parameters:
  ///   - environment: Variables to read; the process's own when `nil`.
  ///   - warn: Whether to write each warning to standard error (one line each).
  /// - Returns: The configuration and its warnings.
  public static func load(
    from environment: [String: String]? = nil, warn: Bool = true
  ) -> EnvironmentConfiguration {
    let environment = environment ?? ProcessInfo.processInfo.environment
    var parser = Parser()
    if let path = environment[fileVariable], !path.isEmpty {
      parser.applyFile(path)
    }
    parser.applyEnvironment(environment)
    let result = EnvironmentConfiguration(
      configuration: parser.build(), warnings: parser.warnings)
    if warn {
      for warning in result.warnings { ConfigurationWarning.emit(warning) }
    }
    return result
  }

  /// Accumulates settings in the order file, then environment.
  private struct Parser {
    var sinkSpecs: [SinkSpec] = [.platformDefault]
    var sinkSource = "default"
    var privacyName = "private"
    var hashKey: HashKey?
    var rateLimit: RateLimit? = .default
    var minimumLevel: MisuseLevel = .trace
    var policy: MisusePolicy = .report
    var warnings: [String] = []

    mutating func applyEnvironment(_ environment: [String: String]) {
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
    }

    mutating func applyFile(_ path: String) {
      let source = "\(EnvironmentConfiguration.fileVariable)=\(path)"
      guard let data = FileManager.default.contents(atPath: path) else {
        warnings.append("\(source): cannot read the file; using defaults")
        return
      }
      let object: Any
      do {
        object = try JSONSerialization.jsonObject(with: data)
      } catch {
        warnings.append("\(source): not valid JSON; using defaults")
        return
      }
      guard let root = object as? [String: Any] else {
        warnings.append("\(source): the top level must be an object; using defaults")
        return
      }
      for key in root.keys.sorted() {
        let value = root[key]!
        let where_ = "\(path): key \"\(key)\""
        switch key {
        case "sinks":
          parseSinkArray(value, source: where_)
        case "privacy", "hash_key", "rate_limit", "min_level", "policy":
          guard let text = value as? String else {
            warnings.append("\(where_): expected a string; ignored")
            continue
          }
          switch key {
          case "privacy": parsePrivacy(text, source: where_)
          case "hash_key": parseHashKey(text, source: where_)
          case "rate_limit": parseRateLimit(text, source: where_)
          case "min_level": parseLevel(text, source: where_)
          default: parsePolicy(text, source: where_)
          }
        case "$comment":
          continue
        default:
          warnings.append("\(where_): unknown key; ignored")
        }
      }
    }

    mutating func parseSinkList(_ text: String, source: String) {
      let entries = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      var specs: [SinkSpec] = []
      for entry in entries where !entry.isEmpty {
        specs.append(sinkSpec(fromText: entry, source: source))
      }
      setSinks(specs, source: source)
    }

    mutating func parseSinkArray(_ value: Any, source: String) {
      guard let array = value as? [Any] else {
        warnings.append("\(source): expected an array of sinks; using stderr")
        setSinks([.standardError(nil)], source: source)
        return
      }
      var specs: [SinkSpec] = []
      for (index, element) in array.enumerated() {
        let place = "\(source)[\(index)]"
        if let text = element as? String {
          specs.append(sinkSpec(fromText: text, source: place))
        } else if let object = element as? [String: Any] {
          specs.append(sinkSpec(fromObject: object, source: place))
        } else {
          warnings.append("\(place): expected a string or an object; using stderr")
          specs.append(.standardError(nil))
        }
      }
      setSinks(specs, source: source)
    }

    mutating func setSinks(_ specs: [SinkSpec], source: String) {
      var unique: [SinkSpec] = []
      for spec in specs where !unique.contains(spec) { unique.append(spec) }
      sinkSpecs = unique.isEmpty ? [.standardError(nil)] : unique
      sinkSource = source
    }

    mutating func sinkSpec(fromText text: String, source: String) -> SinkSpec {
      switch text {
      case "stderr": return .standardError(nil)
      case "stderr:logfmt": return .standardError(.logfmt)
      case "stderr:human": return .standardError(.human)
      case "stderr:json": return .standardError(.jsonLines)
      case "journald": return .journald
      case "oslog":
        #if canImport(os)
          return .osLog
        #else
          warnings.append(
            "\(source): oslog: the unified log exists on Apple platforms only; using stderr")
          return .standardError(nil)
        #endif
      case "none": return .none
      default:
        if text.hasPrefix("jsonl:") {
          let path = String(text.dropFirst("jsonl:".count))
          if !path.isEmpty { return .jsonLines(path: path, options: JSONLinesFileSink.Options()) }
          warnings.append("\(source): jsonl needs a path (jsonl:PATH); using stderr")
        } else {
          warnings.append(
            "\(source): unknown sink \"\(text)\" (expected stderr, stderr:human, stderr:logfmt, stderr:json, jsonl:PATH, journald, oslog or none); using stderr"
          )
        }
        return .standardError(nil)
      }
    }

    mutating func sinkSpec(fromObject object: [String: Any], source: String) -> SinkSpec {
      guard let type = object["type"] as? String else {
        warnings.append("\(source): a sink object needs \"type\"; using stderr")
        return .standardError(nil)
      }
      switch type {
      case "jsonl":
        guard let path = object["path"] as? String, !path.isEmpty else {
          warnings.append("\(source): a jsonl sink needs \"path\"; using stderr")
          return .standardError(nil)
        }
        var options = JSONLinesFileSink.Options()
        for (key, value) in object where key != "type" && key != "path" {
          let place = "\(source).\(key)"
          switch key {
          case "max_bytes":
            guard let number = value as? Int, number > 0 else {
              warnings.append("\(place): expected a positive integer; ignored")
              continue
            }
            options.maxBytes = number
          case "keep":
            guard let number = value as? Int, number >= 1 else {
              warnings.append("\(place): expected an integer of at least 1; ignored")
              continue
            }
            options.keep = number
          case "queue_capacity":
            guard let number = value as? Int, number >= 1 else {
              warnings.append("\(place): expected an integer of at least 1; ignored")
              continue
            }
            options.queueCapacity = number
          case "fsync":
            guard let text = value as? String,
              let policy = JSONLinesFileSink.FsyncPolicy(rawValue: text)
            else {
              warnings.append("\(place): expected never, flush or always; ignored")
              continue
            }
            options.fsync = policy
          case "synchronous":
            guard let flag = value as? Bool else {
              warnings.append("\(place): expected true or false; ignored")
              continue
            }
            options.synchronous = flag
          default:
            warnings.append("\(place): unknown key; ignored")
          }
        }
        return .jsonLines(path: path, options: options)
      default:
        return sinkSpec(fromText: type, source: source)
      }
    }

    mutating func parsePrivacy(_ text: String, source: String) {
      guard ["private", "hash", "public"].contains(text) else {
        warnings.append(
          "\(source): expected private, hash or public, got \"\(text)\"; using private")
        privacyName = "private"
        return
      }
      privacyName = text
    }

    mutating func parseHashKey(_ text: String, source: String) {
      guard let key = HashKey(hex: text) else {
        warnings.append("\(source): expected 32 hex digits; using a random per-process key")
        return
      }
      hashKey = key
    }

    mutating func parseRateLimit(_ text: String, source: String) {
      if text == "off" {
        rateLimit = nil
      } else if let limit = RateLimit(parsing: text) {
        rateLimit = limit
      } else {
        warnings.append("\(source): expected off or BURST/SECONDS, got \"\(text)\"; using 10/1")
        rateLimit = .default
      }
    }

    mutating func parseLevel(_ text: String, source: String) {
      guard let level = MisuseLevel(rawValue: text) else {
        warnings.append(
          "\(source): expected one of \(MisuseLevel.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(text)\"; using trace"
        )
        minimumLevel = .trace
        return
      }
      minimumLevel = level
    }

    mutating func parsePolicy(_ text: String, source: String) {
      guard let policy = MisusePolicy(rawValue: text) else {
        warnings.append(
          "\(source): expected report, assert or fail-tests, got \"\(text)\"; using report")
        self.policy = .report
        return
      }
      self.policy = policy
    }

    mutating func build() -> DiagnosticsConfiguration {
      let privacy: ValuePrivacy =
        switch privacyName {
        case "hash": .hash(key: hashKey ?? .random())
        case "public": .public
        default: .private
        }
      var sinks: [any DiagnosticsSink] = []
      for spec in sinkSpecs {
        switch spec {
        case .standardError(let format):
          sinks.append(StandardErrorSink(format: format))
        case .none:
          continue
        case .journald:
          sinks.append(JournaldSink())
        case .osLog, .platformDefault:
          sinks.append(DiagnosticsConfiguration.defaultSink)
        case .jsonLines(let path, let options):
          switch JSONLinesFileSink.open(path: path, options: options) {
          case .success(let sink): sinks.append(sink)
          case .failure(let error):
            let line = "\(sinkSource): jsonl:\(path): \(error); using stderr"
            warnings.append(line)
            sinks.append(StandardErrorSink())
          }
        }
      }
      let sink: any DiagnosticsSink =
        switch sinks.count {
        case 0: DiscardingSink()
        case 1: sinks[0]
        default: MultiplexSink(sinks)
        }
      return DiagnosticsConfiguration(
        sink: sink, privacy: privacy, rateLimit: rateLimit, minimumLevel: minimumLevel,
        policy: policy)
    }
  }

  /// A sink named in configuration, before it is opened.
  private enum SinkSpec: Equatable {
    case standardError(StandardErrorSink.Format?)
    case jsonLines(path: String, options: JSONLinesFileSink.Options)
    case journald
    /// The unified log (`OSLogSink`), named as `oslog` on Apple platforms.
    case osLog
    /// ``DiagnosticsConfiguration/defaultSink``, when no sink is named.
    case platformDefault
    case none
  }
}
