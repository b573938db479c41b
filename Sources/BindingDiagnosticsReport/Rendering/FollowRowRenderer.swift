public import BindingDiagnostics

/// The lines of `follow`'s live view, one per event, in aligned columns:
///
///     2026-11-30 04:12:33  error     mapped-bool-set-true       App/View.swift:42  Demo[4242]@host  label=save  ×3
///
/// Time (local, or UTC), level (in journalctl's colours on a terminal), kind, call site,
/// `process[pid]@host`, then the label and the number of events the record stands for when
/// there are several. Events arrive one at a time, so a column is as wide as its widest value
/// so far (kinds at least as wide as the built-in ones): columns only ever move right. Text
/// from the input has its control characters escaped.
public struct FollowRowRenderer: Sendable {
  private var widths: [Int]
  private let color: TerminalColor
  private let timeZone: DisplayTimeZone

  /// A renderer whose columns start at their narrowest.
  /// - Parameters:
  ///   - color: Colours for the level, or none.
  ///   - timeZone: The zone times are shown in.
  public init(color: TerminalColor = TerminalColor(enabled: false), timeZone: DisplayTimeZone) {
    self.color = color
    self.timeZone = timeZone
    widths = [
      19, MisuseLevel.allCases.map(\.rawValue.count).max() ?? 0,
      MisuseKind.builtIn.map(\.code.count).max() ?? 0, 0, 0,
    ]
  }

  /// The event's line, ending in a newline.
  /// - Parameter event: The event.
  public mutating func render(_ event: MisuseEvent) -> String {
    let time = timeZone.wallClock(event.timestamp)
    var cells = [
      time.date + " " + time.time, event.level.rawValue,
      LogfmtEscaping.escapingControls(event.kind.code),
      LogfmtEscaping.escapingControls("\(event.file):\(event.line)"),
      LogfmtEscaping.escapingControls("\(event.process)[\(event.pid)]@\(event.host)"),
    ]
    for (index, cell) in cells.enumerated() { widths[index] = max(widths[index], cell.count) }
    if let label = event.label { cells.append("label=" + LogfmtEscaping.escapingControls(label)) }
    if event.suppressed > 0 { cells.append("×\(event.events)") }
    var line = ""
    for (index, cell) in cells.enumerated() {
      if index > 0 { line += "  " }
      line += index == 1 ? color.paint(cell, event.level) : cell
      if index + 1 < cells.count && index < widths.count {
        line += String(repeating: " ", count: widths[index] - cell.count)
      }
    }
    return line + "\n"
  }
}
