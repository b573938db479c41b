#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Interns byte strings: each distinct one gets a small number, in order of first sight, and
/// its bytes are kept once in one arena. The summary path keys everything by these numbers, so
/// it hashes a field's bytes once per distinct value per chunk instead of building a `String`
/// per line. Open addressing with linear probing over a power-of-two table, seeded per process
/// so crafted input cannot aim at collisions it cannot see.
struct StringTable: Sendable {
  /// One interned string: where its bytes are in the arena, and their hash.
  private struct Entry: Sendable {
    var start: Int
    var count: Int
    var hash: UInt64
  }

  private var arena: [UInt8] = []
  private var entries: [Entry] = []
  /// Per slot, `id + 1` in the low half and the high half of the string's hash in the high
  /// half, 0 for an empty slot: a probe that meets another string rarely reads its entry.
  private var slots: [UInt64]
  private var mask: Int

  /// The process's seed, from the system's random source.
  fileprivate static let processSeed = UInt64.random(in: .min ... .max) | 1

  /// An empty table sized for about `capacity` strings before it grows.
  init(capacity: Int = 256) {
    var size = 16
    while size < capacity * 2 { size <<= 1 }
    slots = [UInt64](repeating: 0, count: size)
    mask = size - 1
  }

  /// Strings interned so far; their ids are `0..<count`.
  var count: Int { entries.count }

  /// Bytes the table holds (strings, entries, slots), without spare capacity.
  var bytes: Int {
    arena.count &+ entries.count &* MemoryLayout<Entry>.stride
      &+ slots.count &* MemoryLayout<UInt64>.stride
  }

  /// Forgets every string, keeping the storage.
  mutating func removeAll() {
    arena.removeAll(keepingCapacity: true)
    entries.removeAll(keepingCapacity: true)
    slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
  }

