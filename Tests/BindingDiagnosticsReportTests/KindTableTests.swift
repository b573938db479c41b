import BindingDiagnostics
import Foundation
import Testing

@testable import BindingDiagnosticsReport

/// Every consumer of the kind table (`KindTable+Rows.swift`) has every row: the core's kind
/// lists, the readers' default levels, the journald catalog (`bindiag catalog` and the file
/// shipped in `config/`), the SARIF rules and the contract article's list of kinds. A failure
/// names the kind and the place that misses it.
@Suite struct KindTableTests {
  /// The repository's root, found from this file.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static var misuseRows: [KindTable.Row] { KindTable.rows.filter { !$0.isRunRecord } }

  @Test func theCoreListsEveryRowAsAKind() {
    #expect(Set(KindTable.rows.map(\.code)).count == KindTable.rows.count, "a code twice")
    #expect(Set(KindTable.rows.map(\.messageID)).count == KindTable.rows.count, "an id twice")
    for row in KindTable.rows {
      let list = row.isRunRecord ? MisuseKind.runRecordKinds : MisuseKind.builtIn
      let name = row.isRunRecord ? "MisuseKind.runRecordKinds" : "MisuseKind.builtIn"
      guard let kind = list.first(where: { $0.code == row.code }) else {
        Issue.record("\(row.code): missing from \(name)")
        continue
      }
      #expect(kind.messageID == row.messageID, "\(row.code): \(name) has another message id")
      #expect(kind.defaultLevel == row.defaultLevel, "\(row.code): \(name) has another level")
      #expect(kind.isRunRecord == row.isRunRecord, "\(row.code): MisuseKind.isRunRecord")
      #expect(
        MisuseKind(code: row.code, defaultLevel: .critical) == kind,
        "\(row.code): MisuseKind(code:) does not return the built-in kind")
    }
    #expect(MisuseKind.builtIn.map(\.code) == Self.misuseRows.map(\.code))
  }

  /// The table's constants are its rows (a constant naming a code with no row would stop the
  /// process on first use).
  @Test func theNamedKindsAreRows() {
    let named: [MisuseKind] = [
      .mappedBoolSetTrue, .unwrappedReadAfterNil, .unwrappedWriteAfterNil,
      .elementReadAfterRemoval, .elementWriteAfterRemoval, .setOffMainThread, .writeNotApplied,
      .reentrantWrite, .runHeartbeat, .runEnd,
    ]
    #expect(named.map(\.code) == KindTable.rows.map(\.code))
  }

  @Test func bindiagCatalogHasEveryRowsEntry() {
    for row in Self.misuseRows {
      guard let entry = MessageCatalog.entry(for: row.code), let catalog = row.catalog else {
        Issue.record("\(row.code): missing from MessageCatalog (bindiag catalog)")
        continue
      }
      #expect(entry.kind.messageID == row.messageID, "\(row.code): MessageCatalog's id")
      #expect(
        entry.subject == catalog.subject && entry.body == catalog.body,
        "\(row.code): MessageCatalog's text is not the table's")
      #expect(
        MessageCatalog.text.contains("-- \(row.messageID)\nSubject: \(catalog.subject)\n"),
        "\(row.code): missing from bindiag catalog's output")
    }
    for row in KindTable.rows where row.isRunRecord {
      #expect(MessageCatalog.entry(for: row.code) == nil, "\(row.code): a run record cataloged")
    }
  }

  /// `config/binding-diagnostics.catalog` is what `bindiag catalog` prints: regenerate it with
  /// `swift run bindiag catalog > config/binding-diagnostics.catalog` after changing a row.
  @Test func theShippedCatalogFileHasEveryRowsEntry() throws {
    let path = "config/binding-diagnostics.catalog"
    let shipped = try String(
      contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    let entries = Self.catalogEntries(shipped)
    for row in Self.misuseRows {
      guard let entry = entries[row.messageID] else {
        Issue.record("\(row.code): missing from \(path) (no entry -- \(row.messageID))")
        continue
      }
      let catalog = row.catalog!
      #expect(
        entry == "Subject: \(catalog.subject)\nDefined-By: BindingDiagnostics\n"
          + "Documentation: man:bindiag(1)\nDocumentation: man:journalctl(1)\n\n\(catalog.body)\n",
        "\(row.code): \(path) differs from the table")
    }
    let known = Set(Self.misuseRows.map(\.messageID))
    for id in entries.keys where !known.contains(id) {
      Issue.record("\(path) has an entry -- \(id) for no kind of the table")
    }
    #expect(shipped == MessageCatalog.text, "\(path) differs from `bindiag catalog`")
  }

  /// A catalog's entries by message id: the text after each `-- ID` line, up to the next one.
  static func catalogEntries(_ text: String) -> [String: String] {
    var entries: [String: String] = [:]
    var id: String?
    var lines: [Substring] = []
    func close() {
      guard let id else { return }
      while lines.last?.isEmpty == true { lines.removeLast() }
      entries[id] = lines.joined(separator: "\n") + "\n"
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("-- ") {
        close()
        id = String(line.dropFirst(3))
        lines = []
      } else if id != nil {
        lines.append(line)
      }
    }
    close()
    return entries
  }

  /// Each reader gives every kind back at the table's level, whatever level the record says.
  @Test func everyReaderGivesEachKindBackAtItsDefaultLevel() throws {
    for row in KindTable.rows {
      var event = sampleEvent()
      event.kind = MisuseKind(row: row)
      event.level = row.defaultLevel == .critical ? .trace : .critical
      if row.isRunRecord {
        event.runRecords = 7
        event.runEvents = 12
        event.runDropped = 0
      }
      let json = JSONLinesEncoder().encode(event).filter { $0 != UInt8(ascii: "\n") }
      let logfmt = LogfmtEncoder().encode(event).filter { $0 != UInt8(ascii: "\n") }
      let forms: [(String, [UInt8])] = [
        ("JSON Lines", json), ("logfmt", logfmt),
        ("journalctl -o json", try Self.journalJSON(event)),
        ("unified log ndjson", try Self.unifiedLogJSON(logfmt)),
      ]
      switch Self.journalEntry(event) {
      case .event(let decoded):
        #expect(
          decoded.kind.defaultLevel == row.defaultLevel,
          "\(row.code): the journal entry decoder reads its entry back at \(decoded.kind.defaultLevel), not \(row.defaultLevel)"
        )
      case let other:
        Issue.record("\(row.code): the journal entry decoder does not read its entry: \(other)")
      }
      for (form, bytes) in forms {
        let (fast, exact) = classifyBytes(bytes)
        for (reader, read) in [("fast path", fast), ("exact decoder", exact)] {
          guard case .event(let decoded) = read else {
            Issue.record("\(row.code): the \(reader) does not read its \(form) record: \(read)")
            continue
          }
          #expect(
            decoded.kind.defaultLevel == row.defaultLevel,
            "\(row.code): the \(reader) reads its \(form) record back at \(decoded.kind.defaultLevel), not \(row.defaultLevel)"
          )
          #expect(decoded.kind.messageID == row.messageID, "\(row.code): \(reader), \(form)")
        }
      }
    }
  }

  /// The event as the journal reader hands an entry of the journal to its decoder: the journal
  /// fields the sink sends, and journald's trusted ones.
  static func journalEntry(_ event: MisuseEvent) -> LineClass {
    var fields: [String: String] = [
      "_PID": "\(event.pid)", "_HOSTNAME": event.host, "_UID": "0",
      "_BOOT_ID": "0123456789abcdef0123456789abcdef", "_EXE": "/usr/bin/Demo", "_COMM": "Demo",
    ]
    for field in JournalFieldsEncoder().fields(event) { fields[field.name] = field.value }
    let buffers = EventDecoder.journalFields.map { name in
      fields[name].map { value in
        let bytes = Array(value.utf8)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        buffer.copyBytes(from: bytes)
        return buffer
      }
    }
    defer { for buffer in buffers { buffer?.deallocate() } }
    var decoder = JournalEntryDecoder()
    return decoder.classify(
      JournalReader.Entry(
        values: buffers.map { $0.map(UnsafeRawBufferPointer.init) },
        realtime: UInt64(event.timestamp.microsecondsSinceEpoch)))
  }

  /// The event as one `journalctl -o json` line: its journal fields and journald's own.
  static func journalJSON(_ event: MisuseEvent) throws -> [UInt8] {
    var object: [String: String] = [
      "__CURSOR": "s=1", "__REALTIME_TIMESTAMP": "1796011953123456", "_PID": "\(event.pid)",
      "_HOSTNAME": event.host, "SYSLOG_IDENTIFIER": event.process,
    ]
    for field in JournalFieldsEncoder().fields(event) { object[field.name] = field.value }
    return Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
  }

  /// A contract logfmt line as Apple's `log show --style ndjson` gives it.
  static func unifiedLogJSON(_ logfmt: [UInt8]) throws -> [UInt8] {
    let object = [
      "eventMessage": String(decoding: logfmt, as: UTF8.self), "messageType": "Default",
      "subsystem": "com.example",
    ]
    return Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
  }

  @Test func theSARIFRulesDescribeEveryKind() throws {
    let rules = try sarifRules(
      of: Self.misuseRows.map { (kind: MisuseKind(row: $0), level: $0.defaultLevel) })
    let sarifLevels: [MisuseLevel: String] = [
      .trace: "note", .debug: "note", .info: "note", .notice: "note", .warning: "warning",
      .error: "error", .critical: "error",
    ]
    for row in Self.misuseRows {
      guard let rule = rules.first(where: { $0["id"] as? String == row.code }) else {
        Issue.record("\(row.code): missing from the SARIF rules")
        continue
      }
      let headline = row.catalog!.subject.replacingOccurrences(
        of: " at @CODE_FILE@:@CODE_LINE@", with: "")
      #expect(
        (rule["shortDescription"] as? [String: String])?["text"] == headline,
        "\(row.code): the SARIF rule's shortDescription is not the catalog's subject")
      #expect(
        (rule["defaultConfiguration"] as? [String: String])
          == ["level": sarifLevels[row.defaultLevel]!],
        "\(row.code): the SARIF rule's level is not the table's \(row.defaultLevel)")
      #expect(
        (rule["properties"] as? [String: String]) == ["messageId": row.messageID],
        "\(row.code): the SARIF rule's messageId")
      #expect(rule["help"] != nil, "\(row.code): the SARIF rule has no help")
    }
  }

  /// The contract article's list of kinds names each built-in kind with its level.
  @Test func theContractArticleListsEveryKind() throws {
    let path = "Sources/BindingDiagnostics/BindingDiagnostics.docc/EventContract.md"
    let article = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    for row in Self.misuseRows {
      #expect(
        article.contains("\n| `\(row.code)` | `\(row.defaultLevel.rawValue)` | "),
        "\(row.code): missing from the kinds of \(path), or at another level")
    }
  }
}
