/// Encodes events as contract JSON Lines: keys in contract order, no spaces, `\n` at the end.
///
/// Written out by hand, as the file sink's hot path; its keys and their order are checked
/// against the contract table (`ContractField.all`) by the encoding tests.
///
/// Strings are escaped per RFC 8259 with every control character as `\u00XX`, and the C1
/// controls and U+2028/U+2029 as `\u0085`, `\u2028`, `\u2029` (JSON allows them raw, but
/// readers that split lines as Foundation, Swift's `Character.isNewline` or Python's
/// `splitlines()` do would break a record there), so a record is always exactly one line.
public struct JSONLinesEncoder: Sendable {
  /// An encoder; it has no settings, the contract fixes the form.
  public init() {}

  /// The record for `event`, ending in `\n`.
  /// - Parameter event: The event to encode.
  public func encode(_ event: MisuseEvent) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: JSONLinesEncoder.bound(event)) { buffer, count in
      var writer = ByteWriter(buffer.baseAddress!)
      write(event, &writer)
      count = writer.count
    }
  }

  /// Appends the record for `event`, `\n` included, to `out`.
  /// - Parameters:
  ///   - event: The event to encode.
  ///   - out: The buffer to append to.
  public func encode(_ event: MisuseEvent, into out: inout [UInt8]) {
    out.append(contentsOf: encode(event))
  }

  /// Writes the record for `event`, `\n` included, at `start`, which has room for
  /// ``bound(_:)`` bytes.
  /// - Returns: The bytes written.
  func write(_ event: MisuseEvent, to start: UnsafeMutablePointer<UInt8>) -> Int {
    var writer = ByteWriter(start)
    write(event, &writer)
    return writer.count
  }

  /// The most bytes a record for `event` can take.
  static func bound(_ event: MisuseEvent) -> Int {
    let bytes =
      event.kind.code.utf8.count + event.kind.messageID.utf8.count + event.message.utf8.count
      + event.file.utf8.count + event.function.utf8.count + event.valueType.utf8.count
      + event.process.utf8.count + event.host.utf8.count + event.run.utf8.count
      + (event.value?.utf8.count ?? 0) + (event.label?.utf8.count ?? 0)
      + (event.test?.utf8.count ?? 0) + (event.writer?.utf8.count ?? 0)
    // Every string byte may become `\u00XX`; keys, numbers, quotes and the time fit in 400.
    return 400 + bytes * 6
  }

  private func write(_ event: MisuseEvent, _ out: inout ByteWriter) {
    out.literal(#"{"v":"#)
    out.decimal(event.schema)
    out.literal(#","ts":""#)
    event.timestamp.write(to: &out)
    out.literal(#"","level":""#)
    out.string(event.level.rawValue)
    out.literal(#"","kind":"#)
    out.jsonString(event.kind.code)
    out.literal(#","message_id":"#)
    out.jsonString(event.kind.messageID)
    out.literal(#","msg":"#)
    out.jsonString(event.message)
    out.literal(#","file":"#)
    out.jsonString(event.file)
    out.literal(#","line":"#)
    out.decimal(event.line)
    out.literal(#","function":"#)
    out.jsonString(event.function)
    out.literal(#","value_type":"#)
    out.jsonString(event.valueType)
    out.literal(event.valuePresent ? #","value_present":true"# : #","value_present":false"#)
    if let value = event.value {
      out.literal(#","value":"#)
      out.jsonString(value)
    }
    if let label = event.label {
      out.literal(#","label":"#)
      out.jsonString(label)
    }
    if let test = event.test {
      out.literal(#","test":"#)
      out.jsonString(test)
    }
    if let writer = event.writer {
      out.literal(#","writer":"#)
      out.jsonString(writer)
    }
    out.literal(#","process":"#)
    out.jsonString(event.process)
    out.literal(#","pid":"#)
    out.decimal(event.pid)
    out.literal(#","host":"#)
    out.jsonString(event.host)
    out.literal(#","run":"#)
    out.jsonString(event.run)
    out.literal(#","seq":"#)
    out.decimal(event.seq)
    out.literal(#","suppressed":"#)
    out.decimal(event.suppressed)
    if let runRecords = event.runRecords {
      out.literal(#","run_records":"#)
      out.decimal(runRecords)
    }
    if let runEvents = event.runEvents {
      out.literal(#","run_events":"#)
      out.decimal(runEvents)
    }
    if let runDropped = event.runDropped {
      out.literal(#","run_dropped":"#)
      out.decimal(runDropped)
    }
    out.literal("}\n")
  }
}

extension Array where Element == UInt8 {
  /// Appends the decimal digits of `value`.
  package mutating func appendDecimal(_ value: Int) {
    appendWriting(upTo: 20) { $0.decimal(value) }
  }

  /// Appends `text` as a quoted JSON string: `"` and `\` escaped, control characters as
  /// `\u00XX`, C1 controls and U+2028/U+2029 as `\uXXXX`.
  package mutating func appendJSONString(_ text: String) {
    appendWriting(upTo: ByteWriter.jsonBound(text)) { $0.jsonString(text) }
  }

  /// Appends what `body` writes, at most `bound` bytes, straight into the array's storage.
  mutating func appendWriting(upTo bound: Int, _ body: (inout ByteWriter) -> Void) {
    let start = count
    append(contentsOf: repeatElement(0, count: bound))
    var written = 0
    withUnsafeMutableBufferPointer { buffer in
      var writer = ByteWriter(buffer.baseAddress! + start)
      body(&writer)
      written = writer.count
    }
    removeLast(bound - written)
  }

  /// Appends `\u00XX` for a byte below 0x80, or `\uXXXX` for a scalar below 0x10000.
  package mutating func appendUnicodeEscape(_ scalar: UInt32) {
    append(contentsOf: #"\u"#.utf8)
    for shift in [UInt32(12), 8, 4, 0] {
      append(Hex.digits[Int((scalar >> shift) & 0xf)])
    }
  }

  package mutating func appendUnicodeEscape(_ byte: UInt8) {
    appendUnicodeEscape(UInt32(byte))
  }
}