  /// The id of `bytes`, and whether it is new (interned by this call).
  @inline(__always)
  mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>) -> (id: UInt32, new: Bool) {
    intern(bytes, hash: StringTable.hash(bytes))
  }

  /// The id of `bytes` whose ``hash(_:)`` is `hash`, and whether it is new.
  mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (
    id: UInt32, new: Bool
  ) {
    var slot = Int(truncatingIfNeeded: hash) & mask
    let tag = hash & StringTable.tagMask
    let mask = self.mask
    // The probe reads the three arrays through their buffers: no bounds check, no reference
    // count per access.
    let found = slots.withUnsafeBufferPointer { slots in
      entries.withUnsafeBufferPointer { entries in
        arena.withUnsafeBufferPointer { arena -> Int in
          while true {
            let held = slots[slot]
            if held == 0 { return -1 }
            if held & StringTable.tagMask == tag {
              let index = Int(truncatingIfNeeded: held & ~StringTable.tagMask) &- 1
              let entry = entries[index]
              if entry.hash == hash, entry.count == bytes.count,
                bytes.count == 0
                  || StringTable.same(
                    arena.baseAddress! + entry.start, bytes.baseAddress!, count: bytes.count)
              {
                return index
              }
            }
            slot = (slot &+ 1) & mask
          }
        }
      }
    }
    if found >= 0 { return (UInt32(truncatingIfNeeded: found), false) }
    let id = UInt32(entries.count)
    entries.append(Entry(start: arena.count, count: bytes.count, hash: hash))
    arena.append(contentsOf: bytes)
    slots[slot] = tag | UInt64(id + 1)
    if entries.count * 2 > slots.count { grow() }
    return (id, true)
  }

  /// Whether `count` (at least 1) bytes at `a` and `b` are equal: a word at a time, the last
  /// word overlapping the one before, with no call (the strings are short).
  @inline(__always)
  static func same(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int) -> Bool
  {
    let a = UnsafeRawPointer(a)
    let b = UnsafeRawPointer(b)
    func word(_ pointer: UnsafeRawPointer, _ offset: Int) -> UInt64 {
      pointer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
    }
    guard count >= 8 else {
      if count >= 4 {
        return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
          && a.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            == b.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
      }
      for offset in 0..<count
      where a.load(fromByteOffset: offset, as: UInt8.self)
        != b.load(fromByteOffset: offset, as: UInt8.self)
      {
        return false
      }
      return true
    }
    var offset = 0
    while offset &+ 8 < count {
      if word(a, offset) != word(b, offset) { return false }
      offset &+= 8
    }
    return word(a, count &- 8) == word(b, count &- 8)
  }

  /// The ids in this table of every string of `other`, in `other`'s id order, interning the
  /// new ones. A batch's slots, then the entries of those found, are read before any is interned:
  /// the reads do not depend on each other, so their cache misses overlap instead of following
  /// one another (a table of a million strings misses the cache on nearly every new one).
  /// - Parameters:
  ///   - roles: Per id of `other`, bits: an id whose bits meet `moving` is moved, any other is
  ///     `none`; `nil` moves every id.
  ///   - moving: The bits of `roles` that make an id moved.
  mutating func ids(of other: StringTable, roles: [UInt8]? = nil, moving: UInt8 = 0) -> [UInt32] {
    var ids: [UInt32] = []
    ids.reserveCapacity(other.count)
    var start = 0
    while start < other.count {
      let end = min(start + StringTable.batch, other.count)
      if let roles, !roles[start..<end].contains(where: { $0 & moving != 0 }) {
        ids.append(contentsOf: repeatElement(InternedRecord.none, count: end - start))
        start = end
        continue
      }
      var touched: UInt64 = 0
      for id in start..<end {
        touched |= slots[Int(truncatingIfNeeded: other.entries[id].hash) & mask]
      }
      // Then the entries of the strings already here (their slot has their hash's tag).
      for id in start..<end {
        let hash = other.entries[id].hash
        let held = slots[Int(truncatingIfNeeded: hash) & mask]
        if held != 0, held & StringTable.tagMask == hash & StringTable.tagMask {
          touched |= entries[Int(truncatingIfNeeded: held & ~StringTable.tagMask) &- 1].hash
        }
      }
      // Kept, so the reads above are not optimized away.
      touchedSlots |= touched
      for id in start..<end {
        guard roles.map({ $0[id] & moving != 0 }) ?? true else {
          ids.append(InternedRecord.none)
          continue
        }
        ids.append(other.withBytes(UInt32(id)) { intern($0, hash: other.entries[id].hash).id })
      }
      start = end
    }
    return ids
  }

  /// Strings per batch in ``ids(of:)``.
  private static let batch = 32
  /// What ``ids(of:)`` read ahead, kept only so that the reads happen.
  private var touchedSlots: UInt64 = 0

  /// The id of `text`, interning it when new.
  mutating func intern(_ text: String) -> UInt32 {
    var text = text
    return text.withUTF8 { intern($0).id }
  }

  /// Calls `body` with the bytes of the string `id`.
  func withBytes<Result>(_ id: UInt32, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    let entry = entries[Int(id)]
    return arena.withUnsafeBufferPointer {
      body(UnsafeBufferPointer(rebasing: $0[entry.start..<(entry.start + entry.count)]))
    }
  }

  /// Whether the string `lhs` comes before `rhs` byte by byte (for valid UTF-8, code-point
  /// order).
  func precedes(_ lhs: UInt32, _ rhs: UInt32) -> Bool {
    let left = entries[Int(lhs)]
    let right = entries[Int(rhs)]
    let order = arena.withUnsafeBufferPointer { base -> Int32 in
      let common = min(left.count, right.count)
      guard common > 0 else { return 0 }
      return memcmp(base.baseAddress! + left.start, base.baseAddress! + right.start, common)
    }
    return order != 0 ? order < 0 : left.count < right.count
  }

  /// The length in bytes of the string `id`.
  func byteCount(of id: UInt32) -> Int { entries[Int(id)].count }

  /// Whether `bytes` come before the string `id` byte by byte.
  func precedes(_ bytes: UnsafeBufferPointer<UInt8>, _ id: UInt32) -> Bool {
    let entry = entries[Int(id)]
    let order = arena.withUnsafeBufferPointer { base -> Int32 in
      let common = min(bytes.count, entry.count)
      guard common > 0 else { return 0 }
      return memcmp(bytes.baseAddress!, base.baseAddress! + entry.start, common)
    }
    return order != 0 ? order < 0 : bytes.count < entry.count
  }

  /// The hash the table keys `id` by.
  func hash(of id: UInt32) -> UInt64 { entries[Int(id)].hash }

  /// The string `id` (its bytes are valid UTF-8: only validated text is interned).
  func string(_ id: UInt32) -> String {
    withBytes(id) { String(decoding: $0, as: UTF8.self) }
  }

  /// The high half of a slot: the high half of its string's hash.
  private static let tagMask: UInt64 = 0xffff_ffff_0000_0000

  private mutating func grow() {
    let size = slots.count * 2
    slots = [UInt64](repeating: 0, count: size)
    mask = size - 1
    for (index, entry) in entries.enumerated() {
      var slot = Int(truncatingIfNeeded: entry.hash) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = entry.hash & StringTable.tagMask | UInt64(index + 1)
    }
  }

  /// A 64-bit hash of `bytes`, eight bytes at a time, mixed with the process's seed (the same
  /// for every table of the process, so ids move between tables without hashing again).
  @inline(__always)
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var hasher = Hasher()
    let count = bytes.count
    guard let base = bytes.baseAddress.map(UnsafeRawPointer.init) else {
      return hasher.finish(count: 0)
    }
    var offset = 0
    while offset + 8 <= count {
      hasher.combine(base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      offset += 8
    }
    if offset < count {
      var tail: UInt64 = 0
      for index in offset..<count {
        tail |= UInt64(base.load(fromByteOffset: index, as: UInt8.self)) << (8 * (index - offset))
      }
      hasher.combinePartial(tail, count: count - offset)
    }
    return hasher.finish(count: count)
  }

  /// The hash of ``hash(_:)``, fed a word at a time: whole little-endian words from the start,
  /// then the last few bytes as a partial word, then the length. A reader scanning a string
  /// eight or sixteen bytes at a time feeds it the words it loaded anyway.
  struct Hasher {
    private var mix: UInt64

    /// The process's seed: a reader hashing many strings loads it once (each read of the
    /// lazy global is a call) and hands it to ``init(seed:)``.
    static var seed: UInt64 { StringTable.processSeed }

    init() {
      mix = StringTable.processSeed
    }

    /// A hasher from ``seed``, already loaded.
    @inline(__always)
    init(seed: UInt64) {
      mix = seed
    }

    @inline(__always)
    mutating func combine(_ word: UInt64) {
      mix = (mix ^ word) &* 0xbf58_476d_1ce4_e5b9
      mix ^= mix &>> 31
    }

    /// The first `count` (0 to 7) bytes of `word`; none adds nothing.
    @inline(__always)
    mutating func combinePartial(_ word: UInt64, count: Int) {
      guard count > 0 else { return }
      combine(word & ((1 &<< UInt64(8 &* count)) &- 1))
    }

    @inline(__always)
    func finish(count: Int) -> UInt64 {
      var value =
        (mix ^ UInt64(truncatingIfNeeded: count) &* 0x9e37_79b9_7f4a_7c15)
        &* 0x94d0_49bb_1331_11eb
      value = (value ^ (value &>> 30)) &* 0xbf58_476d_1ce4_e5b9
      value = (value ^ (value &>> 27)) &* 0x94d0_49bb_1331_11eb
      return value ^ (value &>> 31)
    }
  }
}
