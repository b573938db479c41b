import BindingDiagnostics
import Foundation

/// A field events can be grouped by (`--group-by`).
package enum GroupField: String, Sendable, Hashable, CaseIterable {
  /// The misuse kind.
  case kind
  /// The call site's file.
  case file
  /// The call site's line.
  case line
  /// The call site's function.
  case function
  /// The optional's type (`--group-by type`).
  case valueType = "value_type"
  /// The process name.
  case process
  /// The host name.
  case host
  /// The label the caller gave the mapping (`--group-by label`); events without one share the
  /// empty label.
  case label
  /// The test that caught the misuse (`--group-by test`); events from outside tests share the
  /// empty test.
  case test
  /// Where the misuse was made, `#fileID` and line (`--group-by writer`); events without one
  /// (a build without debug information) share the empty writer.
  case writer

  /// Parses a `--group-by` list: `site` (kind, file, line), `kind`, `type`, `process`, `host`,
  /// `function`, `label`, `test`, `writer`, `file`, `line`, joined by commas; repeated fields are kept once.
  /// - Parameter text: The option's value.
  /// - Returns: The fields in order, or the first unknown name.
  package static func parseList(_ text: String) -> Result<[GroupField], MalformedReason> {
    var fields: [GroupField] = []
    for name in text.split(separator: ",", omittingEmptySubsequences: false) {
      let expanded: [GroupField]
      switch name.trimmingCharacters(in: .whitespaces) {
      case "site": expanded = [.kind, .file, .line]
      case "type", "value_type": expanded = [.valueType]
      case let other:
        guard let field = GroupField(rawValue: other) else {
          return .failure(
            "unknown group field \"\(other)\" (expected site, kind, type, process, host, function, label, test, writer, file or line)"
          )
        }
        expanded = [field]
      }
      for field in expanded where !fields.contains(field) { fields.append(field) }
    }
    return .success(fields)
  }
}

/// One part of a group's key: text, or a number for `line` (sorted numerically).
package enum GroupKeyPart: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// A text field.
  case text(String)
  /// The line number.
  case number(Int)

  /// Text sorts by code points, numbers numerically; a number sorts before text.
  package static func < (lhs: GroupKeyPart, rhs: GroupKeyPart) -> Bool {
    switch (lhs, rhs) {
    case (.text(let a), .text(let b)): a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
    case (.number(let a), .number(let b)): a < b
    case (.number, .text): true
    case (.text, .number): false
    }
  }

  /// The text or the number's digits.
  package var description: String {
    switch self {
    case .text(let text): text
    case .number(let number): String(number)
    }
  }
}
