/// The call sites known when a baseline was recorded, with their events (`check
/// --write-baseline FILE`), so that `check --baseline FILE` fails only on what is new.
///
/// A site is known by its ``SiteIdentity`` (kind, `#fileID`, function, label) and, when
/// recorded with `--source-root`, the hash of its source line; the line number is kept for
/// people reading the file. The file is JSON that reviews and diffs well: one site per line,
/// sorted, keys always in the same order.
///
///     {
///       "schema": 2,
///       "sites": [
///         {"kind": "mapped-bool-set-true", "file": "App/ContentView.swift", "function": "body", "label": "save-alert", "line": 42, "source": "9f0c…", "events": 11}
///       ]
///     }
///
/// Files of schema 1 (bindiag 1.0: kind, file, line and events) still read; their sites are
/// known by kind, file and line.
package struct Baseline: Sendable, Hashable {
  /// One recorded site.
  package struct Entry: Sendable, Hashable {
    /// The site where it was recorded.
    package var site: SiteKey
    /// Its function and label; `nil` in a schema 1 file.
    package var identity: SiteIdentity?
    /// The hash of its source line (``SourceLineHash``), when recorded with a source root.
    package var source: String?
    /// Its events.
    package var events: Int

    /// An entry.
    /// - Parameters:
    ///   - site: The site.
    ///   - identity: Its identity, or `nil` for a schema 1 site.
    ///   - source: Its source line's hash, or `nil`.
    ///   - events: Its events.
    package init(site: SiteKey, identity: SiteIdentity?, source: String? = nil, events: Int) {
      self.site = site
      self.identity = identity
      self.source = source
      self.events = events
    }

    /// Whether this entry is the site `site` of identity `identity` with source hash `source`:
    /// the same identity (and source line, when both have one), or for a schema 1 entry the
    /// same kind, file and line.
    package func matches(_ site: SiteKey, identity: SiteIdentity, source: String?) -> Bool {
      guard let known = self.identity else { return self.site == site }
      guard known == identity else { return false }
      guard let recorded = self.source, let source else { return true }
      return recorded == source
    }

    /// File, line, kind, then function and label, by code points.
    static func precedes(_ lhs: Entry, _ rhs: Entry) -> Bool {
      if lhs.site != rhs.site { return lhs.site < rhs.site }
      let left = [lhs.identity?.function ?? "", lhs.identity?.label ?? "", lhs.source ?? ""]
      let right = [rhs.identity?.function ?? "", rhs.identity?.label ?? "", rhs.source ?? ""]
      return left.lexicographicallyPrecedes(right) {
        $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars)
      }
    }
  }

  /// The version written.
  package static let schema = 2

  /// The recorded sites, sorted.
  package var entries: [Entry]

  /// A baseline of `entries`.
  /// - Parameter entries: The sites.
  package init(entries: [Entry]) {
    self.entries = entries.sorted(by: Entry.precedes)
  }

  /// The sites of a summary grouped by site (other groups are left out).
  /// - Parameters:
  ///   - summary: The summary.
  ///   - sources: The source line hashes by site (see ``SourceLineHash``), when known.
  package init(summary: Summary, sources: [SiteKey: String] = [:]) {
    var entries: [Entry] = []
    for group in summary.groups {
      guard let site = summary.site(of: group) else { continue }
      entries.append(
        Entry(
          site: site, identity: SiteIdentity(site, group: group), source: sources[site],
          events: group.events))
    }
    self.init(entries: entries)
  }

  /// The file's text.
  package var text: String {
    let lines = entries.map { entry in
      var members: [(String, JSONValue)] = [
        ("kind", .string(entry.site.kind)), ("file", .string(entry.site.file)),
      ]
      if let identity = entry.identity {
        members += [("function", .string(identity.function)), ("label", .string(identity.label))]
      }
      members.append(("line", .decimal(entry.site.line)))
      if let source = entry.source { members.append(("source", .string(source))) }
      members.append(("events", .decimal(entry.events)))
      return JSONValue.object(members)
    }
    return JSONValue.object([("schema", .decimal(Baseline.schema)), ("sites", .array(lines))])
      .prettyText(inlineDepth: 2)
  }

  /// Reads a baseline file's bytes, schema 2 or 1.
  /// - Parameter bytes: The file's contents.
  /// - Returns: The baseline, or why it is not one.
  package static func parse(_ bytes: [UInt8]) -> Result<Baseline, MalformedReason> {
    let parsed = bytes.withUnsafeBufferPointer { JSONParser.parse($0) }
    let root: JSONValue
    switch parsed {
    case .success(let value): root = value
    case .failure(.syntax(let reason)): return .failure("invalid JSON: \(reason)")
    }
    guard let version = root["schema"]?.integer, version == 1 || version == 2,
      case .array(let sites)? = root["sites"]
    else {
      return .failure(#"expected an object with "schema": 2 (or 1) and a "sites" array"#)
    }
    var entries: [Entry] = []
    var seen = Set<Entry>()
    for (index, site) in sites.enumerated() {
      guard case .string(let kind)? = site["kind"], case .string(let file)? = site["file"],
        let line = site["line"]?.integer, let events = site["events"]?.integer, events >= 0
      else {
        return .failure(
          "site \(index + 1): expected \"kind\" and \"file\" strings, a \"line\" and a count of \"events\""
        )
      }
      var entry = Entry(site: SiteKey(kind: kind, file: file, line: line), identity: nil, events: 0)
      if version == 2 {
        guard case .string(let function)? = site["function"],
          case .string(let label)? = site["label"]
        else {
          return .failure("site \(index + 1): expected \"function\" and \"label\" strings")
        }
        entry.identity = SiteIdentity(kind: kind, file: file, function: function, label: label)
        if case .string(let source)? = site["source"] { entry.source = source }
      }
      guard seen.insert(entry).inserted else {
        return .failure("site \(index + 1): \(entry.site) is listed twice")
      }
      entry.events = events
      entries.append(entry)
    }
    return .success(Baseline(entries: entries))
  }
}
