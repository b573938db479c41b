/// Records waiting in a ``SinkWorker``'s queue, in the form its delivery wants them (encoded
/// bytes, events).
protocol SinkBatch {
  /// What a caller appends.
  associatedtype Element
  init()
  /// Records held.
  var count: Int { get }
  /// Appends one record.
  mutating func append(_ element: Element)
  /// Empties the batch, keeping its memory.
  mutating func removeAll()
}
