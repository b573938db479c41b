/// What went wrong and where: a misuse's kind, call site and value type, the part every misuse
/// of one site shares.
///
/// The mappings' reports get one per site, kind and type from ``SiteTable``, made once and kept
/// for the life of the process; a ``Misuse`` refers to it instead of holding copies of its five
/// strings, so a report retains one object, not five strings, and a record borrows the strings
/// from it.
package final class MisuseOrigin: Sendable {
  /// What went wrong.
  package let kind: MisuseKind
  /// Where the mapping was created.
  package let site: CallSite
  /// `String(reflecting:)` of the optional's type.
  package let valueType: String

  /// An origin.
  /// - Parameters:
  ///   - kind: What went wrong.
  ///   - site: Where the mapping was created.
  ///   - valueType: The optional's type.
  package init(kind: MisuseKind, site: CallSite, valueType: String) {
    self.kind = kind
    self.site = site
    self.valueType = valueType
  }
}
