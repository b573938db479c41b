import Foundation

/// Builds a ``DiagnosticsConfiguration`` from environment variables and an optional JSON file.
///
/// Variables (each overrides the file):
/// - `BINDING_DIAGNOSTICS`: comma-separated sinks `stderr` (short lines on a terminal, logfmt
///   elsewhere), `stderr:human`, `stderr:logfmt`, `stderr:json`, `jsonl:PATH`, `journald`,
///   `oslog` (Apple platforms), `none`; `\,` is a comma in a path and `\\` a backslash (any other
///   backslash is kept as written);
/// - `BINDING_DIAGNOSTICS_CONFIG`: path of a JSON configuration file;
/// - `BINDING_DIAGNOSTICS_PRIVACY`: `private`, `hash` or `public`;
/// - `BINDING_DIAGNOSTICS_HASH_KEY`: 32 hex digits, the SipHash key for `hash`;
/// - `BINDING_DIAGNOSTICS_RATE_LIMIT`: `off` or `BURST/SECONDS`;
/// - `BINDING_DIAGNOSTICS_MIN_LEVEL`: a level name, or as journalctl takes one (`warn`, `err`,
///   `crit`, `0`–`7`);
/// - `BINDING_DIAGNOSTICS_POLICY`: `automatic`, `report`, `assert`, `fail-tests` or `break`.
/// - `BINDING_DIAGNOSTICS_MAIN_THREAD_CHECK`: `on` or `off` (``MisuseKind/setOffMainThread``).
///
/// Configuration is read in two steps: ``specification(environment:readFile:)`` parses the
/// variables and the file into a ``ConfigurationSpecification`` (data, no I/O but the file's
/// bytes handed in), and ``ConfigurationSpecification/open()`` opens the sinks.
///
/// Every mistake gives exactly one warning naming the variable, or the file and key (a JSON
/// syntax error, or a key repeated in one object, with its line and column), and the setting
/// falls back to its default (`stderr` for sinks). An unknown key, or a variable that looks like
/// one of ours but is not (`BINDING_DIAGNOSTIC=journald`), is named with the closest valid name.
/// The file is refused whole when other users may write it (writable by every user, or owned by
/// a user other than the one running and other than root) or when it is over 64 KiB. At most
/// ten warnings are printed, then one line counting the rest. Nothing here throws or crashes.
public struct EnvironmentConfiguration: Sendable {
  /// The configuration the environment describes.
  public var configuration: DiagnosticsConfiguration
  /// One line per problem found, already written to standard error by ``load(from:warn:)``.
  public var warnings: [String]

  /// The environment variable naming the sinks.
  public static let sinksVariable = "BINDING_DIAGNOSTICS"
  /// The environment variable naming the configuration file.
  public static let fileVariable = "BINDING_DIAGNOSTICS_CONFIG"

  /// Reads `environment` (the process's by default) and the file it names, and opens the sinks.
  /// - Parameters:
  ///   - environment: Variables to read; the process's own when `nil`.
  ///   - warn: Whether to write each warning to standard error (one line each).
  /// - Returns: The configuration and its warnings.
  public static func load(
    from environment: [String: String]? = nil, warn: Bool = true
  ) -> EnvironmentConfiguration {
    let environment = environment ?? ProcessInfo.processInfo.environment
    let (specification, parseWarnings) = Self.specification(
      environment: environment, readChecked: { ConfigurationFile.read(atPath: $0) })
    let (configuration, openWarnings) = specification.open()
    let source =
      environment[sinksVariable] != nil
      ? sinksVariable : environment[fileVariable].map { "\(fileVariable)=\($0)" } ?? "default"
    let result = EnvironmentConfiguration(
      configuration: configuration,
      warnings: parseWarnings + openWarnings.map { "\(source): \($0)" })
    if warn {
      for warning in result.warnings.prefix(printedWarningLimit) {
        ConfigurationWarning.emit(warning)
      }
      let unprinted = result.warnings.count - printedWarningLimit
      if unprinted > 0 {
        ConfigurationWarning.emit(
          "\(unprinted) more configuration warning\(unprinted == 1 ? "" : "s") not shown")
      }
    }
    return result
  }

  /// The most warnings ``load(from:warn:)`` prints, one line each; a last line counts the rest.
  static let printedWarningLimit = 10

  /// Parses the variables and the file `BINDING_DIAGNOSTICS_CONFIG` names into a specification,
  /// without opening anything.
  /// - Parameters:
  ///   - environment: The variables.
  ///   - readFile: The bytes of the file at a path, or `nil` when it cannot be read.
  /// - Returns: What the configuration says, and one warning line per mistake.
  public static func specification(
    environment: [String: String], readFile: (String) -> [UInt8]?
  ) -> (specification: ConfigurationSpecification, warnings: [String]) {
    specification(environment: environment) { path in
      readFile(path).map { .success($0) } ?? .failure(.unreadable)
    }
  }

  /// ``specification(environment:readFile:)`` with a reader that says why a file is not read
  /// (``ConfigurationFile/read(atPath:userID:)``: refused permissions, too large).
  static func specification(
    environment: [String: String],
    readChecked: (String) -> Result<[UInt8], FileProblem>
  ) -> (specification: ConfigurationSpecification, warnings: [String]) {
    var parser = ConfigurationParser()
    if let path = environment[fileVariable], !path.isEmpty {
      let source = "\(fileVariable)=\(path)"
      switch readChecked(path).flatMap(decodeFile) {
      case .success(let file): parser.applyFile(file, path: path)
      case .failure(let problem): parser.warnings.append("\(source): \(problem); using defaults")
      }
    }
    parser.applyEnvironment(environment)
    return (parser.specification, parser.warnings)
  }

  /// A problem that makes the whole file unusable.
  struct FileProblem: Error, CustomStringConvertible {
    var description: String

    /// The file cannot be opened or read.
    static let unreadable = FileProblem(description: "cannot read the file")
    /// The file is over ``ConfigurationFile/maximumBytes``.
    static let tooLarge = FileProblem(
      description: "larger than \(ConfigurationFile.maximumBytes / 1024) KiB; refused")
  }

  /// The file's model, or what is wrong with it: too large, JSON syntax with line and column, or
  /// a top level that is not an object. Keys repeated in one object are found here too.
  static func decodeFile(_ bytes: [UInt8]) -> Result<ConfigurationFile, FileProblem> {
    guard bytes.count <= ConfigurationFile.maximumBytes else {
      return .failure(.tooLarge)
    }
    do {
      var file = try JSONDecoder().decode(ConfigurationFile.self, from: Data(bytes))
      file.duplicateKeys = ConfigurationFile.duplicateKeys(in: bytes)
      return .success(file)
    } catch DecodingError.typeMismatch {
      return .failure(FileProblem(description: "the top level must be an object"))
    } catch {
      return .failure(FileProblem(description: "not valid JSON" + position(ofErrorIn: bytes)))
    }
  }

  /// ` at line L, column C` where `JSONSerialization` stops reading `bytes`, or the empty string.
  static func position(ofErrorIn bytes: [UInt8]) -> String {
    let offset: Int
    do {
      _ = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
      return ""
    } catch {
      // Foundation says where: "… around character 22." (a byte offset from 0).
      let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
      guard let range = text.range(of: "character "),
        let found = Int(text[range.upperBound...].prefix { $0.isNumber })
      else { return "" }
      offset = min(found, bytes.count)
    }
    let before = bytes[..<offset]
    let line = before.count { $0 == UInt8(ascii: "\n") } + 1
    let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
    let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
    return " at line \(line), column \(column)"
  }
}
