/// The closest known name to a mistyped one, for "did you mean …?" in configuration warnings.
enum NameSuggestion {
  /// The name in `known` closest to `name` by edit distance (insertions, deletions,
  /// substitutions and swaps of neighbours, case ignored), if it is close enough to be a typo:
  /// at most 2 edits, and fewer than half of `name`'s characters.
  /// - Parameters:
  ///   - name: What was written.
  ///   - known: The valid names.
  static func closest(to name: String, in known: [String]) -> String? {
    let limit = min(2, (name.count - 1) / 2)
    var best: (name: String, distance: Int)?
    for candidate in known {
      let distance = editDistance(name.lowercased(), candidate.lowercased())
      if distance <= limit, distance < best?.distance ?? .max { best = (candidate, distance) }
    }
    return best?.name
  }

  /// Optimal string alignment distance (Damerau–Levenshtein without repeated edits of a
  /// substring) between `a` and `b`, by characters.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], before[j - 2] + 1)
        }
      }
      (before, previous, current) = (previous, current, before)
    }
    return previous[b.count]
  }

  /// ` (did you mean "X"?)` when a close name exists, else the empty string.
  /// - Parameters:
  ///   - name: What was written.
  ///   - known: The valid names.
  ///   - quoted: Whether to quote the suggestion.
  static func hint(for name: String, in known: [String], quoted: Bool = true) -> String {
    guard let match = closest(to: name, in: known) else { return "" }
    return quoted ? " (did you mean \"\(match)\"?)" : " (did you mean \(match)?)"
  }
}
