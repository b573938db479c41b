import Dispatch

/// A misuse pipeline: configuration, a run id, the `seq` counter and the rate limiter.
///
/// The process has one, made by ``DiagnosticsSystem/bootstrap(_:fileID:line:)`` or from the
/// environment; tests and scoped work make their own and install it with
/// ``DiagnosticsSystem/withDiagnostics(_:operation:)``. Each pipeline is one `run`:
/// its `seq` starts at 1 and has no gap and no repeat across threads.
public final class Diagnostics: Sendable {
  /// The configuration this pipeline was made with.
  public let configuration: DiagnosticsConfiguration
  let identity: ProcessIdentity
  /// Copies of `identity` with strings of their own, one per stripe of threads: a sink that
  /// queues records retains these, not one set of strings every thread shares.
  private let identities: Striped<ProcessIdentity>
  private let sequence = Counter()
  /// The run's heartbeats and end (written only for the process's pipeline).
  let runRecords: RunRecords
  private let limiter: RateLimiter?
  private let acceptsEvents: Bool
  // The configuration's parts the report path reads, held apart so that a report copies none of
  // the rest (the configuration is a struct with an existential).
  private let sink: any DiagnosticsSink
  private let privacy: ValuePrivacy
  private let minimumLevel: MisuseLevel
  private let policy: MisusePolicy

  /// A pipeline for `configuration`, with a fresh random run id.
  /// - Parameter configuration: Sink, privacy, rate limit, level and policy.
  public init(configuration: DiagnosticsConfiguration) {
    self.configuration = configuration
    self.identity = ProcessIdentity.current()
    let identity = self.identity
    self.identities = Striped(count: SiteTable.shardCount) { identity.copied() }
    self.limiter = configuration.rateLimit.map(RateLimiter.init)
    self.runRecords = RunRecords(heartbeatInterval: configuration.heartbeatInterval)
    self.acceptsEvents = configuration.sink.acceptsEvents
    self.sink = configuration.sink
    self.privacy = configuration.privacy
    self.minimumLevel = configuration.minimumLevel
    self.policy = configuration.policy
    // The test libraries' reporters are made with the pipeline (XCTest's starts observing the
    // test run then), not at its first misuse.
    if TestProcess.isTestProcess { _ = MisusePolicy.testFailureReporters }
  }

  /// The 16-hex-digit run id every record of this pipeline carries.
  public var run: String { identity.run }

  deinit {
    flush()
  }

  /// Reports one misuse.
  ///
  /// The value is rendered (`String(describing:)`) only when a record will be written and the
  /// privacy setting shows it; the value type is named only when a record or a pending
  /// rate-limited event needs it.
  /// - Parameters:
  ///   - kind: What went wrong.
  ///   - message: One human sentence.
  ///   - valueType: `String(reflecting:)` of the optional's type.
  ///   - valuePresent: Whether the optional held a value.
  ///   - value: The wrapped value, or `nil` to write no `value`.
  ///   - level: The level; the kind's default when `nil`.
  ///   - label: The name the caller gave the mapping.
  ///   - site: Where the mapping was created.
  public func report(
    _ kind: MisuseKind, message: String, valueType: @autoclosure () -> String,
    valuePresent: Bool, value: @autoclosure () -> Any? = nil, level: MisuseLevel? = nil,
    label: String? = nil, site: CallSite
  ) {
    let level = level ?? kind.defaultLevel
    let wanted = acceptsEvents && level >= minimumLevel
    guard wanted || policy.actsOnMisuse else { return }
    let misuse = Misuse(
      kind: kind, level: level, message: message, label: label, valueType: valueType(),
      valuePresent: valuePresent, site: site)
    handle(misuse, wanted: wanted, value: value, thread: ThreadOrdinal.current())
  }

  /// The report path of the mappings and of ``DiagnosticsSystem/report(_:message:valueType:valuePresent:value:level:label:fileID:line:function:)``.
  ///
  /// Not generic, so no type metadata is looked up per report; `value` is called (and the
  /// value boxed) only for a record that is written. The misuse's origin (the kind, the call
  /// site's strings and the type's name) comes from ``SiteTable``, made once per site.
  @usableFromInline
  func record(
    _ kind: MisuseKind, message: String, valueType: Any.Type, valuePresent: Bool,
    value: () -> Any?, level: MisuseLevel? = nil, label: String?,
    fileID: StaticString, line: UInt, function: StaticString
  ) {
    let level = level ?? kind.defaultLevel
    let wanted = acceptsEvents && level >= minimumLevel
    guard wanted || policy.actsOnMisuse else { return }
    let thread = ThreadOrdinal.current()
    // The origin goes straight into the misuse: held in a local of its own, it was retained once
    // more and released at the end.
    let misuse = Misuse(
      origin: SiteTable.origin(
        kind, fileID: fileID, line: line, function: function, valueType: valueType,
        thread: thread),
      level: level, message: message, label: label, valuePresent: valuePresent)
    handle(misuse, wanted: wanted, value: value, thread: thread)
  }

