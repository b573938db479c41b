import BindingDiagnostics

/// The summary path's fast parser: contract lines as the JSON Lines sink writes them become
/// ``InternedRecord``s keyed by ids in ``table``, with no `String` per line and no event. It
/// accepts exactly what ``ContractFastParser/parse(_:)`` accepts (tested through the summary
/// of the same input read both ways); anything else is left (`nil`) to the exact parser.
/// Formats (kind, message id, run, UTF-8) are checked once per distinct value per table.
struct ContractRecordParser: Sendable {
  /// The strings of the records made since the last ``reset()``.
  private(set) var table = StringTable()
  /// Per id of `table`, format verdicts (the bits of ``Format``) and the roles it was interned
  /// in (``Role``): what ``roles`` hands the aggregator.
  private var formats: [UInt8] = []
  /// Message ids, checked once per distinct value but never aggregated, so kept out of
  /// `table` (which the aggregator takes whole), with their verdicts.
  private var messageIDs = StringTable()
  private var messageIDFormats: [UInt8] = []
  private var day = ContractDay()
  /// The fields of the line being read, written over line by line.
  private var fields = ContractStructuralScanner.blank
  /// The ids of the fields of plain lines by set (``ContractFieldSets``): call sites, runs,
  /// and a record's label, test and writer.
  private var sites = ContractFieldSets()
  private var runs = ContractFieldSets()
  private var extras = ContractFieldSets()
  /// Call sites' and runs' spans, each with its set's ids (``ContractSpanMemo``): a line
  /// repeating one is not walked there.
  private(set) var siteSpans = ContractSpanMemo(quotes: ContractSpanMemo.siteQuotes)
  private(set) var runSpans = ContractSpanMemo(quotes: ContractSpanMemo.runQuotes)

  /// A format a text field must have: its bit in `formats` once checked, and once valid.
  private enum Format: UInt8 {
    case kind = 1
    case messageID = 4
    case run = 16

    var checked: UInt8 { rawValue }
    var valid: UInt8 { rawValue << 1 }

    func holds(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      let text = String(decoding: bytes, as: UTF8.self)
      switch self {
      case .kind: return MisuseKind.isKebabCase(text)
      case .messageID: return Hex.isLowercase(text, count: 32)
      case .run: return Hex.isLowercase(text, count: 16)
      }
    }
  }

  /// The roles a string was interned in, bits of ``formats`` above those of ``Format``: the
  /// aggregator moves a chunk's strings to its table by these, once per distinct string,
  /// instead of marking those its records use record by record.
  enum Role {
    /// A field every record's aggregation reads: kind, file, function, type, process, host,
    /// run, writer.
    static let kept = Aggregator.Translation.kept
    /// A record's test (kept only to group by it).
    static let test = Aggregator.Translation.test
    /// A record's label (moved only when a group keeps it): no bit.
    static let label: UInt8 = 0
  }

  /// Whether a line was refused (left to the exact parser) after some of its strings were
  /// interned: they have roles, yet no record of this parser uses them.
  private var refusedAfterInterning = false

  /// Per id of ``table``, the bits of ``Role`` it was interned with (format bits besides): the
  /// roles of its uses by the records made since the last reset, exactly. `nil` when a string
  /// may have a role no record gives it (a line refused after interning): the aggregator then
  /// finds them from the records, so that it never keeps a string no record needs.
  var roles: [UInt8]? { refusedAfterInterning ? nil : formats }

  /// Forgets the table (ids start again from 0), keeping its storage.
  mutating func reset() {
    refusedAfterInterning = false
    table.removeAll()
    formats.removeAll(keepingCapacity: true)
    messageIDs.removeAll()
    messageIDFormats.removeAll(keepingCapacity: true)
    sites.removeAll()
    runs.removeAll()
    extras.removeAll()
    siteSpans.removeAll()
    runSpans.removeAll()
    measure()
  }

  /// Bytes the tables hold, roughly: measured after each line that may have added to them (a
  /// line whose call site and run the memo had, with no label, test or writer, adds nothing),
  /// so that the chunk's budget, checked per line, reads one value.
  private(set) var bytes = 0

  /// A parser with empty tables.
  init() { measure() }

  private mutating func measure() {
    bytes =
      table.bytes &+ messageIDs.bytes &+ formats.count &+ messageIDFormats.count &+ sites.bytes
      &+ runs.bytes &+ extras.bytes &+ siteSpans.bytes &+ runSpans.bytes
  }

