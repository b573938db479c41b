@testable import BindingDiagnosticsReport

extension ContractRecordParser {
  /// The record on `line` (``record(_:into:)`` into an array of its own), or `nil`: what the
  /// tests compare with the exact parser's event.
  mutating func record(_ line: UnsafeBufferPointer<UInt8>) -> InternedRecord? {
    var made: [InternedRecord] = []
    guard record(line, into: &made) else { return nil }
    return made.first
  }
}
