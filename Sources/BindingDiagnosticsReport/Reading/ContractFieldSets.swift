/// Text fields of contract lines that come together, each set found by its fields' bytes: a
/// call site's kind, message id, file, function and type; a run's process, host and run; a
/// record's label, test and writer. Lines repeat a few sets many times, so a line whose sets
/// were seen before in the chunk costs one lookup per set (keyed by the hash the scan took of
/// the fields that tell sets apart, every field's bytes compared with the set's once) instead
/// of one ``StringTable`` lookup and format check per field. A set is made only when first seen, by interning its fields one by
/// one as before, so the chunk's table gets the same strings in the same order either way.
struct ContractFieldSets: Sendable {
  /// Ids per set: up to seven, and in the last lane 1 when every field of the set is valid.
  typealias IDs = SIMD8<UInt32>

  /// One set: its hash, where its fields' bytes start in `arena` (one after another), and each
  /// field's length in 12 bits (``absent`` when absent).
  private struct Entry: Sendable {
    var hash: UInt64
    var start: Int
    var counts: UInt64
  }

  /// The length of an absent field in ``Entry/counts`` (a field is at most
  /// ``ContractStructuralScanner/maxBytes`` bytes).
  private static let absent: UInt64 = 0xfff

  private var arena: [UInt8] = []
  private var entries: [Entry] = []
  private var ids: [IDs] = []
  /// Per slot, the index + 1 of a set, 0 for none; at most half full.
  private var slots = [UInt32](repeating: 0, count: 64)
  /// The slot ``find(_:_:_:_:_:hash:in:)`` stopped at, for ``insert(_:)``.
  private var pending = (slot: 0, entry: Entry(hash: 0, start: 0, counts: 0))
  private var lookups = 0
  private var misses = 0

  /// Whether lookups still pay in this chunk: most lines' sets were seen before. When a set's
  /// fields hardly repeat (a label per record), ``ids(_:_:_:_:_:hash:in:make:)`` interns them
  /// one by one instead.
  var pay: Bool { misses < 1024 || misses &* 4 < lookups }

  /// Bytes held, roughly.
  var bytes: Int {
    arena.count &+ entries.count &* MemoryLayout<Entry>.stride &+ ids.count
      &* MemoryLayout<IDs>.stride &+ slots.count &* 4
  }

  /// Forgets every set, keeping the storage.
  mutating func removeAll() {
    arena.removeAll(keepingCapacity: true)
    entries.removeAll(keepingCapacity: true)
    ids.removeAll(keepingCapacity: true)
    slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    lookups = 0
    misses = 0
  }

  /// The ids of the set of fields `a` to `e` of `line` (absent ones `nil`), whose hash the
  /// scan took (equal for equal fields): those of the set when it was seen before, else what
  /// `make` gives (it interns the fields one by one, lane 7 set when they are all valid), kept
  /// for the next lines while lookups ``pay``.
  @inline(__always)
  mutating func ids(
    _ a: ContractFastParser.Text?, _ b: ContractFastParser.Text?, _ c: ContractFastParser.Text?,
    _ d: ContractFastParser.Text?, _ e: ContractFastParser.Text?, hash: UInt64,
    in line: UnsafeBufferPointer<UInt8>, make: () -> IDs
  ) -> IDs {
    guard pay else { return make() }
    if let found = find(a, b, c, d, e, hash: hash, in: line) { return found }
    let made = make()
    insert(made)
    return made
  }

  /// The ids of the set of fields `a` to `e` of `line`, or `nil` when the set is new: the
  /// caller then interns its fields and gives them to ``insert(_:)``.
  @inline(__always)
  private mutating func find(
    _ a: ContractFastParser.Text?, _ b: ContractFastParser.Text?, _ c: ContractFastParser.Text?,
    _ d: ContractFastParser.Text?, _ e: ContractFastParser.Text?, hash: UInt64,
    in line: UnsafeBufferPointer<UInt8>
  ) -> IDs? {
    var counts: UInt64 = 0
    @inline(__always) func note(_ text: ContractFastParser.Text?, _ lane: Int) {
      let length = text.map { UInt64(truncatingIfNeeded: $0.end &- $0.start) }
      counts |= (length ?? ContractFieldSets.absent) &<< UInt64(12 &* lane)
    }
    note(a, 0)
    note(b, 1)
    note(c, 2)
    note(d, 3)
    note(e, 4)
    lookups &+= 1
    let mask = slots.count &- 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    let found = slots.withUnsafeBufferPointer { slots in
      entries.withUnsafeBufferPointer { entries in
        arena.withUnsafeBufferPointer { arena -> Int in
          while true {
            let held = Int(slots[slot])
            if held == 0 { return -1 }
            let entry = entries[held &- 1]
            if entry.hash == hash, entry.counts == counts {
              var at = arena.baseAddress! + entry.start
              @inline(__always) func same(_ text: ContractFastParser.Text?) -> Bool {
                guard let text, text.end > text.start else { return true }
                let count = text.end &- text.start
                defer { at += count }
                return StringTable.same(at, line.baseAddress! + text.start, count: count)
              }
              if same(a), same(b), same(c), same(d), same(e) { return held &- 1 }
            }
            slot = (slot &+ 1) & mask
          }
        }
      }
    }
    if found >= 0 { return ids.withUnsafeBufferPointer { $0[found] } }
    misses &+= 1
    pending = (slot, Entry(hash: hash, start: arena.count, counts: counts))
    @inline(__always) func keep(_ text: ContractFastParser.Text?) {
      if let text { arena.append(contentsOf: text.bytes(in: line)) }
    }
    keep(a)
    keep(b)
    keep(c)
    keep(d)
    keep(e)
    return nil
  }

  /// Makes the set ``find(_:_:_:_:_:hash:in:)`` just did not find, with its ids (lane 7 set
  /// when they are all valid).
  private mutating func insert(_ set: IDs) {
    entries.append(pending.entry)
    ids.append(set)
    slots[pending.slot] = UInt32(truncatingIfNeeded: entries.count)
    if entries.count &* 2 > slots.count { grow() }
  }

  private mutating func grow() {
    let size = slots.count &* 2
    slots = [UInt32](repeating: 0, count: size)
    let mask = size &- 1
    for (index, entry) in entries.enumerated() {
      var slot = Int(truncatingIfNeeded: entry.hash) & mask
      while slots[slot] != 0 { slot = (slot &+ 1) & mask }
      slots[slot] = UInt32(truncatingIfNeeded: index &+ 1)
    }
  }
}
