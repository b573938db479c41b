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

  private static func bare(_ text: String) -> Substring.UnicodeScalarView {
    Substring(text.drop { $0 == "-" }.lowercased()).unicodeScalars
  }

  /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
  /// neighbours (`fromat` is one edit from `format`) each cost one.
  static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], previous2[j - 2] + 1)
        }
      }
      (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
  }
}
