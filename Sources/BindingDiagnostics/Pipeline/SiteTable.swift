/// The strings of a call site and of a value type, made once per site and type and kept for the
/// life of the process: turning a `StaticString` into a `String` allocates, and naming a type
/// (`String(reflecting:)`) walks its metadata, each costing more than the rest of a report.
///
/// Looked up by the addresses of the `#fileID` and `#function` literals, the line and the type:
/// no string is hashed or compared. Small open-addressed tables, one per group of threads
/// (``ThreadOrdinal``), each behind its own lock and with strings of its own: threads misusing at
/// once neither wait for one lock nor write the same reference counts. Entries are never removed
/// (a process has a bounded number of call sites).
enum SiteTable {
  /// A call site and the name of the value type reported there.
  final class Entry: Sendable {
    let site: CallSite
    let valueType: String
    fileprivate let key: Key

    fileprivate init(site: CallSite, valueType: String, key: Key) {
      self.site = site
      self.valueType = valueType
      self.key = key
    }
  }

  fileprivate struct Key: Equatable {
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
    var slots = [Entry?](repeating: nil, count: 64)
    var count = 0

    func find(_ key: Key) -> Entry? {
      let mask = slots.count - 1
      var index = key.hash & mask
      while let entry = slots[index] {
        if entry.key == key { return entry }
        index = (index + 1) & mask
      }
      return nil
    }

    mutating func insert(_ entry: Entry) {
      if (count + 1) * 2 > slots.count {
        let old = slots
        slots = [Entry?](repeating: nil, count: old.count * 2)
        count = 0
        for case let kept? in old { insert(kept) }
      }
      let mask = slots.count - 1
      var index = entry.key.hash & mask
      while slots[index] != nil { index = (index + 1) & mask }
      slots[index] = entry
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

  /// The entry for a call site and value type, made on first use.
  /// - Parameters:
  ///   - fileID: `#fileID` of the call site.
  ///   - line: `#line` of the call site.
  ///   - function: `#function` of the call site.
  ///   - valueType: The type whose `String(reflecting:)` the report carries.
  ///   - thread: The caller's ``ThreadOrdinal``.
  /// - Returns: The call site's strings and the type's name.
  static func entry(
    fileID: StaticString, line: UInt, function: StaticString, valueType: Any.Type, thread: Int
  ) -> Entry {
    let shard = shards[thread]
    let key = Key(
      file: address(fileID), function: address(function), line: line,
      type: ObjectIdentifier(valueType))
    if let known = shard.table.withLock({ $0.find(key) }) { return known }
    let made = Entry(
      site: CallSite(fileID: fileID, line: line, function: function),
      valueType: String(reflecting: valueType), key: key)
    return shard.table.withLock { table in
      if let raced = table.find(key) { return raced }
      table.insert(made)
      return made
    }
  }

  /// Where a literal's bytes are, or its one scalar for a literal held as a scalar.
  private static func address(_ text: StaticString) -> UInt {
    text.hasPointerRepresentation
      ? UInt(bitPattern: text.utf8Start) : UInt(text.unicodeScalar.value)
  }
}
