/// 64 bytes of nothing, stored last in a small object that one thread writes, so that the next
/// object (allocated right after it) does not share its cache line: two threads writing to
/// neighbouring objects otherwise slow each other down as if they shared one (false sharing).
struct CacheLinePadding: Sendable {
  private let words: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
}
