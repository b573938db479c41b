/// The closest known name to a mistyped one, for "did you mean …?" in configuration warnings
/// (and, through ``editDistance(_:_:)``, in `bindiag`'s usage errors).
package enum NameSuggestion {
  /// The name in `known` closest to `name` by edit distance (insertions, deletions,
  /// substitutions and swaps of neighbours, case ignored), if it is close enough to be a typo:
  /// at most 2 edits, and fewer than half of `name`'s characters.
  /// - Parameters:
  ///   - name: What was written.
  ///   - known: The valid names.
  static func closest(to name: String, in known: [String]) -> String? {
    let limit = min(2, (name.utf8.count - 1) / 2)
    // Names of other lengths cannot be close: no distance is computed for them, so every
    // variable of an app's environment costs a comparison of lengths, not more.
    let near = known.filter { abs($0.utf8.count - name.utf8.count) <= limit }
    guard !near.isEmpty else { return nil }
    let written = Array(name.lowercased().utf8)
    var best: (name: String, distance: Int)?
    for candidate in near {
      let distance = editDistance(written, Array(candidate.lowercased().utf8))
      if distance <= limit, distance < best?.distance ?? .max { best = (candidate, distance) }
    }
    return best?.name
  }

  /// Optimal string alignment distance (Damerau–Levenshtein without repeated edits of a
  /// substring) between `a` and `b`, by bytes.
  package static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
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
