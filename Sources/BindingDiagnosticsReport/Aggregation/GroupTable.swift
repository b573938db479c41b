import BindingDiagnostics

/// The groups of an aggregation, compact: a group's key is a few integers in one flat array,
/// its counts and the first value of each of its sets fit 64 bytes, and only a group with more
/// (a second process, host, type, label, function, writer or level, or events more than a second
/// apart) has an ``Extra``. Groups are found through an open-addressing table of indices keyed
/// by a seeded hash of the key, so a million distinct groups cost about 100 MB and not one
/// string each; ``Summary/Groups`` builds one ``Summary/Group`` when it is read.
struct GroupTable: Sendable {
  /// One group's counts and, inline, the first value of each set.
  struct State: Sendable {
    var events = 0
    var records = 0
    var first = Int64.max
    var last = Int64.min
    var process = InternedRecord.none
    var host = InternedRecord.none
    var valueType = InternedRecord.none
    /// `none` until a record with a label.
    var label = InternedRecord.none
    var function = InternedRecord.none
    /// `none` until a record with a writer.
    var writer = InternedRecord.none
    /// The index + 1 of the group's ``Extra``, 0 for none.
    var extra: UInt32 = 0
    /// The rank of every event's level, or ``GroupTable/mixedLevels`` (the extra's levels).
    var level: UInt8
    /// Whether the extra holds a histogram: until then the events lie within one bucket of
    /// ``TimeHistogram``'s narrowest, and `first`, `last` and `events` are that bucket.
    var histogram = false
  }

  /// What a group holds beyond one value of each set, one level and one second.
  struct Extra: Sendable {
    var processes = IDSet()
    var hosts = IDSet()
    var valueTypes = IDSet()
    var labels = IDSet()
    var functions = IDSet()
    var writers = IDSet()
    /// Events per level, by rank, once a group has two levels.
    var levels = SIMD8<Int64>.zero
    var histogram = TimeHistogram()
  }

  /// The values of one set after its first (kept in ``State``): at most ``limit`` in all;
  /// past that, the smallest, so which ones are kept does not depend on the input's order.
  /// Values repeat, and there are few: compare with the last one, then scan the ids.
  struct IDSet: Sendable {
    static let limit = 64
    private(set) var more: [UInt32] = []
    /// The value inserted last (kept, or refused: a refused value stays refused, since the
    /// largest kept value only ever decreases).
    private var last = InternedRecord.none
    /// Once full, where the largest kept value is: an index in `more`, -1 for the first,
    /// -2 before it is needed.
    private var largest = -2
    /// Bit `id` set for each id below 64 in `more`: a busy group's few values are small ids
    /// (the table numbers strings in order of first sight), and a value met again, the usual
    /// case, is then found without a scan.
    private var small: UInt64 = 0

    /// Inserts `id`, which is not `first` (the set's first value, already set).
    @inline(__always)
    mutating func insert(_ id: UInt32, first: inout UInt32, strings: StringTable) {
      if id == last { return }
      last = id
      // Kept already: nothing changes (when full, neither would it below).
      if id < 64, small & (1 &<< UInt64(id)) != 0 { return }
      guard more.count + 1 < IDSet.limit else {
        return keepIfSmaller(id, first: &first, strings: strings)
      }
      if id >= 64, more.contains(id) { return }
      more.append(id)
      small |= IDSet.bit(id)
    }

    /// 0 when inserting `id` would change nothing, as ``insert(_:first:strings:)`` finds
    /// first: `id` is the set's `first` value, or `first` is not set yet (the record sets it),
    /// or `id` is a small id kept; with `skippingNone`, also when `id` is `none` (labels and
    /// writers: a record without one). Else 1. Integer arithmetic, no branch.
    @inline(__always)
    func unknown(_ id: UInt32, first: UInt32, skippingNone: Bool = false) -> UInt64 {
      // 1 when `x` is not 0: bit 32 of `x + 2^32 - 1`.
      @inline(__always) func nonzero(_ x: UInt32) -> UInt64 { (UInt64(x) &+ 0xffff_ffff) &>> 32 }
      let kept = (small &>> UInt64(id & 63)) & 1 & (nonzero(id &>> 6) ^ 1)
      var unknown = nonzero(id ^ first) & nonzero(~first) & (kept ^ 1)
      if skippingNone { unknown &= nonzero(~id) }
      return unknown
    }

