import Testing

@testable import BindingDiagnosticsReport

/// A run's `seq` tracker against the plainest model, a set of every `seq` seen: in order, with
/// gaps, out of order and repeated.
@Suite struct SeqTrackerTests {
  /// What the tracker answers, from the set.
  struct Model {
    var seen: Set<Int> = []
    var highest: Int { seen.max() ?? 0 }
    var head: Int { (seen.min() ?? 1) - 1 }
    var lost: Int { seen.isEmpty ? 0 : highest - seen.count }
    func missing(in range: ClosedRange<Int>) -> Int { range.filter { !seen.contains($0) }.count }
  }

  @Test(arguments: [1, 7, 42, 1_000])
  func itAnswersAsASetOfEverySeqWould(seed: UInt64) {
    var random = SplitMix(seed: seed)
    for round in 0..<300 {
      var tracker = SeqTracker()
      var model = Model()
      let span = 1 + Int(random.next() % (round % 3 == 0 ? 8 : 200))
      var next = 1
      for _ in 0..<(Int(random.next() % 150)) {
        let seq: Int
        switch random.next() % 4 {
        case 0: (seq, next) = (next, next + 1)
        case 1:
          next += 1 + Int(random.next() % 3)
          seq = next
        default: seq = 1 + Int(random.next() % UInt64(span))
        }
        #expect(tracker.insert(seq) == model.seen.insert(seq).inserted)
        let low = 1 + Int(random.next() % UInt64(span + 5))
        let range = low...(low + Int(random.next() % 40))
        #expect(tracker.missing(in: range) == model.missing(in: range))
      }
      #expect(tracker.highest == model.highest)
      #expect(tracker.head == model.head)
      #expect(tracker.hasFirst == model.seen.contains(1))
      #expect(tracker.lost == model.lost)
    }
  }

  /// A small deterministic generator (the tests' own seeds).
  struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }
}
