package import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Records on their way to OTLP/JSON lines (``OTLPEncoder``): contract lines kept as their
/// bytes, written out without building an event (what `bindiag export` reads from a file
/// almost always is), and events decoded from anything else.
///
/// A contract line's text needs no escaping: the fast scan takes only text without escapes or
/// control characters, which RFC 8259 lets through as it is, so the bytes written are those
/// ``OTLPEncoder`` writes for the event the line decodes to (tested).
package struct OTLPRecords {
  /// A contract line and its checked fields (``ContractLineScanner``). The line's bytes must
  /// stay valid until the records are encoded.
  typealias Line = (bytes: UnsafeBufferPointer<UInt8>, fields: ContractFastParser.Fields)

  private var lines: [Line] = []
  private var events: [MisuseEvent] = []
  /// The records in order: `n >= 0` is `lines[n]`, `n < 0` is `events[~n]`.
  private var order: [Int] = []
  /// The events the records stand for (`1 + suppressed` each).
  package private(set) var eventCount = 0

  /// No records yet.
  package init() {}

  /// How many records there are.
  package var count: Int { order.count }

  /// Adds a contract line.
  mutating func append(line bytes: UnsafeBufferPointer<UInt8>, _ fields: ContractFastParser.Fields) {
    order.append(lines.count)
    lines.append((bytes, fields))
    eventCount += 1 + fields.suppressed
  }

  /// Adds `line` as its bytes when `scanner` takes it (what the fast parser would decode).
  /// - Parameters:
  ///   - line: One line without its `\n`; its bytes must stay valid until the records are
  ///     encoded.
  ///   - scanner: The stream's scanner.
  /// - Returns: Whether the line was taken; otherwise nothing was added.
  package mutating func append(
    contractLine line: UnsafeBufferPointer<UInt8>, scanner: inout ContractLineScanner
  ) -> Bool {
    guard let fields = scanner.fields(line) else { return false }
    append(line: line, fields)
    return true
  }

  /// Adds an event.
  package mutating func append(_ event: MisuseEvent) {
    order.append(~events.count)
    events.append(event)
    eventCount += event.events
  }

  /// The records as `LogsData` lines of at most `batch` records each, `\n` after each.
  /// - Parameters:
  ///   - batch: Records per line, at most.
  ///   - version: The scope's version.
  package func encoded(batch: Int, version: String) -> [UInt8] {
    lines.withUnsafeBufferPointer { lines in
      events.withUnsafeBufferPointer { events in
        Encoding(lines: lines, events: events, order: order, version: version)
          .encoded(batch: max(1, batch))
      }
    }
  }

  /// The records while they are encoded, reached in place.
  private struct Encoding {
    let lines: UnsafeBufferPointer<Line>
    let events: UnsafeBufferPointer<MisuseEvent>
    let order: [Int]
    let version: String

    func encoded(batch: Int) -> [UInt8] {
      var plan: [[[Int]]] = []
      var bound = 0
      var start = 0
      while start < order.count {
        let end = min(start + batch, order.count)
        let groups = self.groups(start..<end)
        bound += 64
        for records in groups {
          bound += 640 + resourceBound(records[0]) * 6 + ByteWriter.jsonBound(version)
          bound += records.count
        }
        // A line's record: its fields' bytes, each copied once (at most the line), plus keys,
        // punctuation and numbers, which the longest record (every optional attribute and run
        // count, an out-of-range `binding.ts`) keeps under 1 600 bytes; twice the line covers
        // the kind written twice (`binding.kind` and `eventName`).
        for record in order[start..<end] {
          bound += record >= 0 ? 1600 + lines[record].bytes.count * 2 : OTLPEncoder.bound(events[~record])
        }
        plan.append(groups)
        start = end
      }
      // Written in place, once: no line is built apart and copied.
      return [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
        var out = ByteWriter(buffer.baseAddress!)
        for groups in plan {
          out.literal(#"{"resourceLogs":["#)
          for (number, records) in groups.enumerated() {
            if number > 0 { out.byte(UInt8(ascii: ",")) }
            openResource(records[0], &out)
            for (count, record) in records.enumerated() {
              if count > 0 { out.byte(UInt8(ascii: ",")) }
              if record >= 0 {
                OTLPRecords.record(lines[record].fields, in: lines[record].bytes, &out)
              } else {
                OTLPEncoder.record(events[~record], &out)
              }
            }
            out.literal("]}]}")
          }
          out.literal("]}\n")
        }
        count = out.count
      }
    }

    /// The records of `range` per process run, runs in the order they first appear.
    private func groups(_ range: Range<Int>) -> [[Int]] {
      var groups: [[Int]] = []
      var byHash: [UInt64: [Int]] = [:]
      var last: Int?
      for record in order[range] {
        if let last, sameRun(groups[last][0], record) {
          groups[last].append(record)
          continue
        }
        let hash = runHash(record)
        if let group = byHash[hash, default: []].first(where: { sameRun(groups[$0][0], record) }) {
          groups[group].append(record)
          last = group
        } else {
          byHash[hash, default: []].append(groups.count)
          last = groups.count
          groups.append([record])
        }
      }
      return groups
    }

    /// The bytes of a record's run, process and host, and its pid.
    private func withRun<Result>(
      _ record: Int,
      _ body: (
        _ run: UnsafeBufferPointer<UInt8>, _ process: UnsafeBufferPointer<UInt8>,
        _ host: UnsafeBufferPointer<UInt8>, _ pid: Int
      ) -> Result
    ) -> Result {
      if record >= 0 {
        let line = lines[record].bytes
        let fields = lines[record].fields
        return body(
          fields.run.bytes(in: line), fields.process.bytes(in: line),
          fields.host.bytes(in: line), fields.pid)
      }
      let event = events[~record]
      return Array(event.run.utf8).withUnsafeBufferPointer { run in
        Array(event.process.utf8).withUnsafeBufferPointer { process in
          Array(event.host.utf8).withUnsafeBufferPointer { host in
            body(run, process, host, event.pid)
          }
        }
      }
    }

    /// Whether two records come from the same process run (run, process, host and pid).
    private func sameRun(_ first: Int, _ second: Int) -> Bool {
      if first >= 0, second >= 0 {
        // The usual case, in place.
        let (a, b) = (lines[first].bytes, lines[second].bytes)
        let (x, y) = (lines[first].fields, lines[second].fields)
        return x.pid == y.pid && OTLPRecords.same(x.run.bytes(in: a), y.run.bytes(in: b))
          && OTLPRecords.same(x.process.bytes(in: a), y.process.bytes(in: b))
          && OTLPRecords.same(x.host.bytes(in: a), y.host.bytes(in: b))
      }
      return withRun(first) { run, process, host, pid in
        withRun(second) {
          pid == $3 && OTLPRecords.same(run, $0) && OTLPRecords.same(process, $1)
            && OTLPRecords.same(host, $2)
        }
      }
    }

    /// FNV-1a over a record's run, process, host and pid: equal runs hash equal, whatever the
    /// record's form.
    private func runHash(_ record: Int) -> UInt64 {
      withRun(record) { run, process, host, pid in
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in [run, process, host] {
          for byte in part { hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01b3 }
          hash = (hash ^ 0xff) &* 0x0100_0000_01b3
        }
        return hash ^ UInt64(truncatingIfNeeded: pid)
      }
    }

    /// The bytes of a record's run (twice), process and host: escaped, six times that at most.
    private func resourceBound(_ record: Int) -> Int {
      withRun(record) { run, process, host, _ in run.count * 2 + process.count + host.count + 8 }
    }

    /// Writes the opening of a run's `resourceLogs` entry, up to its first `logRecord`.
    private func openResource(_ record: Int, _ out: inout ByteWriter) {
      if record >= 0 {
        let (line, fields) = lines[record]
        out.literal(#"{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":""#)
        out.bytes(fields.process.bytes(in: line))
        out.literal(#""}},{"key":"service.instance.id","value":{"stringValue":""#)
        out.bytes(fields.run.bytes(in: line))
        out.literal(#""}},{"key":"host.name","value":{"stringValue":""#)
        out.bytes(fields.host.bytes(in: line))
        out.literal(#""}}"#)
        OTLPEncoder.attribute("process.pid", integer: fields.pid, &out)
      } else {
        let event = events[~record]
        out.literal(#"{"resource":{"attributes":["#)
        OTLPEncoder.attribute("service.name", string: event.process, first: true, &out)
        OTLPEncoder.attribute("service.instance.id", string: event.run, &out)
        OTLPEncoder.attribute("host.name", string: event.host, &out)
        OTLPEncoder.attribute("process.pid", integer: event.pid, &out)
      }
      out.literal(#"]},"scopeLogs":[{"scope":{"name":"BindingDiagnostics","version":"#)
      out.jsonString(version)
      out.literal(#"},"logRecords":["#)
    }
  }

  /// Byte-for-byte equality.
  @inline(__always)
  static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    a.count == b.count && (a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
  }

  /// Writes one `logRecord` from a contract line: what ``OTLPEncoder/record(_:_:)`` writes for
  /// its event, attribute for attribute, each key and its punctuation one literal.
  private static func record(
    _ fields: ContractFastParser.Fields, in line: UnsafeBufferPointer<UInt8>,
    _ out: inout ByteWriter
  ) {
    out.literal(#"{"timeUnixNano":""#)
    let inRange = OTLPEncoder.representable(fields.timestamp)
    if inRange {
      out.decimal(Int(fields.timestamp.microsecondsSinceEpoch))
      out.literal("000")
    } else {
      out.byte(UInt8(ascii: "0"))
    }
    out.literal(#"","severityNumber":"#)
    out.decimal(OTLPEncoder.severityNumber(of: fields.level))
    out.literal(#","severityText":""#)
    out.string(fields.level.rawValue)
    out.literal(#"","body":{"stringValue":""#)
    out.bytes(fields.message.bytes(in: line))
    out.literal(#""},"attributes":[{"key":"code.file.path","value":{"stringValue":""#)
    out.bytes(fields.file.bytes(in: line))
    out.literal(#""}},{"key":"code.line.number","value":{"intValue":""#)
    out.decimal(fields.line)
    out.literal(#""}},{"key":"code.function.name","value":{"stringValue":""#)
    out.bytes(fields.function.bytes(in: line))
    out.literal(#""}},{"key":"binding.kind","value":{"stringValue":""#)
    out.bytes(fields.kind.bytes(in: line))
    out.literal(#""}},{"key":"binding.message_id","value":{"stringValue":""#)
    out.bytes(fields.messageID.bytes(in: line))
    out.literal(#""}},{"key":"binding.run","value":{"stringValue":""#)
    out.bytes(fields.run.bytes(in: line))
    out.literal(#""}},{"key":"binding.seq","value":{"intValue":""#)
    out.decimal(fields.seq)
    out.literal(#""}},{"key":"binding.suppressed","value":{"intValue":""#)
    out.decimal(fields.suppressed)
    out.literal(#""}},{"key":"binding.events","value":{"intValue":""#)
    out.decimal(1 + fields.suppressed)
    out.literal(#""}},{"key":"binding.value_type","value":{"stringValue":""#)
    out.bytes(fields.valueType.bytes(in: line))
    out.literal(
      fields.valuePresent
        ? #""}},{"key":"binding.value_present","value":{"boolValue":true}}"#
        : #""}},{"key":"binding.value_present","value":{"boolValue":false}}"#)
    text(#",{"key":"binding.value","value":{"stringValue":""#, fields.value, in: line, &out)
    text(#",{"key":"binding.label","value":{"stringValue":""#, fields.label, in: line, &out)
    text(#",{"key":"binding.test","value":{"stringValue":""#, fields.test, in: line, &out)
    text(#",{"key":"binding.writer","value":{"stringValue":""#, fields.writer, in: line, &out)
    if isRunRecord(fields.kind.bytes(in: line)) {
      OTLPEncoder.attribute("binding.run_record", bool: true, &out)
    }
    if let records = fields.runRecords {
      OTLPEncoder.attribute("binding.run_records", integer: records, &out)
    }
    if let events = fields.runEvents {
      OTLPEncoder.attribute("binding.run_events", integer: events, &out)
    }
    if let dropped = fields.runDropped {
      OTLPEncoder.attribute("binding.run_dropped", integer: dropped, &out)
    }
    if !inRange {
      OTLPEncoder.attribute("binding.ts", string: fields.timestamp.rfc3339, &out)
    }
    // The kind passed the kebab-case check: nothing in it to escape.
    out.literal(#"],"eventName":"binding."#)
    out.bytes(fields.kind.bytes(in: line))
    out.literal(#""}"#)
  }

  /// An optional text attribute: `opening` (its key, up to the value's quote), the text as the
  /// line holds it (escaped for JSON already), and the attribute's end; nothing when absent.
  @inline(__always)
  private static func text(
    _ opening: StaticString, _ text: ContractFastParser.Text?, in line: UnsafeBufferPointer<UInt8>,
    _ out: inout ByteWriter
  ) {
    guard let text else { return }
    out.literal(opening)
    out.bytes(text.bytes(in: line))
    out.literal(#""}}"#)
  }

  /// Whether a kind's code is a run record's.
  private static func isRunRecord(_ code: UnsafeBufferPointer<UInt8>) -> Bool {
    // Both run record kinds start with `run-`; misuse kinds seldom do.
    guard code.count > 4, code[0] == UInt8(ascii: "r"), code[3] == UInt8(ascii: "-") else {
      return false
    }
    return runRecordCodes.contains { $0.withUnsafeBufferPointer { same($0, code) } }
  }

  private static let runRecordCodes = MisuseKind.runRecordKinds.map { Array($0.code.utf8) }
}
