/// Where `follow` starts: which records already written it shows before the new ones.
package enum FollowStart: Sendable, Hashable {
  /// The last `n` events that pass the filter (0: only new ones), like `tail -n` and
  /// `journalctl -n`.
  case last(Int)
  /// Everything there is (for a file, its rotated siblings too); for the journal, from the
  /// filter's `since`, or from its head.
  case beginning
}