  /// The policy's step and the record, in the order the policy needs.
  /// - Parameters:
  ///   - misuse: What went wrong, where.
  ///   - wanted: Whether a record is written (a sink takes events at this level).
  ///   - value: The wrapped value, asked for only when a record is written.
  ///   - thread: The reporting thread's ordinal.
  @inline(__always)
  private func handle(_ misuse: Misuse, wanted: Bool, value: () -> Any?, thread: Int) {
    // The writer's stack is walked only for what names it: a record written (not one folded
    // away), a test issue recorded.
    var writer = WriterSlot()
    // A test failure comes before the record: XCTest's reporter may learn the running test
    // from it, for the record's `test`. An assertion or a debugger stop comes after.
    let failsTestFirst = policy.failsTests
    var shown = false
    if failsTestFirst {
      shown = applyPolicy(misuse, writer: { writer.site })
    }
    if wanted {
      let test = MisusePolicy.testName(for: self)
      if shown {
        TestProcess.$recordShownAsTestIssue.withValue(true) {
          deliver(misuse, value: value(), test: test, writer: &writer, thread: thread)
        }
      } else {
        deliver(misuse, value: value(), test: test, writer: &writer, thread: thread)
      }
    }
    if !failsTestFirst {
      applyPolicy(misuse, writer: { writer.site })
    }
  }

  /// After the report: a runtime warning, then what the policy says (see
  /// ``MisusePolicy/respond(to:writer:pipeline:flush:)``).
  /// Returns whether a test framework took the misuse.
  @discardableResult
  @inline(__always)
  private func applyPolicy(_ misuse: Misuse, writer: () -> WriterSite?) -> Bool {
    guard policy.actsOnMisuse else { return false }
    return policy.respond(to: misuse, writer: writer, pipeline: self, flush: { sink.flush() })
  }

  /// Rate limiting, the value under the privacy setting, then the record.
  @inline(__always)
  private func deliver(
    _ misuse: Misuse, value: @autoclosure () -> Any?, test: String?, writer: inout WriterSlot,
    thread: Int
  ) {
    var suppressed = 0
    if let limiter {
      let key = RateLimiter.Key(
        kind: misuse.kind.code, file: misuse.site.fileID, line: misuse.site.line, test: test)
      let decision = limiter.admit(key) {
        RateLimiter.Pending(misuse: misuse, test: test, writer: writer.text)
      }
      switch decision {
      case .suppress(let scheduleDrain):
        if scheduleDrain { scheduleDrainOfFoldedEvents(after: limiter.limit.interval) }
        return
      case .emit(let folded): suppressed = folded
      }
    }
    let rendered: String?
    if case .private = privacy {
      rendered = value() == nil ? nil : "<private>"
    } else {
      rendered = value().map { privacy.render($0) }
    }
    let writer = writer.text
    identities.withValue(thread) { identity in
      emit(
        misuse, kind: misuse.kind, site: misuse.site, valueType: misuse.valueType,
        value: rendered, test: test, writer: writer, suppressed: suppressed,
        process: identity.process, pid: identity.pid, host: identity.host, run: identity.run)
    }
  }

  /// Writes a record for every rate-limited event still pending, then flushes the sink.
  ///
  /// After `flush()`, the records written stand for every misuse reported: `sum(1 + suppressed)`.
  public func flush() {
    drainFoldedEvents()
    sink.flush()
  }

  /// Writes `event`'s misuse as a record of this pipeline (its run, `seq`, privacy and rate
  /// limit), naming the test that caught it; no policy step follows. How a test's own pipeline
  /// hands what it caught to the process's sinks.
  /// - Parameters:
  ///   - event: A record of another pipeline; its `value`, if any, is rendered again under this
  ///     pipeline's privacy.
  ///   - test: The test's name, for the record's `test` field.
  package func relay(_ event: MisuseEvent, test: String?) {
    guard acceptsEvents, event.level >= minimumLevel else { return }
    var writer = WriterSlot(text: event.writer)
    deliver(
      Misuse(of: event), value: event.value, test: test, writer: &writer,
      thread: ThreadOrdinal.current())
  }

