/// Entries of Apple's unified log as `log show` and `log stream` export them (`--style ndjson`:
/// one JSON object per line; `--style json`: one array of them, see ``UnifiedLogArray``).
///
/// An entry's `eventMessage` is what the app logged. It is an event when that message is a
/// contract logfmt line (what `OSLogSink` logs), read exactly as such a line in a text stream
/// would be: a message that looks like one (`v=` and `kind=`) but is not valid, for example one the
/// unified log cut short, is malformed; any other message is `other`. The `{"count":N,"finished":1}`
/// object that ends a `log show --style ndjson` export is `other` too.
enum UnifiedLogEntries {
  /// The class of a parsed JSON object from the unified log, or `nil` when it is not one.
  static func classify(_ object: JSONValue) -> LineClass? {
    guard case .object(let members) = object else { return nil }
    if let message = object["eventMessage"] {
      guard case .string(let text) = message else { return .other }
      var line = text
      let kind = line.withUTF8 { LineClassifier.classifyText($0) }
      if case .blank = kind { return .other }
      return kind
    }
    // (`members.count` here sends Swift 6.3 into a "circular reference" through JSONValue.)
    if object["count"]?.integer != nil, object["finished"]?.integer != nil,
      members.allSatisfy({ $0.0 == "count" || $0.0 == "finished" })
    {
      return .other
    }
    return nil
  }
}
