import BindingDiagnostics

/// `--format sarif`: a SARIF 2.1.0 log for code scanning (GitHub, GitLab, IDE viewers). One
/// result per call site, one rule per kind with the journald catalog's explanation as help,
/// fingerprints stable across runs, and the run's lost and malformed counts on the invocation.
/// A result's location is the site that made the binding (what fingerprints and baselines key
/// on); the writers its records carry (where the misusing calls were made) are its
/// `relatedLocations` and its `writers` property, and its events its `occurrenceCount`.
package struct SARIFRenderer: Sendable {
  /// The schema the log names in `$schema`: the OASIS SARIF 2.1.0 schema with errata 01.
  package static let schemaURI =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
  /// The `partialFingerprints` key; its value is the site's ``SiteIdentity/fingerprint(source:)``
  /// (kind, `#fileID`, function, label and, with a source root, the source line's hash), the
  /// same in every run and after edits above the site.
  package static let fingerprintKey = "bindiagSite/v2"
  /// The base id the result URIs are relative to.
  package static let sourceRootBaseID = "%SRCROOT%"

  /// The tool version written in `tool.driver.version`.
  package var toolVersion: String
  /// At most this many results (all when `nil`).
  package var top: Int?
  /// Each `#fileID`'s path relative to the source root; a `#fileID` not in it is written as it
  /// is when it is a plain relative path (``SourceRootResolver/relativePath(_:)``), and as a
  /// logical location (no file) otherwise.
  package var paths: [String: String]
  /// The source root as an absolute directory path, written as where `%SRCROOT%` was.
  package var sourceRoot: String?
  /// Whether every input could be read (`invocations[0].executionSuccessful`).
  package var executionSuccessful: Bool
  /// The source line hashes by site (``SourceLineHash``), when a source root was given.
  package var sources: [SiteKey: String]

  /// A renderer.
  /// - Parameters:
  ///   - toolVersion: The `bindiag` version.
  ///   - top: The result limit, or `nil` for all.
  ///   - paths: Resolved paths by `#fileID` (see ``SourceRootResolver``).
  ///   - sourceRoot: The source root's absolute path, or `nil` when none was given.
  ///   - executionSuccessful: Whether every input could be read.
  ///   - sources: Source line hashes by site, for the fingerprints.
  package init(
    toolVersion: String, top: Int? = nil, paths: [String: String] = [:],
    sourceRoot: String? = nil, executionSuccessful: Bool = true, sources: [SiteKey: String] = [:]
  ) {
    self.sources = sources
    self.toolVersion = toolVersion
    self.top = top
    self.paths = paths
    self.sourceRoot = sourceRoot
    self.executionSuccessful = executionSuccessful
  }

  /// The log as indented JSON and a newline. Groups must be keyed by site (kind, file, line);
  /// other groups are left out.
  /// - Parameter summary: The summary.
  package func render(_ summary: Summary) -> String {
    let sites = summary.groups.prefix(top ?? Int.max).compactMap { group in
      summary.site(of: group).map { (group, $0) }
    }
    let kinds = Set(sites.map(\.1.kind)).sorted {
      $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars)
    }
    let ruleIndex = Dictionary(uniqueKeysWithValues: kinds.enumerated().map { ($1, $0) })
    var run: [(String, JSONValue)] = [
      (
        "tool",
        .object([
          (
            "driver",
            .object([
              ("name", .string("bindiag")),
              ("version", .string(toolVersion)),
              ("rules", .array(kinds.map(SARIFRenderer.rule))),
            ])
          )
        ])
      ),
      ("invocations", .array([invocation(summary)])),
    ]
    if let sourceRoot {
      run.append(
        (
          "originalUriBaseIds",
          .object([
            (
              SARIFRenderer.sourceRootBaseID,
              .object([("uri", .string(SARIFRenderer.directoryURI(sourceRoot)))])
            )
          ])
        ))
    }
    run.append(
      ("results", .array(sites.map { result($0.0, site: $0.1, ruleIndex: ruleIndex[$0.1.kind]!) })))
    let log = JSONValue.object([
      ("$schema", .string(SARIFRenderer.schemaURI)),
      ("version", .string("2.1.0")),
      ("runs", .array([.object(run)])),
    ])
    return log.prettyText()
  }

  /// One `reportingDescriptor`: the catalog's text for a built-in kind.
  static func rule(_ kind: String) -> JSONValue {
    var members: [(String, JSONValue)] = [("id", .string(kind))]
    if let entry = MessageCatalog.entry(for: kind) {
      let paragraphs = entry.paragraphs
      members += [
        ("name", .string(upperCamelCase(kind))),
        ("shortDescription", .object([("text", .string(entry.headline))])),
        ("fullDescription", .object([("text", .string(paragraphs.first ?? entry.headline))])),
        (
          "help",
          .object([
            ("text", .string(paragraphs.joined(separator: "\n\n"))),
            ("markdown", .string(paragraphs.joined(separator: "\n\n"))),
          ])
        ),
        ("defaultConfiguration", .object([("level", .string(level(entry.kind.defaultLevel)))])),
        ("properties", .object([("messageId", .string(entry.kind.messageID))])),
      ]
    } else {
      let text = "The application's own misuse kind \(kind), reported through BindingDiagnostics."
      members += [
        ("name", .string(upperCamelCase(kind))),
        ("shortDescription", .object([("text", .string(text))])),
        ("help", .object([("text", .string(text))])),
      ]
    }
    return .object(members)
  }

  private func invocation(_ summary: Summary) -> JSONValue {
    .object([
      ("executionSuccessful", .bool(executionSuccessful)),
      (
        "properties",
        .object([
          ("events", .decimal(summary.events)),
          ("records", .decimal(summary.records)),
          ("lost", .decimal(summary.lost)),
          ("duplicates", .decimal(summary.duplicates)),
          ("malformed", .decimal(summary.malformed)),
          ("other", .decimal(summary.other)),
        ])
      ),
    ])
  }

  /// A result's location: the file (relative to `%SRCROOT%`) and line, or a logical location
  /// named after a `#fileID` that is not a plain relative path.
  private func location(fileID: String, line: Int) -> [(String, JSONValue)] {
    if let path = SourceRootResolver.relativePath(paths[fileID] ?? fileID) {
      var physical: [(String, JSONValue)] = [
        (
          "artifactLocation",
          .object([
            ("uri", .string(SARIFRenderer.uriReference(path))),
            ("uriBaseId", .string(SARIFRenderer.sourceRootBaseID)),
          ])
        )
      ]
      if line >= 1 {
        physical.append(("region", .object([("startLine", .decimal(line))])))
      }
      return [("physicalLocation", .object(physical))]
    }
    return [("logicalLocations", .array([.object([("name", .string(fileID))])]))]
  }

  private func result(_ group: Summary.Group, site: SiteKey, ruleIndex: Int) -> JSONValue {
    let location = JSONValue.object(location(fileID: site.file, line: site.line))
    // The writers (where the misusing calls were made), each a related location.
    let related = group.writers.enumerated().compactMap { index, writer -> JSONValue? in
      guard let place = SiteMessage.location(ofWriter: writer) else { return nil }
      return .object(
        [("id", .decimal(index))] + self.location(fileID: place.fileID, line: place.line)
          + [("message", .object([("text", .string("called from \(writer)"))]))])
    }
    var properties: [(String, JSONValue)] = [
      ("fileID", .string(site.file)),
      ("events", .decimal(group.events)),
      ("records", .decimal(group.records)),
      ("first", .string(group.first.rfc3339)),
      ("last", .string(group.last.rfc3339)),
      ("processes", .strings(group.processes)),
      ("hosts", .strings(group.hosts)),
    ]
    if !group.labels.isEmpty { properties.append(("labels", .strings(group.labels))) }
    if !group.writers.isEmpty { properties.append(("writers", .strings(group.writers))) }
    var members: [(String, JSONValue)] = [
      ("ruleId", .string(site.kind)),
      ("ruleIndex", .decimal(ruleIndex)),
      ("level", .string(SARIFRenderer.level(group.mostSevereLevel ?? .warning))),
      ("message", .object([("text", .string(SiteMessage.text(group, kind: site.kind)))])),
      ("locations", .array([location])),
    ]
    if !related.isEmpty { members.append(("relatedLocations", .array(related))) }
    members += [
      (
        "partialFingerprints",
        .object([
          (
            SARIFRenderer.fingerprintKey,
            .string(SiteIdentity(site, group: group).fingerprint(source: sources[site]))
          )
        ])
      ),
      ("occurrenceCount", .decimal(max(1, group.events))),
      ("properties", .object(properties)),
    ]
    return .object(members)
  }

  /// SARIF's level for an event level: `error` for error and critical, `warning`, else `note`.
  static func level(_ level: MisuseLevel) -> String {
    switch level {
    case .critical, .error: "error"
    case .warning: "warning"
    case .notice, .info, .debug, .trace: "note"
    }
  }

  /// `mapped-bool-set-true` → `MappedBoolSetTrue`.
  static func upperCamelCase(_ code: String) -> String {
    code.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
  }

  /// A relative path as a URI reference: every byte but unreserved characters and `/`
  /// percent-encoded, so spaces, `%`, `#`, `?` and a `:` in the first segment stay path.
  static func uriReference(_ path: String) -> String {
    var out = ""
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        out.unicodeScalars.append("%")
        out.unicodeScalars.append(hex[Int(byte >> 4)])
        out.unicodeScalars.append(hex[Int(byte & 0xf)])
      }
    }
    return out
  }

  /// An absolute directory path as a `file:` URI ending in `/`.
  static func directoryURI(_ path: String) -> String {
    let encoded = uriReference(path)
    return "file://" + encoded + (encoded.hasSuffix("/") ? "" : "/")
  }
}

extension SARIFRenderer: SummaryRenderer {
  /// `SARIF 2.1.0 for code scanning` in `--format` help.
  package static var formatNote: String? { "SARIF 2.1.0 for code scanning" }
  /// It points at call sites.
  package static var pointsAtSites: Bool { true }

  /// The sites' paths resolved under the source root, their source lines hashed for the
  /// fingerprints.
  package init(for summary: Summary, context: RenderContext) {
    self.init(
      toolVersion: context.toolVersion, top: context.top, paths: context.paths,
      sourceRoot: context.sourceRoot, executionSuccessful: context.executionSuccessful,
      sources: context.sourceRoot.map { root in
        SourceLineHash.hashes(
          summary.groups.prefix(context.top ?? Int.max).compactMap { summary.site(of: $0) },
          root: root, paths: context.paths)
      } ?? [:])
  }
}