  /// A validated event (from the exact parsers) as a record of ``table``.
  mutating func record(of event: MisuseEvent) -> InternedRecord {
    func id(_ text: String, _ role: UInt8 = Role.kept) -> UInt32 {
      let id = table.intern(text)
      if Int(id) == formats.count { formats.append(0) }
      formats[Int(id)] |= role
      return id
    }
    defer { measure() }
    return InternedRecord(
      timestamp: event.timestamp.microsecondsSinceEpoch, line: event.line, seq: event.seq,
      suppressed: event.suppressed, kind: id(event.kind.code), file: id(event.file),
      function: id(event.function), valueType: id(event.valueType),
      label: event.label.map { id($0, Role.label) } ?? InternedRecord.none,
      test: event.test.map { id($0, Role.test) } ?? InternedRecord.none,
      writer: event.writer.map { id($0) } ?? InternedRecord.none, process: id(event.process),
      host: id(event.host), run: id(event.run), level: event.level,
      runRecords: event.runRecords ?? -1, runDropped: event.runDropped ?? -1)
  }

  /// Appends the record on `line` to `records`, or returns `false` (nothing appended) to defer
  /// to the exact parser. Plain ASCII lines take the structural scan
  /// (``ContractStructuralScanner``), any other the byte-by-byte one; both give the same fields.
  /// The record is made in the array: returned, its 96 bytes were copied from call to call.
  mutating func record(_ line: UnsafeBufferPointer<UInt8>, into records: inout [InternedRecord])
    -> Bool
  {
    if ContractStructuralScanner.scan(
      line, day: &day, sites: &siteSpans, runs: &runSpans, into: &fields)
    {
      return measuredRecordOfPlainFields(in: line, into: &records)
    }
    return scannedByteByByte(line, into: &records)
  }

  /// ``record(_:into:)`` for a line found and scanned by `CStructuralScan`'s
  /// `bd_line_structure`: whether it is plain, and if so its quote bits.
  @inline(__always)
  mutating func record(
    _ line: UnsafeBufferPointer<UInt8>, quotes: UnsafePointer<UInt64>, plain: Bool,
    into records: inout [InternedRecord]
  ) -> Bool {
    if plain,
      ContractStructuralScanner.scan(
        line, quotes: quotes, day: &day, sites: &siteSpans, runs: &runSpans, into: &fields)
    {
      return measuredRecordOfPlainFields(in: line, into: &records)
    }
    return scannedByteByByte(line, into: &records)
  }

  /// ``recordOfPlainFields(in:into:)``, then ``bytes`` measured unless the line could add
  /// nothing.
  @inline(__always)
  private mutating func measuredRecordOfPlainFields(
    in line: UnsafeBufferPointer<UInt8>, into records: inout [InternedRecord]
  ) -> Bool {
    let made = recordOfPlainFields(in: line, into: &records)
    if fields.siteEntry < 0 || fields.runEntry < 0 || fields.label != nil || fields.test != nil
      || fields.writer != nil
    {
      measure()
    }
    return made
  }

  /// ``record(_:into:)`` for lines the structural scan left, ``bytes`` measured after.
  @inline(never)
  private mutating func scannedByteByByte(
    _ line: UnsafeBufferPointer<UInt8>, into records: inout [InternedRecord]
  ) -> Bool {
    defer { measure() }
    guard let scanned = ContractFastParser.scan(line, day: &day) else { return false }
    fields = scanned
    guard let record = recordOfFields(in: line) else {
      refusedAfterInterning = true
      return false
    }
    records.append(record)
    return true
  }

