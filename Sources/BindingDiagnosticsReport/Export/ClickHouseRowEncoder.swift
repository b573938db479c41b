package import BindingDiagnostics

/// Encodes events as ClickHouse `JSONEachRow` rows for the table ``ClickHouseSchema`` creates:
/// one JSON object per line whose keys are the contract's JSON keys, which are the table's
/// column names.
///
/// A row is the event's contract JSON Lines record, whatever the input was (a file, logfmt
/// from standard error, `journalctl -o json`, the journal): `ts` in RFC 3339 with microseconds
/// (ClickHouse's default `DateTime64` parser reads it), and the optional fields (`value`,
/// `label`, `test`, and the others the contract adds) left out when the event has none, so
/// their `Nullable` columns hold `NULL`.
package struct ClickHouseRowEncoder: Sendable {
  private let encoder = JSONLinesEncoder()

  /// An encoder; the schema fixes the form.
  package init() {}

  /// Appends the row for `event`, `\n` included, to `out`.
  /// - Parameters:
  ///   - event: The event.
  ///   - out: Where the row goes.
  package func encode(_ event: MisuseEvent, into out: inout [UInt8]) {
    encoder.encode(event, into: &out)
  }
}
