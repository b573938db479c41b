import BindingDiagnostics

/// The name of a timestamped generation of a rotated JSON Lines file
/// (`PATH.20261201T141530.123456Z`, or with `-N` when that time was taken), ordered as the sink
/// made them: by time, then by `N` as a number (`-10` after `-9`).
struct GenerationName: Comparable {
  /// The name in its directory.
  let text: String
  /// The 23-byte time, `20261201T141530.123456Z`.
  let stamp: Substring
  /// `N` of a `-N` suffix; 0 without one.
  let serial: Int

  /// `name`, whose generation suffix starts after `prefixLength` bytes (checked by
  /// `LogRotation.isGenerationSuffix`).
  init(_ name: String, prefixLength: Int) {
    text = name
    let suffix = name.utf8.dropFirst(prefixLength)
    let stampEnd = suffix.index(suffix.startIndex, offsetBy: 23)
    stamp = Substring(suffix[suffix.startIndex..<stampEnd])
    let rest = suffix[stampEnd...].dropFirst()
    serial = rest.isEmpty ? 0 : Int(Substring(rest)) ?? Int.max
  }

  /// A name sorting just before `other` and after every name before it: an exclusive bound.
  init(justBefore other: GenerationName) {
    text = ""
    stamp = other.stamp
    serial = other.serial - 1
  }

  private init(stamp: Substring) {
    text = ""
    self.stamp = stamp
    serial = Int.max
  }

  /// The latest name the sink could have given by now: a day ahead of the clock, as it allows.
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
    lhs.stamp != rhs.stamp ? lhs.stamp < rhs.stamp : lhs.serial < rhs.serial
  }

  static func == (lhs: GenerationName, rhs: GenerationName) -> Bool {
    lhs.stamp == rhs.stamp && lhs.serial == rhs.serial
  }
}
