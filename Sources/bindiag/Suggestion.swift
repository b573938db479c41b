import BindingDiagnostics

/// "Did you mean": the closest of some names to a mistyped one, by edit distance.
enum Suggestion {
  /// The name among `candidates` closest to `text` (dashes before it and case aside), when it
  /// is close enough to be a typo: one edit for short words, two from five letters on.
  static func closest(to text: String, among candidates: [String]) -> String? {
    let typed = Array(bare(text))
    guard !typed.isEmpty else { return nil }
    let limit = typed.count >= 5 ? 2 : 1
    var best: (name: String, distance: Int)?
    for candidate in candidates {
      let distance = self.distance(typed, Array(bare(candidate)))
      if distance <= limit, distance < typed.count, distance < (best?.distance ?? Int.max) {
        best = (candidate, distance)
      }
    }
    return best?.name
  }

  /// The name among `candidates` closest to `text`, however far; `nil` when there is none.
  static func nearest(to text: String, among candidates: [String]) -> String? {
    let typed = Array(bare(text))
    return candidates.min { distance(typed, Array(bare($0))) < distance(typed, Array(bare($1))) }
  }

  /// `a`, `a or b`, `a, b or c` (`and` when `or` is false).
  static func list(_ names: [String], or: Bool = true) -> String {
    guard let last = names.last else { return "" }
    guard names.count > 1 else { return last }
    return names.dropLast().joined(separator: ", ") + (or ? " or " : " and ") + last
  }

  /// `text` without leading dashes, lower-cased, as UTF-8.
  private static func bare(_ text: String) -> [UInt8] {
    Array(text.drop { $0 == "-" }.lowercased().utf8)
  }

  /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
  /// neighbours (`fromat` is one edit from `format`) each cost one.
  static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    NameSuggestion.editDistance(a, b)
  }
}
