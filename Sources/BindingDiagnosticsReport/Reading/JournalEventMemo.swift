import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Remembers the events of recent journal entries by the bytes of their fields, all but those
/// that change from record to record or from host to host (``unkeyed``: the time, `seq`,
/// `value_present`, `run`, `_PID` and `_HOSTNAME`) and journald's `_UID` and `_BOOT_ID`, which
/// the event does not hold. An entry whose other fields are byte for byte those of an entry
/// that decoded to an event decodes to that event with its own unkeyed fields, once
/// ``JournalEntryDecoder`` has checked them as decoding does: every other check passed on the
/// same bytes. Most entries repeat a recent one's site and process, on whatever host, and skip
/// the decoding, the message's suffix and the checks.
///
/// 512 sets of 2 slots, the set picked by a hash of the key, the slot replaced the one used
/// less recently (a record that folded events, whose message is its own, does not push out a
/// site's common entry); a slot holds the key's bytes (compared in full) and the event.
/// A class, so that its buffer is freed once.
final class JournalEventMemo {
  /// The key of the entry last looked up: per keyed field, its length as 4 bytes (all ones
  /// when absent), then its bytes.
  private var key: UnsafeMutableRawPointer
  private var capacity = 4096
  private var used = 0
  /// The slot of the entry last looked up.
  private var slot = 0
  private var keys = [[UInt8]](repeating: [], count: JournalEventMemo.size)
  private var events = [MisuseEvent?](repeating: nil, count: JournalEventMemo.size)
  /// Per set of two slots, the one to replace next: the one used less recently.
  private var victims = [UInt8](repeating: 0, count: JournalEventMemo.size / 2)

  private static let size = 1024
  /// The most bytes of field values an entry remembered may have (the sink's records, cut to
  /// its limits, stay well below).
  static let largestEntry = 16_384
  /// The fields ``JournalEntryDecoder`` sets in a remembered event from the entry's own bytes.
  static let perRecord = [ContractField.ID.timestamp, .seq, .valuePresent, .run, .pid, .host]
    .map(ContractField.index(of:))
  /// Whether ``EventDecoder/journalFields``' field at an index is left out of the key.
  private static let unkeyed: [Bool] = EventDecoder.journalFields.indices.map {
    (perRecord + [EventDecoder.uidIndex, EventDecoder.bootIndex]).contains($0)
  }

  init() {
    key = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16)
  }

  deinit { key.deallocate() }

  /// The event remembered for an entry with `values` (in ``EventDecoder/journalFields``
  /// order) whose keyed fields are those of one remembered, or `nil` (then ``remember(_:)``
  /// stores the event the caller decodes for it). Its unkeyed fields are the remembered
  /// entry's: the caller sets them.
  func event(_ values: [UnsafeRawBufferPointer?]) -> MisuseEvent? {
    used = 0
    for index in values.indices where !JournalEventMemo.unkeyed[index] {
      let value = values[index]
      let count = value?.count ?? 0
      reserve(4 + count)
      key.storeBytes(
        of: value == nil ? UInt32.max : UInt32(truncatingIfNeeded: count), toByteOffset: used,
        as: UInt32.self)
      used += 4
      if let value, count > 0 {
        (key + used).copyMemory(from: value.baseAddress!, byteCount: count)
        used += count
      }
    }
    let set = JournalEventMemo.hash(key, used) & (JournalEventMemo.size / 2 - 1)
    for way in 0..<2 {
      let index = set * 2 + way
      if let event = events[index], keys[index].count == used,
        keys[index].withUnsafeBytes({ memcmp($0.baseAddress!, key, used) }) == 0
      {
        slot = index
        victims[set] = UInt8(1 - way)
        return event
      }
    }
    slot = set * 2 + Int(victims[set])
    return nil
  }

  /// Remembers `event` as the event of the entry last looked up with ``event(_:)``.
  func remember(_ event: MisuseEvent) {
    keys[slot] = Array(UnsafeRawBufferPointer(start: key, count: used))
    events[slot] = event
    victims[slot / 2] = UInt8(1 - slot % 2)
  }

  private func reserve(_ more: Int) {
    guard used + more > capacity else { return }
    var grown = capacity * 2
    while used + more > grown { grown *= 2 }
    let larger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 16)
    larger.copyMemory(from: key, byteCount: used)
    key.deallocate()
    (key, capacity) = (larger, grown)
  }

  /// A hash of `count` bytes at `bytes`, eight at a time.
  private static func hash(_ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    var mix = UInt64(truncatingIfNeeded: count) &* 0x9e37_79b9_7f4a_7c15
    var offset = 0
    while offset + 8 <= count {
      mix =
        (mix ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        &* 0xbf58_476d_1ce4_e5b9
      mix ^= mix >> 29
      offset += 8
    }
    while offset < count {
      mix = (mix ^ UInt64(bytes.load(fromByteOffset: offset, as: UInt8.self))) &* 0x0100_0000_01b3
      offset += 1
    }
    mix = (mix ^ (mix >> 32)) &* 0xd6e8_feb8_6659_fd93
    return Int(truncatingIfNeeded: mix ^ (mix >> 32))
  }
}
