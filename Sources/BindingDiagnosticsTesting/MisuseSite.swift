package import BindingDiagnostics

/// One call site's misuses of one kind: what a test failure names.
///
/// Sites group as the contract does (kind, file, line), so a mapping misused in a loop is one
/// failure with a count, not one per iteration.
package struct MisuseSite: Sendable {
  /// What identifies a site.
  package struct Key: Hashable, Sendable {
    let kind: String
    let fileID: String
    let line: Int
  }

  /// What went wrong.
  package let kind: MisuseKind
  /// `#fileID` of the mapping's call site.
  package let fileID: String
  /// Line of the mapping's call site.
  package let line: Int
  /// The mapping's label, if it has one.
  package let label: String?
  /// `String(reflecting:)` of the optional's type.
  package let valueType: String
  /// The report's sentence.
  package let message: String

  /// The site of `event`.
  /// - Parameter event: A misuse event.
  package init(_ event: MisuseEvent) {
    self.init(
      kind: event.kind, fileID: event.file, line: event.line, label: event.label,
      valueType: event.valueType, message: event.message)
  }

  /// A site from its parts.
  /// - Parameters:
  ///   - kind: What went wrong.
  ///   - fileID: `#fileID` of the call site.
  ///   - line: Line of the call site.
  ///   - label: The mapping's label.
  ///   - valueType: The optional's type.
  ///   - message: The report's sentence.
  package init(
    kind: MisuseKind, fileID: String, line: Int, label: String?, valueType: String,
    message: String
  ) {
    self.kind = kind
    self.fileID = fileID
    self.line = line
    self.label = label
    self.valueType = valueType
    self.message = message
  }

  /// The grouping key.
  package var key: Key { Key(kind: kind.code, fileID: fileID, line: line) }

  /// One line for a test failure: kind, site, label, a short value type, the count when known,
  /// and the report's sentence.
  ///
  /// `Binding misuse mapped-bool-set-true at App/Inbox.swift:31, label "save-alert", String?,
  /// 3 times: A Binding<Bool> mapped from …`
  /// - Parameter count: How many misuses the site made, or `nil` to leave it out.
  package func describe(count: Int?) -> String {
    var text = "Binding misuse \(kind.code) at \(fileID):\(line)"
    text += label.map { ", label \"\($0)\"" } ?? ", no label"
    text += ", \(ShortTypeName.of(valueType))"
    if let count { text += count == 1 ? ", 1 time" : ", \(count) times" }
    return text + ": " + message
  }
}
