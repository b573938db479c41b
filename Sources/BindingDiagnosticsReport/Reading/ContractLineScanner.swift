import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The fast parser's verdict on a line without building its event: the fields of a line that
/// ``ContractFastParser/parse(_:)`` would turn into an event, as byte ranges of the line, or
/// `nil` where it would defer to the exact parser. It makes the same checks (the scan, valid
/// UTF-8 in non-ASCII text, the formats of `kind`, `message_id` and `run`), so that what it takes
/// can be written out straight from the line's bytes (`bindiag export`) and means what the event
/// would have (tested against ``ContractFastParser/parse(_:)``).
package struct ContractLineScanner: Sendable {
  private var day = ContractDay()
  /// Recent `kind`, `message_id` and `run` values whose formats passed: each distinct value is
  /// checked once while it recurs, as the parser's string caches do.
  private var kind = Passed()
  private var messageID = Passed()
  private var run = Passed()

  /// Up to eight values that passed a check, the oldest replaced first.
  private struct Passed: Sendable {
    private var values: [[UInt8]] = []
    private var next = 0

    /// Whether `bytes` is one of them.
    func contains(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      values.contains { value in
        value.count == bytes.count
          && value.withUnsafeBufferPointer {
            bytes.isEmpty || memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0
          }
      }
    }

    /// Remembers `bytes`.
    mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>) {
      if values.count < 8 {
        values.append(Array(bytes))
      } else {
        values[next] = Array(bytes)
        next = (next + 1) % 8
      }
    }
  }

  /// A scanner; it remembers the last day and formats checked, so reuse one per stream.
  package init() {}

  /// The checked fields of `line`, or `nil` when the fast parser would not take it.
  /// - Parameter line: One line, without its `\n`.
  mutating func fields(_ line: UnsafeBufferPointer<UInt8>) -> ContractFastParser.Fields? {
    guard line.first == UInt8(ascii: "{"),
      let fields = ContractFastParser.scan(line, day: &day),
      ContractLineScanner.validUTF8(fields, in: line),
      ContractLineScanner.checked(fields.kind, in: line, last: &kind, { MisuseKind.isKebabCase(bytes: $0) }),
      ContractLineScanner.checked(fields.messageID, in: line, last: &messageID, {
        ContractLineScanner.isLowercaseHex($0, count: 32)
      }),
      ContractLineScanner.checked(fields.run, in: line, last: &run, {
        ContractLineScanner.isLowercaseHex($0, count: 16)
      })
    else { return nil }
    return fields
  }

  /// Whether `text` is a recent value that passed `check`, or passes it now (and is kept).
  private static func checked(
    _ text: ContractFastParser.Text, in line: UnsafeBufferPointer<UInt8>, last: inout Passed,
    _ check: (UnsafeBufferPointer<UInt8>) -> Bool
  ) -> Bool {
    let bytes = text.bytes(in: line)
    if last.contains(bytes) { return true }
    guard check(bytes) else { return false }
    last.insert(bytes)
    return true
  }

  /// Whether every non-ASCII text field is valid UTF-8, as building its string requires.
  private static func validUTF8(
    _ fields: ContractFastParser.Fields, in line: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    func valid(_ text: ContractFastParser.Text?) -> Bool {
      guard let text, !text.ascii else { return true }
      return String(validating: text.bytes(in: line), as: UTF8.self) != nil
    }
    return valid(fields.kind) && valid(fields.messageID) && valid(fields.message)
      && valid(fields.file) && valid(fields.function) && valid(fields.valueType)
      && valid(fields.process) && valid(fields.host) && valid(fields.run) && valid(fields.value)
      && valid(fields.label) && valid(fields.test) && valid(fields.writer)
  }

  /// `count` lowercase hexadecimal digits, as ``Hex/isLowercase(_:count:)`` checks a string.
  private static func isLowercaseHex(_ bytes: UnsafeBufferPointer<UInt8>, count: Int) -> Bool {
    bytes.count == count
      && bytes.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }
}
