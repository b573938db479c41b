/// The ``MisuseOrigin`` of a call site, kind and value type, made once and kept for the life of
/// the process: turning a `StaticString` into a `String` allocates, and naming a type
/// (`String(reflecting:)`) walks its metadata, each costing more than the rest of a report; and a
/// misuse that refers to one shared origin retains one object instead of copying five strings.
///
/// Looked up by the addresses of the `#fileID` and `#function` literals, the line and the type:
/// no string is hashed. The kinds reported at one site share its key and are told apart by
/// comparing them (a built-in kind's strings are the same literals at every report, so they
/// compare equal without reading a byte). Small open-addressed tables, one per group of threads
/// (``ThreadOrdinal``), each behind its own lock and with strings of its own: threads misusing at
/// once neither wait for one lock nor write the same reference counts. Entries are never removed
/// (a process has a bounded number of call sites, and of kinds reported at each).
enum SiteTable {
  /// An origin and the key it was made for.
  private struct Slot {
    let key: Key
    let origin: MisuseOrigin
  }

  private struct Key: Equatable {
    let file: UInt
    let function: UInt
    let line: UInt
    let type: ObjectIdentifier

    /// A multiplicative mix of the four words; the table's size is a power of two.
    var hash: Int {
      var mixed = file &* 0x9E37_79B9_7F4A_7C15
      mixed ^= function &* 0xC2B2_AE3D_27D4_EB4F
      mixed ^= line &* 0x1656_67B1_9E37_79F9
      mixed ^= UInt(bitPattern: type) &* 0x85EB_CA77_C2B2_AE63
      return Int(truncatingIfNeeded: mixed ^ (mixed >> 29))
    }
  }

  private struct Table {
    var slots = [Slot?](repeating: nil, count: 64)
    var count = 0

    func find(_ key: Key, kind: MisuseKind) -> MisuseOrigin? {
      let mask = slots.count - 1
      var index = key.hash & mask
      while let slot = slots[index] {
        if slot.key == key, slot.origin.kind == kind { return slot.origin }
        index = (index + 1) & mask
      }
      return nil
    }

    mutating func insert(_ slot: Slot) {
      if (count + 1) * 2 > slots.count {
        let old = slots
        slots = [Slot?](repeating: nil, count: old.count * 2)
        count = 0
        for case let kept? in old { insert(kept) }
      }
      let mask = slots.count - 1
      var index = slot.key.hash & mask
      while slots[index] != nil { index = (index + 1) & mask }
      slots[index] = slot
      count += 1
    }
  }

  /// One table and its lock, padded so that two tables' locks (made one after the other) never
  /// share a cache line: threads locking their own tables must not slow each other.
  private final class Shard: Sendable {
    let table = Lock(Table())
    private let padding = CacheLinePadding()
  }

  /// Tables, one per group of threads: thread `n` uses table `n % shardCount`.
  static let shardCount = 8
  private static let shards = Striped(count: shardCount) { Shard() }

  /// The origin of a kind, call site and value type, made on first use.
  /// - Parameters:
  ///   - kind: What went wrong.
  ///   - fileID: `#fileID` of the call site.
  ///   - line: `#line` of the call site.
  ///   - function: `#function` of the call site.
  ///   - valueType: The type whose `String(reflecting:)` the report carries.
  ///   - thread: The caller's ``ThreadOrdinal``.
  /// - Returns: The kind, the call site's strings and the type's name.
  static func origin(
    _ kind: MisuseKind, fileID: StaticString, line: UInt, function: StaticString,
    valueType: Any.Type, thread: Int
  ) -> MisuseOrigin {
    let shard = shards[thread]
    let key = Key(
      file: address(fileID), function: address(function), line: line,
      type: ObjectIdentifier(valueType))
    if let known = shard.table.withLock({ $0.find(key, kind: kind) }) { return known }
    let made = MisuseOrigin(
      kind: kind, site: CallSite(fileID: fileID, line: line, function: function),
      valueType: String(reflecting: valueType))
    return shard.table.withLock { table in
      if let raced = table.find(key, kind: kind) { return raced }
      table.insert(Slot(key: key, origin: made))
      return made
    }
  }

  /// Where a literal's bytes are, or its one scalar for a literal held as a scalar.
  private static func address(_ text: StaticString) -> UInt {
    text.hasPointerRepresentation
      ? UInt(bitPattern: text.utf8Start) : UInt(text.unicodeScalar.value)
  }
}