    /// `id`'s bit in `small`, 0 for an id of 64 or more.
    @inline(__always)
    private static func bit(_ id: UInt32) -> UInt64 {
      id < 64 ? 1 &<< UInt64(id) : 0
    }

    /// Whether the set, full, would refuse a value of `bytes` (not smaller than the largest
    /// kept): what ``insert(_:first:strings:)`` would do, without the value's id.
    mutating func refuses(_ bytes: UnsafeBufferPointer<UInt8>, first: UInt32, strings: StringTable)
      -> Bool
    {
      guard more.count + 1 >= IDSet.limit else { return false }
      findLargest(first: first, strings: strings)
      return !strings.precedes(bytes, largest < 0 ? first : more[largest])
    }

    private mutating func findLargest(first: UInt32, strings: StringTable) {
      guard largest == -2 else { return }
      let index = more.indices.max { strings.precedes(more[$0], more[$1]) } ?? 0
      largest = strings.precedes(first, more[index]) ? index : -1
    }

    /// When full: `id` replaces the largest kept value if its string is smaller (bytes are
    /// compared: UTF-8's byte order is code-point order) and it is not kept already. Out of
    /// line, so the common path stays small; the largest is found again only after a
    /// replacement, and a value not smaller is refused without a scan.
    @inline(never)
    private mutating func keepIfSmaller(_ id: UInt32, first: inout UInt32, strings: StringTable) {
      findLargest(first: first, strings: strings)
      guard strings.precedes(id, largest < 0 ? first : more[largest]), !more.contains(id)
      else { return }
      if largest < 0 {
        first = id
      } else {
        small &= ~IDSet.bit(more[largest])
        more[largest] = id
        small |= IDSet.bit(id)
      }
      largest = -2
    }
  }

  /// ``State/level`` of a group with events of several levels.
  static let mixedLevels = UInt8.max

  /// Key fields per group.
  let width: Int
  /// The keys, `width` values per group, in the order groups were made.
  private var keys: [Int64] = []
  /// The groups, in the order they were made.
  private(set) var states: [State] = []
  private var extras: [Extra] = []
  /// Per slot, the index + 1 of a group, 0 for none; at most half full.
  private var slots = [UInt32](repeating: 0, count: 1024)
  /// The process's seed, so crafted keys cannot aim at collisions they cannot see.
  private static let processSeed = UInt64.random(in: .min ... .max) | 1
  /// ``processSeed``, read once: each read of the lazy global is a call.
  private let seed = GroupTable.processSeed

  /// An empty table of keys of `width` fields (1 to 16; ten fields exist).
  init(width: Int) {
    self.width = width
  }

  /// Groups made so far.
  var count: Int { states.count }

  /// The key of group `index`, field `position`.
  func key(_ index: Int, _ position: Int) -> Int64 { keys[index &* width &+ position] }

  /// The index of the group of `key` (its first `width` lanes), made when new with the level
  /// of its first record.
  @inline(__always)
  mutating func index(of key: SIMD16<Int64>, level: MisuseLevel) -> Int {
    let hash = hash(key)
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    while true {
      let held = Int(slots[slot])
      if held == 0 { break }
      if matches(held - 1, key) { return held - 1 }
      slot = (slot + 1) & mask
    }
    let index = states.count
    slots[slot] = UInt32(index + 1)
    for position in 0..<width { keys.append(key[position]) }
    states.append(State(level: UInt8(level.rank)))
    if states.count * 2 > slots.count { grow() }
    return index
  }

  @inline(__always)
  private func matches(_ index: Int, _ key: SIMD16<Int64>) -> Bool {
    let base = index &* width
    return keys.withUnsafeBufferPointer { keys in
      if width == 3 {
        return keys[base] == key[0] && keys[base &+ 1] == key[1] && keys[base &+ 2] == key[2]
      }
      for position in 0..<width where keys[base &+ position] != key[position] { return false }
      return true
    }
  }

