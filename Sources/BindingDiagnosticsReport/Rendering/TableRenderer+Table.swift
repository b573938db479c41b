import BindingDiagnostics

extension TableRenderer {
  /// The group table as columns of cells, shortened and thinned to fit a width.
  struct Table {
    /// How a column's cells may be shortened.
    enum Shortening {
      /// Never (kinds, numbers, times).
      case none
      /// At slashes from the left, keeping whole components and the file name (paths, sites).
      case path
      /// From the right, keeping the start (names, labels, lists).
      case keepingStart
    }

    /// What a column is, for the fitting plan.
    enum Role: Hashable {
      case level, events, records, lost, kind, key, label, processes, hosts, firstSeen, lastSeen
      case timeline
    }

    struct Column {
      var role: Role
      var title: String
      var cells: [String]
      var rightAligned = false
      var shortening = Shortening.none
      var natural: Int
      var width: Int
      var dropped = false

      init(
        _ role: Role, _ title: String, _ cells: [String], rightAligned: Bool = false,
        shortening: Shortening = .none
      ) {
        self.role = role
        self.title = title
        self.cells = cells
        self.rightAligned = rightAligned
        self.shortening = shortening
        natural = cells.reduce(TextFitting.width(title)) { max($0, TextFitting.width($1)) }
        width = natural
      }

      /// The cells cut to this column's width its own way.
      func fittedCells() -> [String] {
        guard natural > width else { return cells }
        switch shortening {
        case .path: return cells.map { TextFitting.keepingPathEnd($0, width) }
        case .keepingStart: return cells.map { TextFitting.keepingStart($0, width) }
        case .none: return cells
        }
      }

      /// The narrowest a path column gets while its file names and lines stay whole.
      var fileNameWidth: Int {
        guard shortening == .path else { return width }
        return cells.map { cell in
          TextFitting.width(String(cell.split(separator: "/").last ?? Substring(cell)))
        }.max() ?? width
      }
    }

    var columns: [Column]
    /// The width being fitted.
    private var limit = Int.max
    /// Each row's most severe level, for colour.
    let levels: [MisuseLevel]

    /// - Parameter cellLimit: The most columns any cell of text from the input takes, or `nil`.
    init(
      summary: Summary, groups: [Summary.Group], timeZone: DisplayTimeZone, cellLimit: Int?
    ) {
      levels = groups.map(TableRenderer.worstLevel)
      var columns = [
        Column(.level, "LEVEL", levels.map(\.rawValue)),
        Column(.events, "EVENTS", groups.map { HumanText.number($0.events) }, rightAligned: true),
        Column(
          .records, "RECORDS", groups.map { HumanText.number($0.records) }, rightAligned: true),
      ]
      // Groups keyed by host or process carry their runs' lost records.
      if groups.contains(where: { $0.lost != nil }) {
        columns.append(
          Column(
            .lost, "LOST", groups.map { HumanText.number($0.lost ?? 0) }, rightAligned: true))
      }
      let fields = summary.groupBy
      for key in TableRenderer.keyColumns(fields) {
        let text = groups.map { DisplayText.escapingControls(key.value($0)) }
        // Kinds stay whole under any cap a person sets; only a hostile one is cut.
        let limit =
          key.field == .kind
          ? cellLimit.map { max($0, TableRenderer.defaultCellLimit) } : cellLimit
        let isPath = key.field == nil || key.field == .file || key.field == .writer
        let cells = Table.capped(text, limit, path: isPath)
        switch key.field {
        case nil, .file, .writer:
          columns.append(Column(.key, key.title, cells, shortening: .path))
        case .kind:
          columns.append(Column(.kind, key.title, cells))
        case .line:
          columns.append(Column(.key, key.title, cells, rightAligned: true))
        case .label:
          columns.append(Column(.label, key.title, cells, shortening: .keepingStart))
        case .valueType, .function, .process, .host, .test:
          columns.append(Column(.key, key.title, cells, shortening: .keepingStart))
        }
      }
      func list(_ values: [String]) -> String {
        let text = DisplayText.escapingControls(values.joined(separator: ", "))
        return Table.capped([text], cellLimit, path: false)[0]
      }
      if !fields.contains(.label), groups.contains(where: { !$0.labels.isEmpty }) {
        columns.append(
          Column(.label, "LABEL", groups.map { list($0.labels) }, shortening: .keepingStart))
      }
      if !fields.contains(.process) {
        columns.append(
          Column(
            .processes, "PROCS", groups.map { String($0.processes.count) }, rightAligned: true))
      }
      if !fields.contains(.host), summary.groups.haveSeveralHosts {
        columns.append(
          Column(.hosts, "HOSTS", groups.map { list($0.hosts) }, shortening: .keepingStart))
      }
      let time = Table.timeFormat(summary, timeZone)
      columns.append(Column(.firstSeen, "FIRST SEEN", groups.map { time($0.first) }))
      columns.append(Column(.lastSeen, "LAST SEEN", groups.map { time($0.last) }))
      columns.append(
        Column(.timeline, "TIMELINE", groups.map { TableRenderer.sparkline($0.histogram) }))
      self.columns = columns
    }

