/// Encodes events as journald fields, in contract order, each `NAME=value` with raw bytes.
///
/// `pid` and `host` are not sent: journald records its own trusted `_PID` and `_HOSTNAME`.
public struct JournalFieldsEncoder: Sendable {
  /// The field names this encoder writes, in order.
  public static let fieldNames = [
    "BINDING_SCHEMA", "BINDING_TS", "BINDING_LEVEL", "PRIORITY", "BINDING_KIND", "MESSAGE_ID",
    "MESSAGE", "CODE_FILE", "CODE_LINE", "CODE_FUNC", "BINDING_VALUE_TYPE",
    "BINDING_VALUE_PRESENT", "BINDING_VALUE", "BINDING_LABEL", "SYSLOG_IDENTIFIER", "BINDING_RUN",
    "BINDING_SEQ", "BINDING_SUPPRESSED",
  ]

  /// An encoder; the contract fixes the form.
  public init() {}

  /// The fields for `event`, as `(name, value)` pairs in contract order.
  /// - Parameter event: The event.
  public func fields(_ event: MisuseEvent) -> [(name: String, value: String)] {
    var fields: [(name: String, value: String)] = [
      ("BINDING_SCHEMA", String(event.schema)),
      ("BINDING_TS", event.timestamp.rfc3339),
      ("BINDING_LEVEL", event.level.rawValue),
      ("PRIORITY", String(event.level.syslogPriority)),
      ("BINDING_KIND", event.kind.code),
      ("MESSAGE_ID", event.kind.messageID),
      ("MESSAGE", event.message),
      ("CODE_FILE", event.file),
      ("CODE_LINE", String(event.line)),
      ("CODE_FUNC", event.function),
      ("BINDING_VALUE_TYPE", event.valueType),
      ("BINDING_VALUE_PRESENT", event.valuePresent ? "1" : "0"),
    ]
    if let value = event.value { fields.append(("BINDING_VALUE", value)) }
    if let label = event.label { fields.append(("BINDING_LABEL", label)) }
    fields.append(("SYSLOG_IDENTIFIER", event.process))
    fields.append(("BINDING_RUN", event.run))
    fields.append(("BINDING_SEQ", String(event.seq)))
    fields.append(("BINDING_SUPPRESSED", String(event.suppressed)))
    return fields
  }

  /// Whether journald keeps a field of this name: `[A-Z0-9_]{1,64}`, not starting with `_` or
  /// a digit. journald silently drops fields that are not.
  /// - Parameter name: The field name.
  public static func isValidFieldName(_ name: String) -> Bool {
    let utf8 = name.utf8
    guard (1...64).contains(utf8.count), let first = utf8.first, first != UInt8(ascii: "_"),
      !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
    else { return false }
    for byte in utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "_"):
        continue
      default:
        return false
      }
    }
    return true
  }
}
