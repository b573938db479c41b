package import BindingDiagnostics

/// What one input line is.
package enum LineClass: Sendable, Equatable {
  /// A valid event: contract JSON Lines, standard-error logfmt, or a `journalctl -o json` entry.
  case event(MisuseEvent)
  /// A line that looks like an event but is not a valid one, and why.
  case malformed(MalformedReason)
  /// Any other line (an app's own output, a journal entry that is not ours).
  case other
  /// An empty or all-blank line.
  case blank
}

/// Recognises events line by line in a mixed stream (the DocC article *The bindiag command line*):
/// a line starting (after blanks) with `{` is JSON (the contract's, journalctl's or the unified
/// log's), a line with `v=` and `kind=` keys is logfmt, anything else is `other`.
package struct LineClassifier: Sendable {
  private var fast = ContractFastParser()
  /// The trusted identity (`_UID`, `_PID`, `_BOOT_ID`) of the last line classified when it was a
  /// `journalctl -o json` entry, which readers check against the run it claims; `nil` otherwise.
  private(set) var journalIdentity: JournalEntryDecoder.Identity?

  /// A classifier; it keeps small caches between lines, so reuse one per stream.
  package init() {}

  /// Classifies one line (without its `\n`).
  /// - Parameter line: The line's bytes.
  package mutating func classify(_ line: UnsafeBufferPointer<UInt8>) -> LineClass {
    journalIdentity = nil
    guard let start = line.firstIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0d }) else {
      return .blank
    }
    if line[start] == UInt8(ascii: "{") {
      if start == 0, let event = fast.parse(line) { return .event(event) }
      return LineClassifier.classifyJSON(line, identity: &journalIdentity)
    }
    return LineClassifier.classifyText(line)
  }

  /// Classifies a line with the exact parsers only (no fast path): the reference the fast
  /// path is tested against.
  /// - Parameter line: The line's bytes.
  package static func classifyExactly(_ line: UnsafeBufferPointer<UInt8>) -> LineClass {
    var identity: JournalEntryDecoder.Identity?
    return classifyExactly(line, identity: &identity)
  }

  /// ``classifyExactly(_:)``, setting `identity` to the trusted identity of a `journalctl -o
  /// json` entry (`nil` for any other line).
  static func classifyExactly(
    _ line: UnsafeBufferPointer<UInt8>, identity: inout JournalEntryDecoder.Identity?
  ) -> LineClass {
    identity = nil
    guard let start = line.firstIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0d }) else {
      return .blank
    }
    return line[start] == UInt8(ascii: "{")
      ? classifyJSON(line, identity: &identity) : classifyText(line)
  }

  private static func classifyJSON(
    _ line: UnsafeBufferPointer<UInt8>, identity: inout JournalEntryDecoder.Identity?
  ) -> LineClass {
    let value: JSONValue
    switch JSONParser.parse(line) {
    case .failure(.syntax(let reason)): return .malformed("\(reason)")
    case .success(let parsed): value = parsed
    }
    guard case .object(let members) = value else { return .malformed("not a JSON object") }
    if value["BINDING_SCHEMA"] != nil {
      var fields: [String: String] = [:]
      var nulls: [String] = []
      for (key, member) in members where fields[key] == nil {
        switch journalText(member) {
        case .text(let text): fields[key] = text
        case .invalidUTF8 where EventDecoder.contractJournalFields.contains(key):
          return .malformed(EventDecoder.invalidUTF8(in: key))
        case .notBytes where EventDecoder.contractJournalFields.contains(key):
          return .malformed("\(key) is an array of numbers that are not bytes (0 to 255)")
        case .notBytes: break
        case .null where EventDecoder.contractJournalFields.contains(key): nulls.append(key)
        // journald's own fields (a path may be any bytes) name the process, as from the journal.
        case .invalidUTF8(let lossy): fields[key] = lossy
        case .absent, .null: break
        }
      }
      if !nulls.isEmpty {
        let names = nulls.sorted().joined(separator: ", ")
        return .malformed(
          MalformedReason(
            stringLiteral: "\(names) \(nulls.count == 1 ? "is" : "are") null (journalctl writes "
              + "a field of 4096 bytes or more as null: run journalctl with --all)"))
      }
      let decoded = result(EventDecoder.decodeJournal(fields))
      if case .event = decoded { identity = JournalEntryDecoder.Identity(json: fields) }
      return decoded
    }
    if value["v"] == nil, value["__CURSOR"] != nil || value["__REALTIME_TIMESTAMP"] != nil {
      return .other
    }
    if let unified = UnifiedLogEntries.classify(value) { return unified }
    return result(EventDecoder.decodeContract(members))
  }

  static func classifyText(_ line: UnsafeBufferPointer<UInt8>) -> LineClass {
    guard LogfmtLineParser.looksLikeEvent(line) else { return .other }
    guard String(validating: line, as: UTF8.self) != nil else { return .malformed("invalid UTF-8") }
    guard let pairs = LogfmtLineParser.pairs(line) else { return .malformed("not valid logfmt") }
    return result(EventDecoder.decodeLogfmt(pairs))
  }

  private static func result(_ decoded: Result<MisuseEvent, MalformedReason>) -> LineClass {
    switch decoded {
    case .success(let event): .event(event)
    case .failure(let reason): .malformed(reason)
    }
  }

  /// A journalctl JSON field value as text.
  private enum JournalText {
    case text(String)
    /// An array of bytes that is not UTF-8: malformed in a contract field, as in JSON; the
    /// text with replacement characters.
    case invalidUTF8(String)
    /// An array of numbers one of which is no byte (journalctl writes none): malformed in a
    /// contract field, where 3.2.1 took it for an absent one.
    case notBytes
    /// `null`: journalctl without `--all` writes a field of 4 096 bytes or more so. Malformed in
    /// a contract field (its value is lost), absent in journald's own.
    case null
    case absent
  }

  /// A journalctl JSON field value as text: a string, an array of bytes (binary or unprintable
  /// data), or an array of several values (the first is used); `null` (an over-long field
  /// journalctl left out) apart.
  private static func journalText(_ value: JSONValue) -> JournalText {
    switch value {
    case .string(let text): return .text(text)
    case .number(let text): return .text(text)
    case .array(let elements):
      if let first = elements.first, case .number = first {
        var bytes: [UInt8] = []
        for element in elements {
          guard let byte = element.integer, (0...255).contains(byte) else { return .notBytes }
          bytes.append(UInt8(byte))
        }
        return String(validating: bytes, as: UTF8.self).map(JournalText.text)
          ?? .invalidUTF8(String(decoding: bytes, as: UTF8.self))
      }
      return elements.first.map(journalText) ?? .absent
    case .null: return .null
    default: return .absent
    }
  }
}
