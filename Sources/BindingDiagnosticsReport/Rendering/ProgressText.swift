/// The text of a read's progress line:
/// `reading app.jsonl (2 of 3): 120.5 of 478.0 MiB (25 %), 1,234,567 events, 2,345,678 events/s`.
package enum ProgressText {
  /// The line, cut to `width` columns.
  /// - Parameters:
  ///   - progress: How far the current source has got.
  ///   - source: Which source this is (1-based) and how many there are.
  ///   - events: Events read from every source so far.
  ///   - seconds: Time since the read began.
  ///   - width: The most columns the line may take.
  package static func line(
    _ progress: InputReader.Progress, source: (index: Int, of: Int), events: Int,
    seconds: Double, width: Int
  ) -> String {
    var line = "reading " + DisplayText.escapingControls(progress.source)
    if source.of > 1 { line += " (\(source.index) of \(source.of))" }
    line += ": "
    if let bytes = progress.bytes {
      if let size = progress.size, size > 0 {
        line += "\(HumanText.mebibytes(bytes).dropLast(4)) of \(HumanText.mebibytes(size)) "
        line += "(\(min(100, bytes * 100 / size)) %), "
      } else {
        line += HumanText.mebibytes(bytes) + ", "
      }
    }
    line += HumanText.count(events, "event")
    line += ", \(HumanText.number(Int(Double(events) / max(seconds, 0.001)))) events/s"
    return TextFitting.keepingStart(line, width)
  }
}