  @inline(__always)
  private func hash(_ key: SIMD16<Int64>) -> UInt64 {
    var mix = seed
    @inline(__always) func combine(_ lane: Int64) {
      mix = (mix ^ UInt64(bitPattern: lane)) &* 0xbf58_476d_1ce4_e5b9
      mix ^= mix &>> 31
    }
    if width == 3 {
      // The default grouping (kind, file, line), unrolled.
      combine(key[0])
      combine(key[1])
      combine(key[2])
    } else {
      for position in 0..<width { combine(key[position]) }
    }
    mix = (mix ^ (mix &>> 30)) &* 0x94d0_49bb_1331_11eb
    return mix ^ (mix &>> 31)
  }

  private mutating func grow() {
    let size = slots.count * 2
    slots = [UInt32](repeating: 0, count: size)
    let mask = size - 1
    var key = SIMD16<Int64>.zero
    for index in states.indices {
      for position in 0..<width { key[position] = keys[index * width + position] }
      var slot = Int(truncatingIfNeeded: hash(key)) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = UInt32(index + 1)
    }
  }

  /// Counts `record` in group `index`.
  @inline(__always)
  mutating func add(
    _ record: UnsafePointer<InternedRecord>, to index: Int, strings: StringTable
  ) {
    // The group's state in place: a copy in and out cost more than the counting. (Not in a
    // closure of `withUnsafeMutableBufferPointer`: one the optimizer leaves out of line copies
    // the record.)
    GroupTable.add(record, to: &states[index], extras: &extras, strings: strings)
  }

  /// ``add(_:to:strings:)`` on the group's `state`, its extra (if any) in `extras`. What the
  /// extra takes (histogram, levels, second values) is decided first from the state before the
  /// record, and done in one access to `extras`: most records of a busy group need it, and each
  /// access to the array checks that it is not shared.
  @inline(__always)
  private static func add(
    _ record: UnsafePointer<InternedRecord>, to state: inout State, extras: inout [Extra],
    strings: StringTable
  ) {
    let events = record.pointee.events
    let time = record.pointee.timestamp
    let rank = UInt8(truncatingIfNeeded: record.pointee.level.rank)
    let process = record.pointee.process
    let host = record.pointee.host
    let valueType = record.pointee.valueType
    let label = record.pointee.label
    let function = record.pointee.function
    let writer = record.pointee.writer
    let none = InternedRecord.none
    // Past one bucket: the bucket so far, then this time, go to a histogram.
    let widens =
      !state.histogram && state.records > 0
      && time &>> TimeHistogram.minimumShift != state.first &>> TimeHistogram.minimumShift
    // Whether a second value of a set goes to the extra; not worked out when the group has an
    // extra already (``addToExtra`` then sees to each set).
    let more =
      state.extra != 0
      || (process != state.process && state.process != none)
      || (host != state.host && state.host != none)
      || (valueType != state.valueType && state.valueType != none)
      || (label != state.label && label != none && state.label != none)
      || (function != state.function && state.function != none)
      || (writer != state.writer && writer != none && state.writer != none)
    if more || widens || state.level != rank {
      let extra = extraIndex(&state, &extras)
      addToExtra(
        record, rank: rank, widens: widens, state: &state, extra: &extras[extra],
        strings: strings)
    }
    state.events += events
    state.records += 1
    if time < state.first { state.first = time }
    if time > state.last { state.last = time }
    // The first value of each set; a second one went to the extra above.
    if state.process == none { state.process = process }
    if state.host == none { state.host = host }
    if state.valueType == none { state.valueType = valueType }
    if state.label == none { state.label = label }
    if state.function == none { state.function = function }
    if state.writer == none { state.writer = writer }
  }

