/// What a ``SinkWorker`` hands its batches to: the file, or journald.
protocol SinkDelivery: AnyObject, Sendable {
  associatedtype Batch: SinkBatch
  /// Delivers `batch`. Called on the worker thread with no lock held, or, for a synchronous
  /// worker (and a flush after the thread ended), on the caller's thread under the worker's
  /// lock: one call at a time, never two at once.
  /// - Parameters:
  ///   - batch: The records, in the order they were appended.
  ///   - shard: The queue they came from (``SinkWorker/delivered(_:fromShard:)``).
  ///   - worker: The worker, for ``SinkWorker/unlessHalted(_:)``.
  func deliver(_ batch: Batch, fromShard shard: Int, worker: SinkWorker<Self>)
  /// After the batches a ``SinkWorker/flush(within:)`` waits for were delivered.
  func flushed()
  /// Once the worker thread ended (under the worker's lock): nothing is delivered any more.
  func stopped()
}
