/// Encodes events as journald fields, in contract order, each `NAME=value` with raw bytes.
///
/// `pid` and `host` are not sent: journald records its own trusted `_PID` and `_HOSTNAME`.
/// `PRIORITY` (the syslog priority of the level) follows `BINDING_LEVEL`, and `MESSAGE` ends
/// with the call site and label, ` (InboxKit/InboxModel.swift:29, save-alert)`, so that
/// `journalctl` output tells sites apart; readers take that ending off again.
public struct JournalFieldsEncoder: Sendable {
  /// The field names this encoder writes, in order.
  public static let fieldNames: [String] = ContractField.all.flatMap { field -> [String] in
    guard let name = field.journalField else { return [] }
    return field.id == .level ? [name, "PRIORITY"] : [name]
  }

  /// An encoder; the contract fixes the form.
  public init() {}

  /// The fields for `event`, as `(name, value)` pairs in contract order.
  /// - Parameter event: The event.
  public func fields(_ event: MisuseEvent) -> [(name: String, value: String)] {
    var fields: [(name: String, value: String)] = []
    fields.reserveCapacity(JournalFieldsEncoder.fieldNames.count)
    for field in ContractField.all {
      guard let name = field.journalField, let value = field.value(of: event) else { continue }
      switch value {
      case .integer(let number): fields.append((name, String(number)))
      case .boolean(let flag): fields.append((name, flag ? "1" : "0"))
      case .text(let text) where field.id == .message:
        fields.append((name, text + JournalFieldsEncoder.messageSuffix(event)))
      case .text(let text): fields.append((name, text))
      }
      if field.id == .level { fields.append(("PRIORITY", String(event.level.syslogPriority))) }
    }
    return fields
  }

  /// What `MESSAGE` adds to the event's sentence: ` (FILE:LINE)` or ` (FILE:LINE, LABEL)`.
  /// - Parameter event: The event.
  package static func messageSuffix(_ event: MisuseEvent) -> String {
    messageSuffix(file: event.file, line: event.line, label: event.label)
  }

  /// What `MESSAGE` adds to the sentence of an event of this call site and label.
  package static func messageSuffix(file: String, line: Int, label: String?) -> String {
    " (\(file):\(line)" + (label.map { ", " + $0 } ?? "") + ")"
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
