/// How a sink finishes a run record before writing it: the record comes from the pipeline with
/// the run's counts, and each sink adds its own drops.
extension MisuseEvent {
  /// Whether this is a run record as the pipeline makes them (it carries the run's counts): a
  /// check for the sinks' hot path, one optional, no string compared.
  var carriesRunCounts: Bool { runRecords != nil }

  /// This run record with `dropped`, the records the sink writing it dropped, as `run_dropped`.
  /// - Parameter dropped: The sink's count.
  /// - Returns: The record, ready for that sink.
  func stamped(dropped: Int) -> MisuseEvent {
    var stamped = self
    stamped.runDropped = dropped
    return stamped
  }

  /// This run record with `dropped` as `run_dropped`, unless another sink already set it (a
  /// sink's fallback writes the record for that sink, with that sink's count).
  /// - Parameter dropped: The receiving sink's count, read only when needed.
  func stampedUnlessSet(dropped: @autoclosure () -> Int) -> MisuseEvent {
    runDropped == nil ? stamped(dropped: dropped()) : self
  }
}
