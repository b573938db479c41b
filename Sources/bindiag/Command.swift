import Foundation

/// The commands.
enum Command: String, CaseIterable {
  case summary, check, follow, export, demo, catalog, completions, manpage, help

  /// Whether `argument`, first on the command line and not a command, is a mistyped command
  /// rather than a file for the default `summary`: a bare word (no `/`, no `.`, not an option)
  /// that is close to a command's name, or that names no file. `./NAME` reads a file named
  /// like a command.
  static func isMistyped(_ argument: String) -> Bool {
    guard !argument.hasPrefix("-"), !argument.contains("/"), !argument.contains(".") else {
      return false
    }
    if Suggestion.closest(to: argument, among: allCases.map(\.rawValue)) != nil { return true }
    return !FileManager.default.fileExists(atPath: argument)
  }

  /// `Unknown command 'NAME'`, naming the closest command.
  static func unknown(_ name: String) -> UsageError {
    let suggestion = Suggestion.closest(to: name, among: allCases.map(\.rawValue))
    return UsageError(
      "Unknown command '\(name)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""),
      command: nil)
  }
}
