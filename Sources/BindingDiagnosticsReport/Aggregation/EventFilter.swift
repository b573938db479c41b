package import BindingDiagnostics

/// Which events count (`--since`, `--until`, `--kind`, `--file`, `--process`, `--host`, `--level`).
package struct EventFilter: Sendable {
  /// Events at or after this time.
  package var since: Timestamp?
  /// Events at or before this time.
  package var until: Timestamp?
  /// Kinds to keep; all when empty.
  package var kinds: Set<String> = []
  /// A substring the call site's file must contain. It judges misuse records only: a run
  /// record's `file` is where the app set up the pipeline, not a call site.
  package var fileSubstring: String?
  /// Process name to keep.
  package var process: String?
  /// Host name to keep.
  package var host: String?
  /// Minimum level.
  package var minimumLevel: MisuseLevel?
  /// Run id to keep (one process start).
  package var run: String?

  /// A filter that keeps everything.
  package init() {}

  /// Whether `event` passes. Text is compared byte for byte; a run record is never judged by
  /// ``fileSubstring`` (its `file` is not a call site), so the runs kept keep their tail.
  /// - Parameter event: The event.
  package func accepts(_ event: MisuseEvent) -> Bool {
    if let since, event.timestamp < since { return false }
    if let until, until < event.timestamp { return false }
    if !kinds.isEmpty, !kinds.contains(event.kind.code) { return false }
    if let fileSubstring, !event.isRunRecord, !event.file.contains(fileSubstring) {
      return false
    }
    if let process, !EventFilter.same(event.process, process) { return false }
    if let host, !EventFilter.same(event.host, host) { return false }
    if let minimumLevel, event.level < minimumLevel { return false }
    if let run, !EventFilter.same(event.run, run) { return false }
    return true
  }

  /// Byte-for-byte equality, as the summary compares text (`==` on `String` would also take
  /// another spelling of an accented letter).
  static func same(_ lhs: String, _ rhs: String) -> Bool {
    lhs.utf8.elementsEqual(rhs.utf8)
  }

  /// Whether the filter keeps everything.
  package var isEmpty: Bool {
    since == nil && until == nil && kinds.isEmpty && fileSubstring == nil && process == nil
      && host == nil && minimumLevel == nil && run == nil
  }
}
