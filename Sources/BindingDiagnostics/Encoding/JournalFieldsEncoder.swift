/// Encodes events as journald fields, in contract order, each `NAME=value` with raw bytes.
///
/// `pid` and `host` are not sent: journald records its own trusted `_PID` and `_HOSTNAME`.
/// `PRIORITY` (the syslog priority of the level) follows `BINDING_LEVEL`, and `MESSAGE` ends
/// with the call site, the label and, for a folded record, how many events it stands for beyond
/// itself, ` (InboxKit/InboxModel.swift:29, save-alert, +392 folded)`, so that `journalctl`
/// output tells sites and counts apart; readers take that ending off again. `MESSAGE` never holds
/// a raw control character: `journalctl` would show a newline in a label as a second, lookalike
/// entry, so controls there are written `\u000a` (`BINDING_LABEL` and the other fields keep the
/// value as it is).
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
        fields.append(
          (name, LogfmtEscaping.escapingControls(text) + JournalFieldsEncoder.messageSuffix(event)))
      case .text(let text): fields.append((name, text))
      }
      if field.id == .level { fields.append(("PRIORITY", String(event.level.syslogPriority))) }
    }
    return fields
  }

  /// What `MESSAGE` adds to the event's sentence: ` (FILE:LINE)`, ` (FILE:LINE, LABEL)`, and
  /// for a folded record `, +N folded` before the `)`.
  /// - Parameter event: The event.
  package static func messageSuffix(_ event: MisuseEvent) -> String {
    messageSuffix(
      file: event.file, line: event.line, label: event.label, suppressed: event.suppressed)
  }

  /// What `MESSAGE` adds to the sentence of an event of this call site, label and fold count,
  /// control characters escaped.
  /// - Parameters:
  ///   - file: The call site's file.
  ///   - line: The call site's line.
  ///   - label: The label.
  ///   - suppressed: Events folded into the record.
  package static func messageSuffix(file: String, line: Int, label: String?, suppressed: Int)
    -> String
  {
    var suffix = " (\(file):\(line)" + (label.map { ", " + $0 } ?? "")
    if suppressed > 0 { suffix += ", +\(suppressed) folded" }
    return LogfmtEscaping.escapingControls(suffix + ")")
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
