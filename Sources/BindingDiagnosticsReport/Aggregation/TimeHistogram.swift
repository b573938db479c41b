/// Counts over time in bounded memory, the same for any order of the same events.
///
/// Buckets are anchored at the epoch: at shift `k` (20 or more), the bucket of time `t` (µs)
/// is `t >> k`, so they nest (two buckets at `k` make one at `k + 1`) and merging is exact.
/// The shift is the smallest one at which the earliest and the latest event fall within
/// ``maxBuckets`` buckets: it depends only on those two times, and each bucket's count,
/// earliest and latest time are sums and extremes, so the whole state is a function of the
/// multiset of events added. Any `Int64` time works (the shift never exceeds 58).
struct TimeHistogram: Sendable {
  static let maxBuckets = 64

  /// One bucket: its events and the times of its earliest and latest one.
  private struct Bucket: Sendable {
    var count = 0
    var first = Int64.max
    var last = Int64.min

    mutating func add(_ micros: Int64, count: Int) {
      self.count += count
      if micros < first { first = micros }
      if micros > last { last = micros }
    }

    mutating func merge(_ other: Bucket) {
      count += other.count
      first = min(first, other.first)
      last = max(last, other.last)
    }
  }

  /// The narrowest buckets: 2^20 µs, about a second. Finer ones would only cost widenings.
  static let minimumShift: Int64 = 20
  /// Bucket width is `1 << shift` µs.
  private var shift = minimumShift
  /// The absolute index (`time >> shift`) of `buckets[0]`.
  private var base: Int64 = 0
  /// Earliest and latest time added.
  private var first = Int64.max
  private var last = Int64.min
  /// Empty until the first event; then as many as the span of times seen needs (one for a
  /// group of one time), or up to twice that when times move forward, at most ``maxBuckets``:
  /// many small groups cost little.
  private var buckets: [Bucket] = []

  /// An empty histogram.
  init() {}

  /// The histogram of `count` events from `first` to `last` (µs), which lie within one bucket
  /// of the narrowest width: what adding them one by one makes.
  init(first: Int64, last: Int64, count: Int) {
    base = first &>> shift
    self.first = first
    self.last = last
    buckets = [Bucket(count: count, first: first, last: last)]
  }

  /// Counts `count` events at `micros`: inline inside the window, out of line to widen it.
  @inline(__always)
  mutating func add(_ micros: Int64, count: Int) {
    let offset = UInt64(bitPattern: (micros &>> shift) &- base)
    if offset < UInt64(buckets.count) {
      // The usual case: inside the window. `first`/`last` only move outwards within it.
      buckets[Int(offset)].add(micros, count: count)
      if micros < first { first = micros }
      if micros > last { last = micros }
      return
    }
    addWidening(micros, count: count)
  }

  /// ``add(_:count:)`` of a time outside the window.
  @inline(never)
  private mutating func addWidening(_ micros: Int64, count: Int) {
    widen(toInclude: micros)
    buckets[Int((micros &>> shift) &- base)].add(micros, count: count)
  }

  /// Makes room for `micros`: the smallest shift (never smaller than the current one) that
  /// holds every time seen in ``maxBuckets`` buckets, existing buckets merged into it, and the
  /// window starting at the earliest time's bucket.
  private mutating func widen(toInclude micros: Int64) {
    let isFirst = buckets.isEmpty
    first = min(first, micros)
    last = max(last, micros)
    var newShift = shift
    while !TimeHistogram.fits(first, last, shift: newShift) { newShift += 1 }
    let newBase = first &>> newShift
    var count = Int((last &>> newShift) &- newBase) + 1
    if newShift == shift && newBase == base && !isFirst {
      // Times moving forward, the usual order: room for twice as many buckets (empty ones at
      // the end hold nothing and show nowhere), so a group whose events come second after
      // second widens a few times, not once a bucket. The buckets stay where they are: empty
      // ones are added after them.
      count = min(Self.maxBuckets, max(count, 2 * buckets.count))
      let old = buckets
      buckets = [Bucket](unsafeUninitializedCapacity: count) { grown, initialized in
        old.withUnsafeBufferPointer { old in
          grown.baseAddress!.initialize(from: old.baseAddress!, count: old.count)
          (grown.baseAddress! + old.count).initialize(repeating: Bucket(), count: count - old.count)
        }
        initialized = count
      }
      return
    }
    if !isFirst {
      // A wider bucket: as many buckets as before (the span needs at most that many now, and
      // they were allocated already), so that times moving forward do not widen again at once.
      count = max(count, buckets.count)
    }
    let old = buckets
    let (oldBase, oldShift) = (base, shift)
    buckets = [Bucket](unsafeUninitializedCapacity: count) { merged, initialized in
      merged.initialize(repeating: Bucket())
      old.withUnsafeBufferPointer { old in
        for offset in old.indices where old[offset].count != 0 {
          let index = ((oldBase &+ Int64(offset)) &>> (newShift &- oldShift)) &- newBase
          merged[Int(index)].merge(old[offset])
        }
      }
      initialized = count
    }
    base = newBase
    shift = newShift
  }

  /// Whether `first...last` spans fewer than ``maxBuckets`` buckets at `shift` (no overflow:
  /// the difference of two `Int64` shifted right is taken as unsigned).
  private static func fits(_ first: Int64, _ last: Int64, shift: Int64) -> Bool {
    UInt64(bitPattern: (last &>> shift) &- (first &>> shift)) < UInt64(maxBuckets)
  }

  /// The counts spread over `bins` equal bins from `start` to `end` (µs): each bucket goes to
  /// the bin of the middle of its earliest and latest time, so a bucket of one time (or of
  /// equal times) lands exactly where that time belongs. Integer arithmetic throughout.
  func bins(_ bins: Int, start: Int64, end: Int64) -> [Int] {
    var result = [Int](repeating: 0, count: bins)
    guard bins > 0 else { return result }
    for bucket in buckets where bucket.count != 0 {
      result[TimeHistogram.bin(bucket.first, bucket.last, bins, start: start, end: end)] +=
        bucket.count
    }
    return result
  }

  /// ``bins(_:start:end:)`` of `count` events from `first` to `last` within one bucket of the
  /// narrowest width (``init(first:last:count:)``), without making the histogram.
  static func bins(
    _ bins: Int, first: Int64, last: Int64, count: Int, start: Int64, end: Int64
  ) -> [Int] {
    var result = [Int](repeating: 0, count: bins)
    guard bins > 0, count != 0 else { return result }
    result[bin(first, last, bins, start: start, end: end)] += count
    return result
  }

  /// The bin of a bucket from `first` to `last`: the bin of the middle of the two.
  private static func bin(_ first: Int64, _ last: Int64, _ bins: Int, start: Int64, end: Int64)
    -> Int
  {
    let span = end > start ? UInt64(bitPattern: end &- start) : 0
    // The middle, as an unsigned distance from `start` (the halves avoid any overflow).
    let low = UInt64(bitPattern: first &- start)
    let high = UInt64(bitPattern: last &- start)
    let middle = first < start ? 0 : min(low / 2 + high / 2 + (low & high & 1), span)
    guard span != 0 else { return 0 }
    // middle * bins / span, exactly: the quotient is at most `bins`.
    let product = UInt64(bins).multipliedFullWidth(by: middle)
    return Int(min(span.dividingFullWidth(product).quotient, UInt64(bins - 1)))
  }
}
