/// How many times its baseline count a known site's events may grow (`--baseline-max-growth`):
/// a decimal number of at least 1 with at most four decimals, compared exactly.
package struct GrowthFactor: Sendable, Hashable, CustomStringConvertible {
  /// The factor times 10 000.
  let tenThousandths: Int
  /// The factor as written.
  package let description: String

  /// Parses `2`, `1.5`, `10.25`; `nil` for anything else, below 1 or above 1 000 000.
  /// - Parameter text: The option's value.
  package init?(_ text: String) {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let whole = parts.first, !whole.isEmpty,
      whole.utf8.allSatisfy({ (0x30...0x39).contains($0) }), whole.utf8.count <= 7
    else { return nil }
    var fraction = parts.count == 2 ? parts[1] : ""
    guard parts.count == 1 || !fraction.isEmpty, fraction.utf8.count <= 4,
      fraction.utf8.allSatisfy({ (0x30...0x39).contains($0) })
    else { return nil }
    while fraction.utf8.count < 4 { fraction += "0" }
    let value = Int(whole)! * 10_000 + Int(fraction)!
    guard (10_000...10_000_000_000).contains(value) else { return nil }
    tenThousandths = value
    description = text
  }

  /// Whether `current` events are more than this factor times `baseline`.
  /// - Parameters:
  ///   - current: Events now.
  ///   - baseline: Events in the baseline.
  package func isExceeded(by current: Int, baseline: Int) -> Bool {
    let now = current.multipliedFullWidth(by: 10_000)
    let allowed = baseline.multipliedFullWidth(by: tenThousandths)
    return (now.high, now.low) > (allowed.high, allowed.low)
  }
}
