import BindingDiagnostics

/// The name of a rotated generation of a JSON Lines file `PATH` that sorts by when it was made:
/// the sink's timestamped ones (`PATH.20261201T141530.123456Z`, or with `-N` when that time was
/// taken), ordered by time, then by `N` as a number (`-10` after `-9`); and logrotate's
/// `dateext` ones (`PATH-20261201`, `PATH-2026120114`, `PATH-20261201-1764547200`, any
/// `dateformat` of digit groups joined by `-`, eight digits at least, as a date has: `PATH-2`
/// is another file), ordered by their digit groups as numbers, and before every timestamped
/// one. A compressed generation (`PATH-20261201.gz`) is none.
struct GenerationName: Comparable {
  /// The name in its directory.
  let text: String
  /// The digit groups of a `dateext` name; `nil` for a timestamped one.
  let dated: [Int]?
  /// The 23-byte time of a timestamped name, `20261201T141530.123456Z`; empty for a dated one.
  let stamp: Substring
  /// `N` of a `-N` suffix; 0 without one.
  let serial: Int

  /// The generation `entry`, a name in the directory of the file named `base`, is, if it is one.
  init?(_ entry: String, base: String) {
    let utf8 = entry.utf8
    guard utf8.count > base.utf8.count + 1, utf8.starts(with: base.utf8) else { return nil }
    let separator = utf8[utf8.index(utf8.startIndex, offsetBy: base.utf8.count)]
    let suffix = utf8.dropFirst(base.utf8.count + 1)
    text = entry
    if separator == UInt8(ascii: "."), LogRotation.isGenerationSuffix(suffix) {
      dated = nil
      let stampEnd = suffix.index(suffix.startIndex, offsetBy: 23)
      stamp = Substring(suffix[suffix.startIndex..<stampEnd])
      let rest = suffix[stampEnd...].dropFirst()
      serial = rest.isEmpty ? 0 : Int(Substring(rest)) ?? Int.max
    } else if separator == UInt8(ascii: "-") {
      let groups = suffix.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
      guard
        groups.allSatisfy({ group in
          !group.isEmpty && group.count <= 18
            && group.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }),
        groups.reduce(0, { $0 + $1.count }) >= 8
      else { return nil }
      dated = groups.map { Int(Substring($0))! }
      stamp = ""
      serial = 0
    } else {
      return nil
    }
  }

  /// Whether `name` is a rotated generation of `base`, both names in one directory: a
  /// timestamped or dated one, or a numbered one of earlier versions (`base.N`).
  static func isGeneration(_ name: String, of base: String) -> Bool {
    GenerationName(name, base: base) != nil || isNumbered(name, of: base)
  }

  /// Whether `name` is a numbered generation of `base` (`base.N`, of earlier versions and of
  /// logrotate without `dateext`).
  static func isNumbered(_ name: String, of base: String) -> Bool {
    let suffix = name.utf8.dropFirst(base.utf8.count + 1)
    return name.utf8.starts(with: (base + ".").utf8) && !suffix.isEmpty
      && suffix.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }

  /// A name sorting just before `other` and after every name before it: an exclusive bound.
  init(justBefore other: GenerationName) {
    text = ""
    dated = other.dated
    stamp = other.stamp
    serial = other.serial - 1
  }

  private init(stamp: Substring) {
    text = ""
    dated = nil
    self.stamp = stamp
    serial = Int.max
  }

  /// The latest timestamped name the sink could have given by now: a day ahead of the clock,
  /// as it allows.
  static func latestPlausible() -> GenerationName {
    var bytes: [UInt8] = []
    Timestamp(microsecondsSinceEpoch: Timestamp.now().microsecondsSinceEpoch + 86_400_000_000)
      .appendRFC3339(to: &bytes)
    let stamp = String(
      decoding: bytes.filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: ":") },
      as: UTF8.self)
    return GenerationName(stamp: Substring(stamp))
  }

  static func < (lhs: GenerationName, rhs: GenerationName) -> Bool {
    switch (lhs.dated, rhs.dated) {
    case (let left?, let right?) where left != right: return left.lexicographicallyPrecedes(right)
    case (.some, nil): return true
    case (nil, .some): return false
    case (nil, nil) where lhs.stamp != rhs.stamp: return lhs.stamp < rhs.stamp
    default: return lhs.serial < rhs.serial
    }
  }

  static func == (lhs: GenerationName, rhs: GenerationName) -> Bool {
    lhs.dated == rhs.dated && lhs.stamp == rhs.stamp && lhs.serial == rhs.serial
  }
}