  /// ``recordOfFields(in:)`` for a line of plain ASCII (no UTF-8 to check), its text fields'
  /// ids found by set (``ContractFieldSets``), each set made once by a maker that interns in
  /// ``recordOfFields(in:)``'s order.
  @inline(__always)
  private mutating func recordOfPlainFields(
    in line: UnsafeBufferPointer<UInt8>, into records: inout [InternedRecord]
  ) -> Bool {
    let site: ContractFieldSets.IDs
    if fields.siteEntry >= 0 {
      site = siteSpans.entry(fields.siteEntry).ids
    } else {
      site = sites.ids(
        fields.kind, fields.messageID, fields.file, fields.function, fields.valueType,
        hash: fields.siteHash, in: line
      ) {
        ContractRecordParser.site(
          fields, in: line, table: &table, formats: &formats, messageIDs: &messageIDs,
          messageIDFormats: &messageIDFormats)
      }
      guard site[7] != 0 else {
        refusedAfterInterning = true
        return false
      }
      siteSpans.insert(
        line.baseAddress! + fields.siteSpan.lowerBound, count: fields.siteSpan.count, ids: site,
        line: fields.line)
    }
    let run: ContractFieldSets.IDs
    if fields.runEntry >= 0 {
      run = runSpans.entry(fields.runEntry).ids
    } else {
      run = runs.ids(
        fields.process, fields.host, fields.run, nil, nil, hash: fields.runHash, in: line
      ) {
        ContractRecordParser.run(fields, in: line, table: &table, formats: &formats)
      }
      guard run[7] != 0 else {
        refusedAfterInterning = true
        return false
      }
      runSpans.insert(
        line.baseAddress! + fields.runSpan.lowerBound, count: fields.runSpan.count, ids: run,
        line: 0)
    }
    var extra = ContractFieldSets.IDs(repeating: InternedRecord.none)
    if fields.label != nil || fields.test != nil || fields.writer != nil {
      extra = extras.ids(
        fields.label, fields.test, fields.writer, nil, nil, hash: fields.extraHash, in: line
      ) {
        ContractRecordParser.extra(fields, in: line, table: &table, formats: &formats)
      }
      guard extra[7] != 0 else {
        refusedAfterInterning = true
        return false
      }
    }
    records.append(
      InternedRecord(
        timestamp: fields.timestamp.microsecondsSinceEpoch, line: fields.line, seq: fields.seq,
        suppressed: fields.suppressed, kind: site[0], file: site[1], function: site[2],
        valueType: site[3], label: extra[0], test: extra[1], writer: extra[2], process: run[0],
        host: run[1], run: run[2], level: fields.level, runRecords: fields.runRecords ?? -1,
        runDropped: fields.runDropped ?? -1))
    return true
  }

  /// The ids of a call site's fields (kind, file, function, type; lane 7: 1 when the message
  /// id, the kind and the others are valid), interned. Out of line: once per set. The makers
  /// are static, on the tables alone, so ``ContractFieldSets/ids(_:_:_:_:_:hash:in:make:)`` can
  /// call them while it holds its set.
  @inline(never)
  private static func site(
    _ fields: ContractFastParser.Fields, in line: UnsafeBufferPointer<UInt8>,
    table: inout StringTable, formats: inout [UInt8], messageIDs: inout StringTable,
    messageIDFormats: inout [UInt8]
  ) -> ContractFieldSets.IDs {
    var ids = ContractFieldSets.IDs(repeating: InternedRecord.none)
    ids[7] = 0
    func id(_ text: ContractFastParser.Text, _ format: Format? = nil) -> UInt32? {
      intern(text, in: line, format: format, table: &table, formats: &formats)
    }
    guard
      intern(
        fields.messageID, in: line, format: .messageID, role: 0, table: &messageIDs,
        formats: &messageIDFormats) != nil,
      let kind = id(fields.kind, .kind), let file = id(fields.file),
      let function = id(fields.function), let valueType = id(fields.valueType)
    else { return ids }
    ids[0] = kind
    ids[1] = file
    ids[2] = function
    ids[3] = valueType
    ids[7] = 1
    return ids
  }

  /// The ids of a run's fields (process, host, run; lane 7 as in
  /// ``site(_:in:table:formats:messageIDs:messageIDFormats:)``).
  @inline(never)
  private static func run(
    _ fields: ContractFastParser.Fields, in line: UnsafeBufferPointer<UInt8>,
    table: inout StringTable, formats: inout [UInt8]
  ) -> ContractFieldSets.IDs {
    var ids = ContractFieldSets.IDs(repeating: InternedRecord.none)
    ids[7] = 0
    func id(_ text: ContractFastParser.Text, _ format: Format? = nil) -> UInt32? {
      intern(text, in: line, format: format, table: &table, formats: &formats)
    }
    guard let process = id(fields.process), let host = id(fields.host),
      let run = id(fields.run, .run)
    else { return ids }
    ids[0] = process
    ids[1] = host
    ids[2] = run
    ids[7] = 1
    return ids
  }

