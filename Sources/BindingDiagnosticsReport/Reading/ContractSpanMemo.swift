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
/// span's end is found by counting quote bits, its entry by a hash of its length and some of
/// its words. A span is kept only after its walk and its fields' checks passed, and, as
/// ``ContractFieldSets``, only while lookups pay. Its ids are the chunk's table's: the memo is
/// forgotten with it.
struct ContractSpanMemo: Sendable {
  /// What a span kept gave: its fields' ids (``ContractFieldSets/IDs``) and, for a call site,
  /// its line number.
  struct Entry: Sendable {
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
  /// Each span kept: a header (its ids, its line number, its length: ``headerBytes``), then
  /// its bytes, so a lookup that finds it reads one place (the lookups' cache misses, three
  /// apart, cost more than their instructions on a file streaming through the cache).
  private var arena: [UInt8] = []
  /// Per slot, 0 for none, else the high half of the span's hash over its header's offset in
  /// `arena` + 1: a slot of another span is told apart without reading the arena. At most half
  /// full.
  private var slots = [UInt64](repeating: 0, count: 64)
  private var count = 0
  private(set) var lookups = 0
  private(set) var misses = 0
  /// Spans compared, at most, before a lookup gives up (spans hashing alike but differing).
  private static let maxProbes = 8
  /// Bytes of spans kept, at most, per chunk (then no more are kept; those kept are still
  /// found).
  private static let maxArenaBytes = 1 << 20
  /// A header: the ids (32 bytes), the line number, the span's length.
  private static let headerBytes = 48

  /// A memo of spans holding `quotes` quotes.
  init(quotes: Int) {
    self.quotes = quotes
  }

  /// Whether lookups still pay in this chunk (most spans repeat), as
  /// ``ContractFieldSets/pay``. Kept, not worked out per line: it changes only when a lookup
  /// misses (or finds a span while it is `false`, which only a direct ``find(_:count:)`` does).
  private(set) var pay = true

  private mutating func weigh() { pay = misses < 1024 || misses &* 4 < lookups }

  /// Bytes held, roughly.
  var bytes: Int { arena.count &+ slots.count &* 8 }

  /// Forgets every span, keeping the storage.
  mutating func removeAll() {
    arena.removeAll(keepingCapacity: true)
    slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    count = 0
    lookups = 0
    misses = 0
    pay = true
  }

  /// The entry found at `offset` by ``find(_:count:)``.
  @inline(__always)
  func entry(_ offset: Int) -> Entry {
    arena.withUnsafeBytes { arena in
      Entry(
        ids: arena.loadUnaligned(fromByteOffset: offset, as: ContractFieldSets.IDs.self),
        line: arena.loadUnaligned(fromByteOffset: offset &+ 32, as: Int.self))
    }
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
    @inline(__always) func step(_ offset: Int) {
      a = (a ^ word(offset)) &* 0xbf58_476d_1ce4_e5b9
      b = (b ^ word(offset &+ 8)) &* 0x9e37_79b9_7f4a_7c15
    }
    if count >= 96 {
      // Every contract span: the six steps of the loop below, unrolled (its counting and
      // branching cost as much as the steps).
      let tail = count &- 96
      step(tail)
      step(tail &+ 16)
      step(tail &+ 32)
      step(tail &+ 48)
      step(tail &+ 64)
      step(tail &+ 80)
    } else {
      var offset = 0
      while offset &+ 16 <= count {
        step(offset)
        offset &+= 16
      }
      if offset < count { a = (a ^ word(count &- 8)) &* 0xbf58_476d_1ce4_e5b9 }
    }
    let mixed = (a ^ (b &>> 29 | b &<< 35)) &* 0x94d0_49bb_1331_11eb
    return mixed ^ (mixed &>> 32)
  }

  /// Where the span equal to the `count` bytes at `start` is kept (for ``entry(_:)``), or -1.
  /// Counts a lookup, and a miss, for ``pay``.
  @inline(__always)
  mutating func find(_ start: UnsafePointer<UInt8>, count: Int) -> Int {
    lookups &+= 1
    let hash = self.hash(start, count: count)
    let tag = hash & 0xffff_ffff_0000_0000
    let found = slots.withUnsafeBufferPointer { slots in
      arena.withUnsafeBytes { arena -> Int in
        let mask = slots.count &- 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        var probes = 0
        while probes < ContractSpanMemo.maxProbes {
          let held = slots[slot]
          if held == 0 { return -1 }
          if held & 0xffff_ffff_0000_0000 == tag {
            let offset = Int(truncatingIfNeeded: held & 0xffff_ffff) &- 1
            if arena.loadUnaligned(fromByteOffset: offset &+ 40, as: Int.self) == count,
              memcmp(arena.baseAddress! + (offset &+ ContractSpanMemo.headerBytes), start, count)
                == 0
            {
              return offset
            }
            probes &+= 1
          }
          slot = (slot &+ 1) & mask
        }
        return -1
      }
    }
    if found < 0 {
      misses &+= 1
      weigh()
    } else if !pay {
      weigh()
    }
    return found
  }

  /// Keeps the `count` bytes at `start` (a span just walked, whose fields passed their checks)
  /// with its ids and line number, unless lookups no longer ``pay``, the span is kept already
  /// or too many spans hash alike.
  mutating func insert(
    _ start: UnsafePointer<UInt8>, count: Int, ids: ContractFieldSets.IDs, line: Int
  ) {
    guard pay, arena.count < ContractSpanMemo.maxArenaBytes, count >= 24 else { return }
    let hash = self.hash(start, count: count)
    let tag = hash & 0xffff_ffff_0000_0000
    let mask = slots.count &- 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    var alike = 0
    while slots[slot] != 0 {
      if slots[slot] & 0xffff_ffff_0000_0000 == tag {
        alike &+= 1
        let offset = Int(truncatingIfNeeded: slots[slot] & 0xffff_ffff) &- 1
        let same = arena.withUnsafeBytes {
          $0.loadUnaligned(fromByteOffset: offset &+ 40, as: Int.self) == count
            && memcmp($0.baseAddress! + (offset &+ ContractSpanMemo.headerBytes), start, count) == 0
        }
        if same || alike >= ContractSpanMemo.maxProbes { return }
      }
      slot = (slot &+ 1) & mask
    }
    let offset = arena.count
    withUnsafeBytes(of: ids) { arena.append(contentsOf: $0) }
    withUnsafeBytes(of: line) { arena.append(contentsOf: $0) }
    withUnsafeBytes(of: count) { arena.append(contentsOf: $0) }
    arena.append(contentsOf: UnsafeBufferPointer(start: start, count: count))
    // The next header on an 8-byte boundary.
    arena.append(contentsOf: repeatElement(0, count: (8 &- arena.count & 7) & 7))
    slots[slot] = tag | UInt64(truncatingIfNeeded: offset &+ 1)
    self.count &+= 1
    if self.count &* 2 > slots.count { grow() }
  }

  private mutating func grow() {
    let size = slots.count &* 2
    let old = slots
    slots = [UInt64](repeating: 0, count: size)
    let mask = size &- 1
    for held in old where held != 0 {
      let offset = Int(truncatingIfNeeded: held & 0xffff_ffff) &- 1
      let count = arena.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset &+ 40, as: Int.self) }
      let hash = arena.withUnsafeBufferPointer {
        self.hash($0.baseAddress! + (offset &+ ContractSpanMemo.headerBytes), count: count)
      }
      var slot = Int(truncatingIfNeeded: hash) & mask
      while slots[slot] != 0 { slot = (slot &+ 1) & mask }
      slots[slot] = held
    }
  }
}