  /// As the process ends (`exit`, a stop signal): writes a record for every rate-limited event
  /// still pending, then has the sink write what is queued and the run's `run-end` after it
  /// (once, and only for a run that made a record), and end its threads, so that no write is
  /// cut short when the process goes. Later misuses are dropped and counted.
  /// - Parameter seconds: How long to wait for the sink.
  package func finishAtProcessEnd(within seconds: Double) {
    drainFoldedEvents()
    let runEnd =
      runRecords.end() && sequence.value > 0
      ? runRecords.record(.runEnd, sequence: sequence, identity: identity) : nil
    sink.finishAtProcessEnd(
      within: seconds, runEnd: acceptsEvents ? runEnd : nil, deliveringFallback: true)
  }

  /// Writes a `run-heartbeat` to the sink when one is due (the flushing thread's timer): once
  /// per heartbeat interval from the run's first misuse record until its end.
  package func writeHeartbeatIfDue() {
    guard acceptsEvents, runRecords.takeDueHeartbeat() else { return }
    sink.receive(runRecords.record(.runHeartbeat, sequence: sequence, identity: identity))
  }

  /// Writes a record for every rate-limited event still pending.
  private func drainFoldedEvents() {
    guard let limiter else { return }
    for (pending, count) in limiter.drain() {
      emit(
        pending.misuse, kind: pending.misuse.kind, site: pending.misuse.site,
        valueType: pending.misuse.valueType, value: nil, test: pending.test,
        writer: pending.writer, suppressed: count - 1, process: identity.process,
        pid: identity.pid, host: identity.host, run: identity.run)
    }
  }

  /// Folded events reach the sink within one rate-limit interval of the first fold, even when
  /// no later misuse of their site comes to carry them.
  private func scheduleDrainOfFoldedEvents(after seconds: Double) {
    DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + seconds) {
      [weak self] in
      self?.drainFoldedEvents()
    }
  }

  /// The record of `misuse`, handed to the sink.
  ///
  /// Not inlined, and given the origin's kind, site and type and the identity's strings as
  /// arguments: so the event borrows every string it holds (from `misuse` and those arguments)
  /// and retains none. Read from `misuse.origin` or from a `ProcessIdentity` in here, or inlined
  /// into the report path, the optimizer built the event, then copied it for the call (every
  /// string retained and released once more, about 600 instructions). The caller hands the
  /// identity's strings from an identity it holds across the call (``Striped/withValue(_:_:)``):
  /// taken from one it let go of first, each string was retained and released.
  @inline(never)
  private func emit(
    _ misuse: Misuse, kind: MisuseKind, site: CallSite, valueType: String, value: String?,
    test: String?, writer: String?, suppressed: Int, process: String, pid: Int, host: String,
    run: String
  ) {
    let seq = sequence.increment()
    // Once per pipeline: a late bootstrap names the site of the process pipeline's first record.
    if seq == 1 { DiagnosticsSystem.noteFirstRecord(of: self, at: site) }
    if suppressed > 0 { runRecords.folded(suppressed) }
    sink.receive(
      MisuseEvent(
        timestamp: .now(), level: misuse.level, kind: kind, message: misuse.message,
        file: site.fileID, line: site.line, function: site.function,
        valueType: valueType, valuePresent: misuse.valuePresent, value: value,
        label: misuse.label, test: test, writer: writer, process: process, pid: pid,
        host: host, run: run, seq: seq,
        suppressed: suppressed))
    // After the record's `ts`: heartbeats are due an interval after this, never before.
    if seq == 1 { runRecords.started(at: site) }
  }
}

extension Diagnostics {
  /// One misuse's ``WriterSite``, found the first time something asks for it.
  ///
  /// A struct the report path passes `inout`, not a closure: a closure's context and its
  /// result's copy cost more than the rest of a record into a sink that drops it.
  struct WriterSlot {
    private enum State {
      /// Not looked up yet.
      case unknown
      /// Looked up on the stack: the writer, or `nil` when unknown.
      case found(WriterSite?)
      /// Named without a stack: a relayed record's `writer`.
      case given(String?)
    }

    private var state: State

    /// A writer found on the stack when first asked for.
    init() {
      state = .unknown
    }

    /// A writer already named: a relayed record's `writer`.
    /// - Parameter text: The record's `writer`.
    init(text: String?) {
      state = .given(text)
    }

    /// The record's `writer`: `Module/File.swift:35`, or `nil` when unknown.
    var text: String? {
      mutating get {
        if case .given(let text) = state { return text }
        return site?.text
      }
    }

    /// The writer: the stack is walked on the first call only. A relayed record's writer is
    /// known by name alone (`nil` here): the stack is the relay's, not the writer's.
    var site: WriterSite? {
      mutating get {
        switch state {
        case .found(let site): return site
        case .given: return nil
        case .unknown:
          let site = WriterCapture.capture()
          state = .found(site)
          return site
        }
      }
    }
  }
}
