/// The call sites known when a baseline was recorded, with their events (`check
/// --write-baseline FILE`), so that `check --baseline FILE` fails only on what is new.
///
/// The file is JSON that reviews and diffs well: sites sorted by file, line and kind, one site
/// per line, keys always in the same order.
///
///     {
///       "schema": 1,
///       "sites": [
///         {"kind": "mapped-bool-set-true", "file": "App/ContentView.swift", "line": 42, "events": 11}
///       ]
///     }
public struct Baseline: Sendable, Hashable {
  /// The file format's version.
  public static let schema = 1

  /// Events by site.
  public var sites: [SiteKey: Int]

  /// A baseline of `sites`.
  /// - Parameter sites: Events by site.
  public init(sites: [SiteKey: Int]) {
    self.sites = sites
  }

  /// The sites of a summary grouped by site (other groups are left out).
  /// - Parameter summary: The summary.
  public init(summary: Summary) {
    var sites: [SiteKey: Int] = [:]
    for group in summary.groups {
      if let site = summary.site(of: group) { sites[site] = group.events }
    }
    self.init(sites: sites)
  }

  /// The file's text.
  public var text: String {
    let entries = sites.sorted { $0.key < $1.key }.map { site, events in
      JSONValue.object([
        ("kind", .string(site.kind)), ("file", .string(site.file)), ("line", .decimal(site.line)),
        ("events", .decimal(events)),
      ])
    }
    return JSONValue.object([("schema", .decimal(Baseline.schema)), ("sites", .array(entries))])
      .prettyText(inlineDepth: 2)
  }

  /// Reads a baseline file's bytes.
  /// - Parameter bytes: The file's contents.
  /// - Returns: The baseline, or why it is not one.
  public static func parse(_ bytes: [UInt8]) -> Result<Baseline, MalformedReason> {
    let parsed = bytes.withUnsafeBufferPointer { JSONParser.parse($0) }
    let root: JSONValue
    switch parsed {
    case .success(let value): root = value
    case .failure(.syntax(let reason)): return .failure("invalid JSON: \(reason)")
    }
    guard root["schema"]?.integer == schema, case .array(let entries)? = root["sites"] else {
      return .failure(#"expected an object with "schema": 1 and a "sites" array"#)
    }
    var sites: [SiteKey: Int] = [:]
    for (index, entry) in entries.enumerated() {
      guard case .string(let kind)? = entry["kind"], case .string(let file)? = entry["file"],
        let line = entry["line"]?.integer, let events = entry["events"]?.integer, events >= 0
      else {
        return .failure(
          "site \(index + 1): expected \"kind\" and \"file\" strings, a \"line\" and a count of \"events\""
        )
      }
      let site = SiteKey(kind: kind, file: file, line: line)
      guard sites.updateValue(events, forKey: site) == nil else {
        return .failure("site \(index + 1): \(site) is listed twice")
      }
    }
    return .success(Baseline(sites: sites))
  }
}
