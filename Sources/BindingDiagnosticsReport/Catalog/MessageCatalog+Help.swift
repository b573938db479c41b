import BindingDiagnostics
import Foundation

extension MessageCatalog {
  /// The entry of the built-in kind with `code`, or `nil` for an application's own kind.
  /// - Parameter code: A kind's code.
  package static func entry(for code: String) -> Entry? {
    entries.first { $0.kind.code == code }
  }
}

extension MessageCatalog.Entry {
  /// The subject without its call-site placeholder: one sentence that fits a title.
  package var headline: String {
    MessageCatalog.Entry.substituting(
      subject.replacingOccurrences(of: " at @CODE_FILE@:@CODE_LINE@", with: ""))
  }

  /// The body's paragraphs, each on one line, placeholders replaced by words ("the call site",
  /// "optional"), for viewers that wrap text themselves (SARIF `help`, annotations).
  package var paragraphs: [String] {
    MessageCatalog.Entry.substituting(body)
      .components(separatedBy: "\n\n")
      .map { $0.split(separator: "\n").joined(separator: " ") }
  }

  private static func substituting(_ text: String) -> String {
    text.replacingOccurrences(of: "@CODE_FILE@:@CODE_LINE@", with: "the call site")
      .replacingOccurrences(of: "@BINDING_VALUE_TYPE@", with: "optional")
  }
}
