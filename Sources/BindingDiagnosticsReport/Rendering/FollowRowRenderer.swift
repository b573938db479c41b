package import BindingDiagnostics

/// The lines of `follow`'s live view, one per event, in aligned columns:
///
///     2026-11-30 04:12:33  error     mapped-bool-set-true       App/View.swift:42  Demo[4242]@host  label=save  ×3
///
/// Time (local, or UTC), level (in journalctl's colours on a terminal), kind, call site,
/// `process[pid]@host`, then the label and the number of events the record stands for when
/// there are several. Events arrive one at a time, so a column is as wide as its widest value
/// so far (kinds at least as wide as the built-in ones): columns only ever move right. Text
/// from the input has its control characters escaped.
///
/// On a terminal (``width``) a line fits its width: the process goes first, then padding,
/// then the label is shortened with `…` and the path cut at its slashes; the time, level and
/// kind stay whole. Where room is left, the event's message follows.
package struct FollowRowRenderer: Sendable {
  private var widths: [Int]
  private let color: TerminalColor
  private let timeZone: DisplayTimeZone
  /// The terminal's width, or `nil` (no fitting, no message).
  package var width: Int?
  /// The most columns one cell of text from the input takes, or `nil`.
  package var cellLimit: Int?

  /// A renderer whose columns start at their narrowest.
  /// - Parameters:
  ///   - color: Colours for the level, or none.
  ///   - timeZone: The zone times are shown in.
  ///   - width: The terminal's width to fit, or `nil`.
  ///   - cellLimit: The most columns a cell of text from the input takes, or `nil`.
  package init(
    color: TerminalColor = TerminalColor(enabled: false), timeZone: DisplayTimeZone,
    width: Int? = nil, cellLimit: Int? = nil
  ) {
    self.color = color
    self.timeZone = timeZone
    self.width = width
    self.cellLimit = cellLimit
    widths = [
      19, MisuseLevel.allCases.map(\.rawValue.count).max() ?? 0,
      MisuseKind.builtIn.map(\.code.count).max() ?? 0, 0, 0,
    ]
  }

  /// One cell of a line: its text, the column it pads to, and what it is.
  private struct Cell {
    enum Role { case time, level, kind, site, process, label, count }
    var text: String
    var pad: Int
    let role: Role
  }

  /// The event's line, ending in a newline.
  /// - Parameter event: The event.
  package mutating func render(_ event: MisuseEvent) -> String {
    let time = timeZone.wallClock(event.timestamp)
    var site = LogfmtEscaping.escapingControls("\(event.file):\(event.line)")
    var process = LogfmtEscaping.escapingControls("\(event.process)[\(event.pid)]@\(event.host)")
    var label = event.label.map { "label=" + LogfmtEscaping.escapingControls($0) }
    if let cellLimit {
      site = TextFitting.keepingPathEnd(site, cellLimit)
      process = TextFitting.keepingStart(process, cellLimit)
      label = label.map { TextFitting.keepingStart($0, cellLimit) }
    }
    var cells = [
      Cell(text: time.date + " " + time.time, pad: 0, role: .time),
      Cell(text: event.level.rawValue, pad: 0, role: .level),
      Cell(text: LogfmtEscaping.escapingControls(event.kind.code), pad: 0, role: .kind),
      Cell(text: site, pad: 0, role: .site),
      Cell(text: process, pad: 0, role: .process),
    ]
    for index in cells.indices {
      widths[index] = max(widths[index], TextFitting.width(cells[index].text))
      cells[index].pad = widths[index]
    }
    if let label { cells.append(Cell(text: label, pad: 0, role: .label)) }
    if event.suppressed > 0 { cells.append(Cell(text: "×\(event.events)", pad: 0, role: .count)) }
    if let width { FollowRowRenderer.fit(&cells, width) }
    var message = ""
    if let width {
      let room = width - TextFitting.width(FollowRowRenderer.join(cells, level: nil)) - 2
      let text = LogfmtEscaping.escapingControls(event.message)
      if room >= 12 { message = "  " + TextFitting.keepingStart(text, room) }
    }
    let line =
      FollowRowRenderer.join(cells, level: color.enabled ? (color, event.level) : nil) + message
    return line + "\n"
  }

  /// Shortens `cells` until they fit `width`: the process goes, then padding, then the label
  /// is cut, the path cut down to its file name, the label dropped, and the path cut further;
  /// time, level and kind stay whole.
  private static func fit(_ cells: inout [Cell], _ width: Int) {
    func excess() -> Int { TextFitting.width(join(cells, level: nil)) - width }
    guard excess() > 0 else { return }
    cells.removeAll { $0.role == .process }
    for index in cells.indices where excess() > 0 && cells[index].role != .time {
      cells[index].pad = 0
    }
    if let index = cells.firstIndex(where: { $0.role == .label }), excess() > 0 {
      let text = cells[index].text
      cells[index].text = TextFitting.keepingStart(
        text, max(min(16, TextFitting.width(text)), TextFitting.width(text) - excess()))
    }
    // The path down to its file name and line, then without the label, then shorter still.
    func cutSite(keepingName: Bool) {
      guard let index = cells.firstIndex(where: { $0.role == .site }), excess() > 0 else { return }
      let text = cells[index].text
      let name = TextFitting.width(String(text.split(separator: "/").last ?? Substring(text)))
      let target = max(keepingName ? name : 8, TextFitting.width(text) - excess())
      cells[index].text = TextFitting.keepingPathEnd(text, target)
    }
    cutSite(keepingName: true)
    if excess() > 0 { cells.removeAll { $0.role == .label } }
    cutSite(keepingName: false)
  }

  /// The cells joined by two spaces, each padded to its column but the last; the level painted
  /// when `level` says how.
  private static func join(_ cells: [Cell], level: (TerminalColor, MisuseLevel)?) -> String {
    var line = ""
    for (index, cell) in cells.enumerated() {
      if index > 0 { line += "  " }
      if let (color, level) = level, cell.role == .level {
        line += color.paint(cell.text, level)
      } else {
        line += cell.text
      }
      if index + 1 < cells.count {
        line += String(repeating: " ", count: max(0, cell.pad - TextFitting.width(cell.text)))
      }
    }
    return line
  }
}
