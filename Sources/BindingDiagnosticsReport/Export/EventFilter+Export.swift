import BindingDiagnostics

// What `export` writes: the filter, with run records out of `--file`'s reach.
extension EventFilter {
  /// Whether `export` writes `event`: ``accepts(_:)``, except that `--file` does not judge a
  /// run record. A run record's `file` is where the app set up the pipeline, not a call site,
  /// so it is never matched against `--file` (as `summary` never matches it); the other
  /// filters judge run records as any record, so the runs the export keeps keep their tail.
  func exports(_ event: MisuseEvent) -> Bool {
    guard fileSubstring != nil, event.isRunRecord else { return accepts(event) }
    var filter = self
    filter.fileSubstring = nil
    return filter.accepts(event)
  }
}
