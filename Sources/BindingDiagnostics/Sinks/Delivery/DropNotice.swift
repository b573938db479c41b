/// Tracks a sink's episodes of dropping records, so that it says one line when drops start and
/// one when they stop (with the count), never one line per record. An episode ends only after a
/// second without drops, so a queue hovering at its limit says two lines a second at most.
///
/// Not thread-safe by itself: the sink keeps it under its own lock and writes the lines with the
/// lock released.
struct DropNotice {
  /// What the sink should say, if anything, after a record was accepted or dropped.
  enum Change: Equatable {
    /// The first record of an episode was dropped.
    case started
    /// Records are accepted again after `dropped` were lost.
    case ended(dropped: Int)
  }

  /// How long without a drop ends an episode.
  static let quietNanoseconds: UInt64 = 1_000_000_000

  private var dropping = false
  private var droppedInEpisode = 0
  private var lastDrop: UInt64 = 0

  /// Notes a dropped record at monotonic time `now`; `.started` for the first of an episode.
  mutating func dropped(now: UInt64) -> Change? {
    droppedInEpisode += 1
    lastDrop = now
    guard !dropping else { return nil }
    dropping = true
    return .started
  }

  /// Notes an accepted record; `.ended` when it closes an episode of drops (no drop for
  /// ``quietNanoseconds``). `now` is read only during an episode.
  mutating func accepted(now: @autoclosure () -> UInt64) -> Change? {
    guard dropping, now() &- lastDrop >= DropNotice.quietNanoseconds else { return nil }
    dropping = false
    defer { droppedInEpisode = 0 }
    return .ended(dropped: droppedInEpisode)
  }

  /// Writes the line for `change` on standard error: `binding-diagnostics: sink=NAME …`.
  /// - Parameters:
  ///   - change: What happened.
  ///   - sink: `jsonl` or `journald`, with any identifying `key=value` pairs after it.
  ///   - capacity: The queue's capacity, in records.
  static func say(_ change: Change, sink: [UInt8], capacity: Int) {
    var line = Array("binding-diagnostics: sink=".utf8) + sink
    switch change {
    case .started:
      line.append(contentsOf: " queue=".utf8)
      line.appendDecimal(capacity)
      line.append(contentsOf: " action=\"queue full, dropping records\"".utf8)
    case .ended(let dropped):
      line.append(contentsOf: " dropped=".utf8)
      line.appendDecimal(dropped)
      line.append(contentsOf: " action=\"queue accepting again\"".utf8)
    }
    line.append(UInt8(ascii: "\n"))
    ConfigurationWarning.write(line)
  }
}
