package import BindingDiagnostics

/// The sink of an expectation's pipeline (``expectMisuse(_:count:fileID:filePath:line:column:_:)``,
/// `XCTAssertMisuse`): keeps the events of one kind (or every kind) and sends the rest to the
/// pipeline that was current before, so they fail or report as they would have without it.
package final class ClaimingSink: DiagnosticsSink {
  private let kind: MisuseKind?
  private let outer: Diagnostics?
  private let claimed = Lock<[MisuseEvent]>([])

  /// A sink keeping events of `kind` (every kind when `nil`) and forwarding others to `outer`.
  private init(claiming kind: MisuseKind?, forwardingTo outer: Diagnostics?) {
    self.kind = kind
    self.outer = outer
  }

  /// Runs `body` with a pipeline that claims `kind` (every kind when `nil`) and returns the
  /// claimed events. Values are rendered as `.public`, so the events show them; forwarded events
  /// are rendered again under the outer pipeline's privacy.
  /// - Parameters:
  ///   - kind: The kind to keep, or `nil` for every kind.
  ///   - body: The code under test.
  /// - Returns: The claimed events, in arrival order.
  package static func claiming(_ kind: MisuseKind?, in body: () throws -> Void) rethrows
    -> [MisuseEvent]
  {
    let sink = ClaimingSink(
      claiming: kind, forwardingTo: kind == nil ? nil : DiagnosticsSystem.current)
    let diagnostics = sink.pipeline()
    try DiagnosticsSystem.withDiagnostics(diagnostics, operation: body)
    diagnostics.flush()
    return sink.events
  }

  /// Runs async `body` like ``claiming(_:in:)``.
  /// - Parameters:
  ///   - kind: The kind to keep, or `nil` for every kind.
  ///   - isolation: The caller's isolation, inherited.
  ///   - body: The code under test.
  /// - Returns: The claimed events, in arrival order.
  package static func claiming(
    _ kind: MisuseKind?, isolation: isolated (any Actor)? = #isolation,
    in body: () async throws -> Void
  ) async rethrows -> [MisuseEvent] {
    let sink = ClaimingSink(
      claiming: kind, forwardingTo: kind == nil ? nil : DiagnosticsSystem.current)
    let diagnostics = sink.pipeline()
    try await DiagnosticsSystem.withDiagnostics(diagnostics, isolation: isolation, operation: body)
    diagnostics.flush()
    return sink.events
  }

  /// Keeps the event, or reports it again through the outer pipeline.
  /// - Parameter event: The event.
  package func receive(_ event: MisuseEvent) {
    guard let kind, event.kind.code != kind.code, let outer else {
      claimed.withLock { $0.append(event) }
      return
    }
    outer.report(
      event.kind, message: event.message, valueType: event.valueType,
      valuePresent: event.valuePresent, value: event.value, level: event.level,
      label: event.label,
      site: CallSite(file: event.file, line: event.line, function: event.function))
  }

  /// Why `events` fail an expectation of `count` misuses of `kind` (at least one when `nil`), or
  /// `nil` when they meet it. A record counts for `1 + suppressed` misuses.
  /// - Parameters:
  ///   - kind: The expected kind.
  ///   - count: The exact number expected, or `nil` for at least one.
  ///   - events: The claimed events.
  /// - Returns: A sentence for the failure, or `nil`.
  package static func mismatch(of kind: MisuseKind, count: Int?, in events: [MisuseEvent])
    -> String?
  {
    let happened = events.reduce(0) { $0 + $1.events }
    if let count, happened != count {
      return
        "Expected \(count) misuse\(count == 1 ? "" : "s") of kind \(kind.code), got \(happened)"
    }
    if count == nil, happened == 0 {
      return "Expected a misuse of kind \(kind.code), got none"
    }
    return nil
  }

  private var events: [MisuseEvent] { claimed.withLock { $0 } }

  private func pipeline() -> Diagnostics {
    Diagnostics(
      configuration: DiagnosticsConfiguration(sink: self, privacy: .public, rateLimit: nil))
  }
}
