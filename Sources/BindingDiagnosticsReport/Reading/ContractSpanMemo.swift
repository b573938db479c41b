#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(Musl)
  import Musl
#endif

/// Spans of contract lines that a set of fields decides byte for byte, remembered with what
/// reading them gave, so a line repeating a span is not walked field by field there.
///
/// A call site decides every byte from the quote closing the level to the quote closing
/// `value_type` (kind, message id, message, file, line, function, type: 27 quotes), and a run
/// every byte from the comma before `process` to the quote closing `run` (process, pid, host,
/// run: 14 quotes). Read from the same bytes, the walk of ``ContractStructuralScanner`` gives the
/// same fields, and ``ContractRecordParser`` the same ids, so a span equal to one kept here (all
/// its bytes compared) takes its ids, and its line number for a call site, from the memo. The
/// span's end is found by counting quote bits, its entry by a hash of its length and four words
/// of it. A span is kept only after its walk and its fields' checks passed, and, as
/// ``ContractFieldSets``, only while lookups pay. Its ids are the chunk's table's: the memo is
/// forgotten with it.
struct ContractSpanMemo: Sendable {
  /// What a span kept gave: its fields' ids (``ContractFieldSets/IDs``) and, for a call site,
  /// its line number.
  struct Entry: Sendable {
    var hash: UInt64
    var start: Int
    var count: Int
    var ids: ContractFieldSets.IDs
    var line: Int
  }

  /// The quotes of a call site's span: the one closing the level, then two per key and per
  /// text value (kind, message id, message, file, line, function, type).
  static let siteQuotes = 27
  /// The quotes of a run's span: two per key and per text value (process, pid, host, run).
  static let runQuotes = 14

  /// The quotes from the span's first byte through its last.
  let quotes: Int
  /// ``StringTable/Hasher/seed``, read once (each read of the lazy global is a call).
  private let seed = StringTable.Hasher.seed
  private var arena: [UInt8] = []
  private var entries: [Entry] = []
  /// Per slot, the index + 1 of an entry, 0 for none; at most half full.
  private var slots = [UInt32](repeating: 0, count: 64)
  private(set) var lookups = 0
  private(set) var misses = 0
  /// Entries compared, at most, before a lookup gives up (spans hashing alike but differing).
  private static let maxProbes = 8
  /// Bytes of spans kept, at most, per chunk.
  private static let maxArenaBytes = 1 << 20

  /// A memo of spans holding `quotes` quotes.
  init(quotes: Int) {
    self.quotes = quotes
  }

  /// Whether lookups still pay in this chunk (most spans repeat), as
  /// ``ContractFieldSets/pay``.
  var pay: Bool {
    (misses < 1024 || misses &* 4 < lookups) && arena.count < ContractSpanMemo.maxArenaBytes
  }

  /// Bytes held, roughly.
  var bytes: Int {
    arena.count &+ entries.count &* MemoryLayout<Entry>.stride &+ slots.count &* 4
  }

  /// Forgets every span, keeping the storage.
  mutating func removeAll() {
    arena.removeAll(keepingCapacity: true)
    entries.removeAll(keepingCapacity: true)
    slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    lookups = 0
    misses = 0
  }

  /// The entry at `index` (from ``find(_:count:start:end:)``).
  @inline(__always)
  func entry(_ index: Int) -> Entry {
    entries.withUnsafeBufferPointer { $0[index] }
  }

  /// The hash a span of `count` bytes (at least 24) at `start` is kept under: of its length,
  /// its bytes 8 to 24 and its last 96 bytes (all of a run's, and of a call site's the type,
  /// function, line and the file's end), in two lanes of words so the multiplications overlap.
  /// Spans alike there but differing elsewhere are told apart by their bytes, up to
  /// ``maxProbes`` of them.
  @inline(__always)
  func hash(_ start: UnsafePointer<UInt8>, count: Int) -> UInt64 {
    let raw = UnsafeRawPointer(start)
    func word(_ offset: Int) -> UInt64 { raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
    var a = seed ^ UInt64(truncatingIfNeeded: count)
    var b = (a ^ word(8)) &* 0x9e37_79b9_7f4a_7c15
    a = (a ^ word(16)) &* 0xbf58_476d_1ce4_e5b9
    var offset = count &- min(count, 96)
    while offset &+ 16 <= count {
      a = (a ^ word(offset)) &* 0xbf58_476d_1ce4_e5b9
      b = (b ^ word(offset &+ 8)) &* 0x9e37_79b9_7f4a_7c15
      offset &+= 16
    }
    if offset < count { a = (a ^ word(count &- 8)) &* 0xbf58_476d_1ce4_e5b9 }
    let mixed = (a ^ (b &>> 29 | b &<< 35)) &* 0x94d0_49bb_1331_11eb
    return mixed ^ (mixed &>> 32)
  }

  /// The index of the entry whose span equals the `count` bytes at `start`, or -1. Counts a
  /// lookup, and a miss, for ``pay``.
  @inline(__always)
  mutating func find(_ start: UnsafePointer<UInt8>, count: Int) -> Int {
    lookups &+= 1
    let hash = self.hash(start, count: count)
    let found = slots.withUnsafeBufferPointer { slots in
      entries.withUnsafeBufferPointer { entries in
        arena.withUnsafeBufferPointer { arena -> Int in
          let mask = slots.count &- 1
          var slot = Int(truncatingIfNeeded: hash) & mask
          var probes = 0
          while probes < ContractSpanMemo.maxProbes {
            let held = Int(slots[slot])
            if held == 0 { return -1 }
            let entry = entries[held &- 1]
            if entry.hash == hash, entry.count == count {
              if memcmp(arena.baseAddress! + entry.start, start, count) == 0 { return held &- 1 }
              probes &+= 1
            }
            slot = (slot &+ 1) & mask
          }
          return -1
        }
      }
    }
    if found < 0 { misses &+= 1 }
    return found
  }

  /// Keeps the `count` bytes at `start` (a span just walked, whose fields passed their checks)
  /// with its ids and line number, unless lookups no longer ``pay`` or the span is kept already.
  mutating func insert(
    _ start: UnsafePointer<UInt8>, count: Int, ids: ContractFieldSets.IDs, line: Int
  ) {
    guard pay, count >= 24 else { return }
    let hash = self.hash(start, count: count)
    let mask = slots.count &- 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    var alike = 0
    while slots[slot] != 0 {
      let entry = entries[Int(slots[slot]) &- 1]
      if entry.hash == hash, entry.count == count {
        alike &+= 1
        // Kept already, or too many alike to find: walked each time.
        if alike >= ContractSpanMemo.maxProbes { return }
        if arena.withUnsafeBufferPointer({ memcmp($0.baseAddress! + entry.start, start, count) })
          == 0
        {
          return
        }
      }
      slot = (slot &+ 1) & mask
    }
    entries.append(Entry(hash: hash, start: arena.count, count: count, ids: ids, line: line))
    arena.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
    slots[slot] = UInt32(truncatingIfNeeded: entries.count)
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