    /// `cells` cut to at most `limit` columns each (paths at their slashes), whatever the
    /// width: one hostile value must not make a line of a megabyte.
    static func capped(_ cells: [String], _ limit: Int?, path: Bool) -> [String] {
      guard let limit else { return cells }
      return cells.map {
        path ? TextFitting.keepingPathEnd($0, limit) : TextFitting.keepingStart($0, limit)
      }
    }

    /// Times as short as the summary's span allows: `04:12:33` within one day (the headline
    /// has the date), `11-30 04:12:33` within one year, else `2026-11-30 04:12`.
    static func timeFormat(_ summary: Summary, _ zone: DisplayTimeZone) -> (Timestamp) -> String {
      guard let first = summary.first, let last = summary.last else { return { _ in "" } }
      let from = zone.wallClock(first)
      let to = zone.wallClock(last)
      if from.date == to.date { return { zone.wallClock($0).time } }
      if from.date.prefix(4) == to.date.prefix(4) {
        return {
          let clock = zone.wallClock($0)
          return "\(clock.date.dropFirst(5)) \(clock.time)"
        }
      }
      return {
        let clock = zone.wallClock($0)
        return "\(clock.date) \(clock.time.prefix(5))"
      }
    }

    /// The columns' total width with two spaces between them.
    var totalWidth: Int {
      let shown = columns.filter { !$0.dropped }
      return shown.reduce(0) { $0 + $1.width } + 2 * max(0, shown.count - 1)
    }

    /// One step of the fitting plan.
    enum Step {
      case shrink(Set<Role>, to: Int)
      /// Paths down to their file names.
      case shrinkToFileNames
      case drop(Role)
    }

    /// The plan, applied until the table fits: shorten long paths and labels a little, drop
    /// the columns least needed for triage (timeline, records, times, process counts), shorten
    /// paths down to their file names and labels down to a few letters, and only then drop
    /// what is left to drop. Kinds are never shortened, nor file names and lines but as a last
    /// resort.
    static let plan: [Step] = [
      .shrink([.key], to: 40), .shrink([.label, .hosts], to: 20),
      .drop(.timeline), .drop(.records), .drop(.firstSeen), .drop(.processes), .drop(.lastSeen),
      .shrink([.label, .hosts], to: 14), .shrinkToFileNames, .drop(.hosts),
      .shrink([.label], to: 8), .drop(.level), .drop(.label),
      .shrink([.key], to: 12), .shrink([.key], to: 6),
    ]

    /// Shortens and drops columns until the table is at most `limit` wide (or the plan is
    /// exhausted), then gives any room left back to what was shortened, labels first.
    mutating func fit(_ limit: Int) {
      self.limit = limit
      for step in Table.plan where totalWidth > limit {
        switch step {
        case .drop(let role):
          for index in columns.indices where columns[index].role == role {
            columns[index].dropped = true
          }
        case .shrink(let roles, let target):
          for index in columns.indices where roles.contains(columns[index].role) {
            shrink(index, to: target)
          }
        case .shrinkToFileNames:
          for index in columns.indices where columns[index].role == .key {
            shrink(index, to: columns[index].fileNameWidth)
          }
        }
      }
      // Paths cut at slashes may not use all their width: keep only what they use.
      func trim(_ index: Int) {
        guard columns[index].shortening == .path else { return }
        let used = columns[index].fittedCells().map(TextFitting.width).max() ?? 0
        columns[index].width = max(used, TextFitting.width(columns[index].title))
      }
      for index in columns.indices { trim(index) }
      for role in [Role.label, .key, .hosts] {
        for index in columns.indices where columns[index].role == role && !columns[index].dropped {
          let room = limit - totalWidth
          guard room > 0 else { return }
          columns[index].width += min(room, columns[index].natural - columns[index].width)
          trim(index)
        }
      }
    }

    /// Narrows column `index` by what the table is too wide, but not below `target` nor its
    /// title.
    private mutating func shrink(_ index: Int, to target: Int) {
      let column = columns[index]
      let excess = totalWidth - limit
      guard excess > 0, !column.dropped, column.shortening != .none else { return }
      let floor = min(column.width, max(target, TextFitting.width(column.title)))
      columns[index].width = max(floor, column.width - excess)
    }

    /// The header and one line per row; levels and kinds in their level's colour.
    func lines(_ paint: TerminalColor) -> [String] {
      let shown = columns.filter { !$0.dropped }
      let fitted = shown.map { $0.fittedCells() }
      func line(_ cells: [String], level: MisuseLevel?) -> String {
        var out = ""
        for (position, column) in shown.enumerated() {
          let text = cells[position]
          let padding = String(
            repeating: " ", count: max(0, column.width - TextFitting.width(text)))
          var painted = text
          if let level, column.role == .level || column.role == .kind {
            painted = paint.paint(text, level)
          }
          if position > 0 { out += "  " }
          if column.rightAligned {
            out += padding + painted
          } else if position == shown.count - 1 {
            out += painted
          } else {
            out += painted + padding
          }
        }
        while out.last == " " { out.removeLast() }
        return out
      }
      var lines = [paint.bold(line(shown.map(\.title), level: nil))]
      for (row, level) in levels.enumerated() {
        lines.append(line(fitted.map { $0[row] }, level: level))
      }
      return lines
    }
  }
}
