/// What a call site is, whatever line it moved to: the kind, the `#fileID`, the function and
/// the label (several labels joined by `,`), and, when the source is at hand (`--source-root`),
/// a hash of the call site's source line. Baselines and SARIF fingerprints key sites by it, so
/// a line added above a mapping neither makes it new nor changes its fingerprint.
package struct SiteIdentity: Sendable, Hashable {
  /// The kind's code.
  package var kind: String
  /// The `#fileID`.
  package var file: String
  /// The function holding the call site.
  package var function: String
  /// The label the caller gave the mapping, `""` for none.
  package var label: String

  /// An identity.
  /// - Parameters:
  ///   - kind: The kind's code.
  ///   - file: The `#fileID`.
  ///   - function: The function.
  ///   - label: The label, `""` for none.
  package init(kind: String, file: String, function: String, label: String) {
    self.kind = kind
    self.file = file
    self.function = function
    self.label = label
  }

  /// The identity of `site`, a group of `group`.
  /// - Parameters:
  ///   - site: The group's site.
  ///   - group: The group (grouped by site).
  package init(_ site: SiteKey, group: Summary.Group) {
    self.init(
      kind: site.kind, file: site.file, function: group.functions.joined(separator: ","),
      label: group.labels.joined(separator: ","))
  }

  /// 16 lowercase hex digits standing for this identity and the source line's hash: the same
  /// in every run and on every machine (FNV-1a, 64 bits, over the fields' UTF-8 bytes, each
  /// ended by a zero byte).
  /// - Parameter source: The source line's hash (``SourceLineHash``), or `nil`.
  package func fingerprint(source: String?) -> String {
    SiteIdentity.hex(
      SiteIdentity.fnv1a([kind, file, function, label] + (source.map { [$0] } ?? [])))
  }

  /// 16 lowercase hex digits.
  static func hex(_ value: UInt64) -> String {
    var value = value
    var digits = ""
    for _ in 0..<16 {
      digits.insert(Array("0123456789abcdef")[Int(value & 0xf)], at: digits.startIndex)
      value >>= 4
    }
    return digits
  }

  /// FNV-1a over each part's bytes and a zero byte after each.
  static func fnv1a(_ parts: [String]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for part in parts {
      for byte in part.utf8 + [0] {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
      }
    }
    return hash
  }
}