  /// The part of ``add(_:to:extras:strings:)`` that goes to the group's `extra`: `state` is
  /// as before the record (its events, first and last time, level and first values).
  @inline(__always)
  private static func addToExtra(
    _ record: UnsafePointer<InternedRecord>, rank: UInt8, widens: Bool, state: inout State,
    extra: inout Extra, strings: StringTable
  ) {
    let events = record.pointee.events
    let time = record.pointee.timestamp
    if state.histogram {
      extra.histogram.add(time, count: events)
    } else if widens {
      extra.histogram = TimeHistogram(first: state.first, last: state.last, count: state.events)
      extra.histogram.add(time, count: events)
      state.histogram = true
    }
    if state.level != rank {
      if state.level != GroupTable.mixedLevels {
        extra.levels[Int(state.level)] = Int64(truncatingIfNeeded: state.events)
        state.level = GroupTable.mixedLevels
      }
      extra.levels[Int(rank)] &+= Int64(truncatingIfNeeded: events)
    }
    // The usual record of a busy group brings values its sets know: the set's first value
    // (or none yet: the record sets it), a small id kept, or none for a label or a writer.
    // Checked for the six sets at once without a branch per set (those mispredict on records
    // taking turns among a few values each: processes, hosts, types); only a record bringing
    // a value not known goes through the sets one by one, out of line.
    let unknown =
      extra.processes.unknown(record.pointee.process, first: state.process)
      | extra.hosts.unknown(record.pointee.host, first: state.host)
      | extra.valueTypes.unknown(record.pointee.valueType, first: state.valueType)
      | extra.labels.unknown(record.pointee.label, first: state.label, skippingNone: true)
      | extra.functions.unknown(record.pointee.function, first: state.function)
      | extra.writers.unknown(record.pointee.writer, first: state.writer, skippingNone: true)
    if unknown != 0 { addToSets(record, state: &state, extra: &extra, strings: strings) }
  }

  /// The part of ``addToExtra(_:rank:widens:state:extra:strings:)`` that inserts `record`'s
  /// values in the group's sets. Out of line: apart, its branches cannot be merged into the
  /// check that calls it.
  @inline(never)
  private static func addToSets(
    _ record: UnsafePointer<InternedRecord>, state: inout State, extra: inout Extra,
    strings: StringTable
  ) {
    let none = InternedRecord.none
    let process = record.pointee.process
    let host = record.pointee.host
    let valueType = record.pointee.valueType
    let label = record.pointee.label
    let function = record.pointee.function
    let writer = record.pointee.writer
    if process != state.process, state.process != none {
      extra.processes.insert(process, first: &state.process, strings: strings)
    }
    if host != state.host, state.host != none {
      extra.hosts.insert(host, first: &state.host, strings: strings)
    }
    if valueType != state.valueType, state.valueType != none {
      extra.valueTypes.insert(valueType, first: &state.valueType, strings: strings)
    }
    if label != state.label, label != none, state.label != none {
      extra.labels.insert(label, first: &state.label, strings: strings)
    }
    if function != state.function, state.function != none {
      extra.functions.insert(function, first: &state.function, strings: strings)
    }
    if writer != state.writer, writer != none, state.writer != none {
      extra.writers.insert(writer, first: &state.writer, strings: strings)
    }
  }

  /// Whether group `index`'s labels, full, would refuse a label of `bytes`.
  mutating func refusesLabel(
    _ bytes: UnsafeBufferPointer<UInt8>, in index: Int, strings: StringTable
  ) -> Bool {
    let state = states[index]
    guard state.extra != 0 else { return false }
    return extras[Int(state.extra) - 1].labels.refuses(bytes, first: state.label, strings: strings)
  }

  /// The extra of a group, if it has one.
  func extra(of state: State) -> Extra? {
    state.extra == 0 ? nil : extras[Int(state.extra) - 1]
  }

  /// The index of `state`'s extra in `extras`, made when it has none.
  @inline(__always)
  private static func extraIndex(_ state: inout State, _ extras: inout [Extra]) -> Int {
    if state.extra == 0 {
      extras.append(Extra())
      state.extra = UInt32(extras.count)
    }
    return Int(state.extra) - 1
  }
}
