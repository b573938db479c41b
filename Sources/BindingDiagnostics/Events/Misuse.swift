/// One misuse as the pipeline knows it before it becomes a record: what went wrong, where, and
/// how badly. The one value that travels through ``Diagnostics``, the policy, the rate limiter
/// and the test frameworks' reporters; the record adds the run's identity, `seq`, the test, the
/// writer and the value under the privacy setting (``MisuseEvent``).
package struct Misuse: Sendable {
  /// What went wrong and where: the kind, the call site and the value type.
  package let origin: MisuseOrigin
  /// The report's level (the kind's default unless the caller chose one).
  package let level: MisuseLevel
  /// One human sentence.
  package let message: String
  /// The name the caller gave the mapping.
  package let label: String?
  /// Whether the optional held a value.
  package let valuePresent: Bool

  /// What went wrong.
  package var kind: MisuseKind { origin.kind }
  /// `String(reflecting:)` of the optional's type.
  package var valueType: String { origin.valueType }
  /// Where the mapping was created.
  package var site: CallSite { origin.site }

  /// A misuse of a known origin (a site's, from ``SiteTable``).
  /// - Parameters:
  ///   - origin: Its kind, call site and value type.
  ///   - level: The report's level.
  ///   - message: One human sentence.
  ///   - label: The mapping's label.
  ///   - valuePresent: Whether the optional held a value.
  package init(
    origin: MisuseOrigin, level: MisuseLevel, message: String, label: String?, valuePresent: Bool
  ) {
    self.origin = origin
    self.level = level
    self.message = message
    self.label = label
    self.valuePresent = valuePresent
  }

  /// A misuse.
  /// - Parameters:
  ///   - kind: What went wrong.
  ///   - level: The report's level.
  ///   - message: One human sentence.
  ///   - label: The mapping's label.
  ///   - valueType: The optional's type.
  ///   - valuePresent: Whether the optional held a value.
  ///   - site: Where the mapping was created.
  package init(
    kind: MisuseKind, level: MisuseLevel, message: String, label: String?, valueType: String,
    valuePresent: Bool, site: CallSite
  ) {
    self.init(
      origin: MisuseOrigin(kind: kind, site: site, valueType: valueType), level: level,
      message: message, label: label, valuePresent: valuePresent)
  }

  /// The misuse a record stands for (a record of another pipeline, relayed).
  /// - Parameter event: The record.
  package init(of event: MisuseEvent) {
    self.init(
      kind: event.kind, level: event.level, message: event.message, label: event.label,
      valueType: event.valueType, valuePresent: event.valuePresent,
      site: CallSite(file: event.file, line: event.line, function: event.function))
  }
}
