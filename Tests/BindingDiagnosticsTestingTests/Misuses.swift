import BindingDiagnostics
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// Misuses made from test code, each at its caller's line, and the issues the trait records for
/// them.
enum Misuses {
  /// Writes `true` to a flag mapped from a present optional, the mapping made at the caller's line.
  static func setTrue(
    label: String, times: Int = 1, fileID: StaticString = #fileID, line: UInt = #line
  ) {
    let alert = LockedValue<String?>("Saved").binding
    let flag = alert.mappedToBool(label: label, fileID: fileID, line: line)
    for _ in 0..<times { flag.wrappedValue = true }
  }

  /// The line of ``setTrue(label:times:fileID:line:)`` that writes: the issue's location.
  static let setTrueWriter = #line - 4

  /// A flag mapped from a present optional at this line: writing `true` to it is a misuse
  /// whose writer is the caller.
  static func flag(label: String) -> Binding<Bool> {
    LockedValue<String?>("Saved").binding.mappedToBool(label: label)
  }

  /// Reads, or when `writing` writes, a binding unwrapped at the caller's line after its optional
  /// became `nil`.
  static func afterNil(
    label: String, writing: Bool, fileID: StaticString = #fileID, line: UInt = #line
  ) {
    let selection = LockedValue<String?>("Lunch")
    let base = selection.binding
    guard let detail = Binding(unwrapping: base, label: label, fileID: fileID, line: line) else {
      return
    }
    selection.value = nil
    if writing { detail.wrappedValue = "Dinner" } else { _ = detail.wrappedValue }
  }

  /// The line of ``afterNil(label:writing:fileID:line:)`` that writes or reads.
  static let afterNilWriter = #line - 4

  /// `, written at BindingDiagnosticsTestingTests/Misuses.swift:LINE`.
  static func writtenAt(_ line: Int) -> String {
    ", written at BindingDiagnosticsTestingTests/Misuses.swift:\(line)"
  }

  /// Where the issue for a misuse written at `line` of this file sits.
  static func location(_ line: Int) -> SourceLocation {
    SourceLocation(fileID: #fileID, filePath: #filePath, line: line, column: 1)
  }

  /// Whether `issue` is the trait's issue for a `mapped-bool-set-true` at `line` of the calling
  /// test file.
  static func isSetTrue(
    _ issue: Issue, line: Int, label: String, fileID: String = #fileID, filePath: String = #filePath
  ) -> Bool {
    let text =
      "Binding misuse mapped-bool-set-true at \(fileID):\(line)\(writtenAt(setTrueWriter)), label \"\(label)\", String?: A Binding<Bool> mapped from an optional was set to true; the write had no effect."
    return issue.sourceLocation == location(setTrueWriter)
      && issue.sourceLocation?.filePath == #filePath && Misuses.text(of: issue) == text
      && issue.isFailure
  }

  /// What an issue says: a failure's error (the runner's own line for it), or a warning's
  /// comment.
  static func text(of issue: Issue) -> String? {
    if let error = issue.error { return "\(error)" }
    return issue.comments.first?.rawValue
  }
}
