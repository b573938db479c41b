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

    /// The key of a site of `kind` (its code) at `fileID`:`line`.
    package init(kind: String, fileID: String, line: Int) {
      self.kind = kind
      self.fileID = fileID
      self.line = line
    }
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
  /// Where the misusing read or write was made (`Module/File.swift:35`), when known.
  package let writer: String?

  /// The site of `event`.
  /// - Parameter event: A misuse event.
  package init(_ event: MisuseEvent) {
    self.init(
      kind: event.kind, fileID: event.file, line: event.line, label: event.label,
      valueType: event.valueType, message: event.message, writer: event.writer)
  }

  /// The site of `misuse`, made by `writer` when known.
  /// - Parameters:
  ///   - misuse: A misuse the pipeline reports.
  ///   - writer: Where the misusing read or write was made, when known.
  package init(_ misuse: Misuse, writer: String?) {
    self.init(
      kind: misuse.kind, fileID: misuse.site.fileID, line: misuse.site.line,
      label: misuse.label, valueType: misuse.valueType, message: misuse.message, writer: writer)
  }

  /// The key of `misuse`'s site.
  /// - Parameter misuse: A misuse the pipeline reports.
  package static func key(of misuse: Misuse) -> Key {
    Key(kind: misuse.kind.code, fileID: misuse.site.fileID, line: misuse.site.line)
  }

  /// A site from its parts.
  /// - Parameters:
  ///   - kind: What went wrong.
  ///   - fileID: `#fileID` of the call site.
  ///   - line: Line of the call site.
  ///   - label: The mapping's label.
  ///   - valueType: The optional's type.
  ///   - message: The report's sentence.
  ///   - writer: Where the misusing read or write was made, when known.
  package init(
    kind: MisuseKind, fileID: String, line: Int, label: String?, valueType: String,
    message: String, writer: String? = nil
  ) {
    self.kind = kind
    self.fileID = fileID
    self.line = line
    self.label = label
    self.valueType = valueType
    self.message = message
    self.writer = writer
  }

  /// The grouping key.
  package var key: Key { Key(kind: kind.code, fileID: fileID, line: line) }

  /// One line for a test failure: kind, the mapping's site, the writer when known, label, a
  /// short value type, the count when known, and the report's sentence. Control characters
  /// (and bidirectional controls) from the event are written `\u000a`, so a label cannot start
  /// a line of the runner's output (XCTest prints `FILE:LINE: error: …` lines that CI reads).
  ///
  /// `Binding misuse mapped-bool-set-true at App/Inbox.swift:31, written at
  /// App/InboxModel.swift:35, label "save-alert", String?, 3 misuses: A Binding<Bool> mapped
  /// from …`
  /// - Parameter count: How many misuses the site made, or `nil` to leave it out.
  package func describe(count: Int?) -> String {
    var text = "Binding misuse \(kind.code) at \(fileID):\(line)"
    if let writer { text += ", written at \(writer)" }
    text += label.map { ", label \"\($0)\"" } ?? ", no label"
    text += ", \(ShortTypeName.of(valueType))"
    if let count { text += count == 1 ? ", 1 misuse" : ", \(count) misuses" }
    return LogfmtEscaping.escapingControls(text + ": " + message)
  }
}