  /// The ids of a record's label, test and writer, `none` for those absent (lane 7 as in
  /// ``site(_:in:table:formats:messageIDs:messageIDFormats:)``).
  @inline(never)
  private static func extra(
    _ fields: ContractFastParser.Fields, in line: UnsafeBufferPointer<UInt8>,
    table: inout StringTable, formats: inout [UInt8]
  ) -> ContractFieldSets.IDs {
    var ids = ContractFieldSets.IDs(repeating: InternedRecord.none)
    ids[7] = 0
    func note(_ text: ContractFastParser.Text?, _ lane: Int, _ role: UInt8) -> Bool {
      guard let text else { return true }
      guard
        let id = intern(text, in: line, format: nil, role: role, table: &table, formats: &formats)
      else { return false }
      ids[lane] = id
      return true
    }
    guard note(fields.label, 0, Role.label), note(fields.test, 1, Role.test),
      note(fields.writer, 2, Role.kept)
    else { return ids }
    ids[7] = 1
    return ids
  }

  /// The record of ``fields``, scanned from `line`, or `nil` when a text field is not valid
  /// UTF-8 or lacks its format.
  @inline(__always)
  private mutating func recordOfFields(in line: UnsafeBufferPointer<UInt8>) -> InternedRecord? {
    guard fields.message.ascii || ContractRecordParser.isUTF8(fields.message.bytes(in: line)),
      fields.value.map({ $0.ascii || ContractRecordParser.isUTF8($0.bytes(in: line)) }) ?? true,
      fields.test.map({ $0.ascii || ContractRecordParser.isUTF8($0.bytes(in: line)) }) ?? true,
      fields.writer.map({ $0.ascii || ContractRecordParser.isUTF8($0.bytes(in: line)) }) ?? true,
      ContractRecordParser.intern(
        fields.messageID, in: line, format: .messageID, role: 0, table: &messageIDs,
        formats: &messageIDFormats) != nil,
      let kind = intern(fields.kind, in: line, format: .kind),
      let file = intern(fields.file, in: line),
      let function = intern(fields.function, in: line),
      let valueType = intern(fields.valueType, in: line),
      let process = intern(fields.process, in: line),
      let host = intern(fields.host, in: line),
      let run = intern(fields.run, in: line, format: .run)
    else { return nil }
    var label = InternedRecord.none
    if let text = fields.label {
      guard let id = intern(text, in: line, role: Role.label) else { return nil }
      label = id
    }
    var test = InternedRecord.none
    if let text = fields.test {
      guard let id = intern(text, in: line, role: Role.test) else { return nil }
      test = id
    }
    var writer = InternedRecord.none
    if let text = fields.writer {
      guard let id = intern(text, in: line) else { return nil }
      writer = id
    }
    return InternedRecord(
      timestamp: fields.timestamp.microsecondsSinceEpoch, line: fields.line, seq: fields.seq,
      suppressed: fields.suppressed, kind: kind, file: file, function: function,
      valueType: valueType, label: label, test: test, writer: writer, process: process,
      host: host, run: run,
      level: fields.level, runRecords: fields.runRecords ?? -1, runDropped: fields.runDropped ?? -1)
  }

  /// The id of a text field's bytes; `nil` when they are not valid UTF-8 or lack `format`.
  @inline(__always)
  private mutating func intern(
    _ text: ContractFastParser.Text, in line: UnsafeBufferPointer<UInt8>, format: Format? = nil,
    role: UInt8 = Role.kept
  ) -> UInt32? {
    ContractRecordParser.intern(
      text, in: line, format: format, role: role, table: &table, formats: &formats)
  }

  /// The id of a text field's bytes in `table`, whose verdicts are `formats`, noting `role`
  /// (a bit of ``Role``) there.
  @inline(__always)
  private static func intern(
    _ text: ContractFastParser.Text, in line: UnsafeBufferPointer<UInt8>, format: Format?,
    role: UInt8 = Role.kept, table: inout StringTable, formats: inout [UInt8]
  ) -> UInt32? {
    let bytes = text.bytes(in: line)
    guard text.ascii || ContractRecordParser.isUTF8(bytes) else { return nil }
    let (id, new) = table.intern(bytes, hash: text.hash ?? StringTable.hash(bytes))
    if new {
      formats.append(role)
    } else if role != 0 {
      formats[Int(id)] |= role
    }
    guard let format else { return id }
    let verdict = formats[Int(id)]
    if verdict & format.checked == 0 {
      let holds = format.holds(bytes)
      formats[Int(id)] = verdict | format.checked | (holds ? format.valid : 0)
      return holds ? id : nil
    }
    return verdict & format.valid != 0 ? id : nil
  }

  private static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    String(validating: bytes, as: UTF8.self) != nil
  }
}
