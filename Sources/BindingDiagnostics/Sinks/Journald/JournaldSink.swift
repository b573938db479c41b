/// Sends each event to journald as one entry, through `sd_journal_sendv` from libsystemd.
///
/// Fields follow the contract (`MESSAGE`, `MESSAGE_ID`, `PRIORITY`, `CODE_*`,
/// `SYSLOG_IDENTIFIER`, `BINDING_*`); values travel as raw bytes, newlines included.
///
/// The app's thread never waits for journald: events go through a bounded queue to a sending
/// thread. When journald stops reading (its queue full, the daemon stuck), the queue fills and
/// further events are dropped and counted (``dropped``), with one line on standard error when
/// drops start and one when they stop. Where libsystemd or the journal socket is missing, or
/// journald later refuses an entry, the sink says so once on standard error and hands events to
/// its fallback (standard error by default) instead; when journald takes entries again (it was
/// restarted, or started after the app), the sink says so in one line, with how many went to
/// the fallback meanwhile. `sd_journal_sendv` returns 0 (the entry lost) when journald's socket
/// file is missing (journald stopped and its socket removed), so the sending thread checks the
/// socket path (`stat(2)`) before each entry: a missing socket is a refusal like any other,
/// the entry going to the fallback. A journald missing at start is looked for again on the retry
/// schedule of the file sink (100 ms doubling to 5 s), by a `connect(2)` that never waits, as
/// events come; libsystemd missing is for good.
///
/// As the process ends, the sink gives journald half the exit deadline to take what is queued,
/// then the run's `run-end`. When journald does not take them in time (stopped, stuck), the
/// queued entries are lost: the sink says so in one line with what was sent and dropped, and
/// writes the `run-end` to its fallback, so that a reader sees the run's last `seq` there.
public final class JournaldSink: DiagnosticsSink {
  /// Why the journal is not used, or `nil` when it is: the reason found at start, until a
  /// journald that was not listening then is found listening.
  public var unavailableReason: String? { sending.isSet ? nil : startReason }
  /// The sink events go to when journald cannot take them.
  public let fallback: any DiagnosticsSink
  /// How long ``flush()`` waits for queued entries to reach journald, in seconds.
  public let flushTimeout: Double
  /// What ``unavailableReason`` says until events go to journald.
  private let startReason: String?
  /// The queue and sending thread, or `nil` when libsystemd is unavailable; its thread starts
  /// when journald listens (at once, or once a journald missing at start is found).
  private let sender: SinkWorker<Delivery>?
  /// Set once ``sender``'s thread runs: events go to journald.
  private let sending = Latch()
  /// journald looked for again, when its socket was missing (or refusing) at start.
  private let arrival: JournalArrival?
  private let delivery: Delivery
  /// What ``init(socketPath:fallback:queueCapacity:flushTimeout:)`` was given, for a forked
  /// child's sink of its own.
  private let socketPath: String
  private let queueCapacity: Int

  /// What the sending thread does, and the counters it shares with the sink.
  ///
  /// `sd_journal_sendv` blocks while journald's datagram queue is full, and a journald that
  /// accepts but never reads keeps it full for ever. So the app's thread only enqueues the
  /// event; the sending thread sends, and hands an event journald refused (journald gone) to
  /// the fallback sink.
  private final class Delivery: SinkDelivery {
    /// Queued events, each with whether its fallback delivery is wanted.
    struct Entries: SinkBatch {
      var items: [(event: MisuseEvent, deliverFallback: Bool)] = []
      var count: Int { items.count }
      mutating func append(_ item: (event: MisuseEvent, deliverFallback: Bool)) {
        items.append(item)
      }
      mutating func removeAll() { items.removeAll(keepingCapacity: true) }
    }

    let fallback: any DiagnosticsSink
    /// journald's socket, checked before each entry (``JournalWriter/send(_:socketPath:)``).
    let socketPath: String
    /// Set once a slow flush was said: only the first says it.
    let slowSaid = Latch()
    let fellBack = Counter()
    let sent = Counter()
    /// Set by the first entry journald refuses, unset by the first it takes again: an episode,
    /// said once when it starts and once when it ends. Only the deliverer (one thread at a time,
    /// handed over under the worker's lock) sets, reads and resets it, so the latch's ordering
    /// is not what keeps it right; it is a latch, not a count, because it is a flag.
    let refusing = Latch()
    /// Entries handed to the fallback in the episode under way: changed by the deliverer, and
    /// by the sink while journald, missing at start, has not been found (the deliverer starts
    /// after that).
    let fellBackInEpisode = Counter()
    /// Entries dropped undelivered because the process was ending and their time was up.
    let abandoned = Counter()

    init(fallback: any DiagnosticsSink, socketPath: String) {
      self.fallback = fallback
      self.socketPath = socketPath
    }

    func deliver(_ batch: Entries, fromShard shard: Int, worker: SinkWorker<Delivery>) {
      for (index, item) in batch.items.enumerated() {
        var result = Result<Void, JournalError>.success(())
        // A step the end of the process may refuse (its time is up): the rest is dropped.
        let ran = worker.unlessHalted {
          result = JournalWriter.send(
            JournalFieldsEncoder().fields(item.event), socketPath: socketPath)
          return 1
        }
        guard ran else {
          let rest = batch.items.count - index
          abandoned.increment(by: rest)
          worker.delivered(rest, fromShard: shard)
          return
        }
        switch result {
        case .success: accepted()
        case .failure(let error): refused(item.event, error, deliverFallback: item.deliverFallback)
        }
        // Counted entry by entry, so a flush that gives up reports exactly what got through.
        worker.delivered(1, fromShard: shard)
      }
    }

    func flushed() {}
    func stopped() {}

    /// Counts an entry journald took; the first after refusals says journald is back.
    private func accepted() {
      sent.increment()
      guard refusing.isSet else { return }
      refusing.reset()
      let meanwhile = fellBackInEpisode.value
      fellBackInEpisode.reset()
      var line = Array("binding-diagnostics: sink=journald fell_back=".utf8)
      line.appendDecimal(meanwhile)
      line.append(contentsOf: " action=\"recovered\"\n".utf8)
      ConfigurationWarning.write(line)
    }

    /// Says the first refusal of an episode, and hands the event to the fallback sink.
    func refused(_ event: MisuseEvent, _ error: JournalError, deliverFallback: Bool) {
      fellBackInEpisode.increment()
      if refusing.set() {
        ConfigurationWarning.emit("journald send failed: \(error); writing to the fallback sink")
      }
      fellBack.increment()
      if deliverFallback { fallback.receive(event) }
    }
  }

  /// A journald sink, checking that libsystemd loads and a journald listens; a journald that
  /// does not is looked for again as events come (``JournaldSink``).
  /// - Parameters:
  ///   - socketPath: journald's socket, checked with `connect(2)`; injectable for tests.
  ///   - fallback: Where events go when the journal is unavailable.
  ///   - queueCapacity: Events waiting for journald before new ones are dropped and counted
  ///     (configuration: `journald_queue`); what may be lost when the process ends while
  ///     journald does not read.
  ///   - flushTimeout: How long ``flush()`` waits for journald, in seconds.
  public init(
    socketPath: String = "/run/systemd/journal/socket",
    fallback: any DiagnosticsSink = StandardErrorSink(),
    queueCapacity: Int = 8192, flushTimeout: Double = 0.5
  ) {
    self.fallback = fallback
    self.flushTimeout = flushTimeout
    self.socketPath = socketPath
    self.queueCapacity = queueCapacity
    let delivery = Delivery(fallback: fallback, socketPath: socketPath)
    self.delivery = delivery
    let availability = JournalWriter.availability(socketPath: socketPath)
    if case .failure(.libraryUnavailable) = availability {
      sender = nil
    } else {
      sender = SinkWorker(
        delivering: delivery,
        .init(
          threadName: "bindiag.journal", noticeName: Array("journald".utf8),
          capacity: queueCapacity, capacityCountsInFlight: true, stepsCanTear: false))
    }
    switch availability {
    case .success:
      startReason = nil
      arrival = nil
      sender?.start()
      sending.set()
    case .failure(let error):
      startReason = error.description
      if case .socketUnavailable = error {
        arrival = JournalArrival(socketPath: socketPath, failedAt: MonotonicClock.nanoseconds())
        // An episode of the fallback from the start: the first entry journald takes says so.
        delivery.refusing.set()
      } else {
        arrival = nil
      }
      ConfigurationWarning.emit("journald unavailable: \(error); writing to the fallback sink")
    }
  }

  deinit {
    activeSender?.stop(within: flushTimeout)
  }

  /// ``sender`` once its thread runs, `nil` before.
  private var activeSender: SinkWorker<Delivery>? { sending.isSet ? sender : nil }

  /// ``sender`` when events go to journald; while a journald missing at start has not been
  /// found, a probe when one is due, the thread that finds it starting the sending thread.
  private func senderFindingJournald() -> SinkWorker<Delivery>? {
    if let activeSender { return activeSender }
    guard let sender, let arrival,
      arrival.listens(onArrival: {
        sender.start()
        sending.set()
      })
    else { return nil }
    return sender
  }

  /// Why a journald sink would be unavailable here, or `nil` when libsystemd loads and a
  /// journald listens; says nothing on standard error.
  /// - Parameter socketPath: journald's socket.
  public static func unavailability(socketPath: String = "/run/systemd/journal/socket") -> String? {
    switch JournalWriter.availability(socketPath: socketPath) {
    case .success: nil
    case .failure(let error): error.description
    }
  }

  /// Whether events reach journald.
  public var isAvailable: Bool { unavailableReason == nil }

  /// Entries journald accepted so far.
  public var sent: Int { delivery.sent.value }

  /// Events dropped: the queue to journald was full, or the process ended before journald took
  /// them.
  public var dropped: Int { (sender?.dropped ?? 0) + delivery.abandoned.value }

  /// Events waiting for journald (queued, or being sent).
  public var queued: Int { activeSender?.backlog ?? 0 }

  /// Events handed to the fallback sink so far.
  public var fellBack: Int { delivery.fellBack.value }

  /// Queues the event for journald, or hands it to the fallback sink when journald is
  /// unavailable (looking for a journald missing at start when a try is due).
  /// - Parameter event: The event.
  public func receive(_ event: MisuseEvent) {
    receive(event, deliveringFallback: true)
  }

  /// Queues the event for journald; the event goes to the fallback sink (when journald is
  /// unavailable, or refuses it) only if `deliveringFallback`, and is counted in ``fellBack``
  /// either way.
  /// - Parameters:
  ///   - event: The event.
  ///   - deliveringFallback: Whether the fallback sink, if used, receives the event.
  public func receive(_ event: MisuseEvent, deliveringFallback: Bool) {
    let event = event.carriesRunCounts ? event.stampedUnlessSet(dropped: dropped) : event
    if let sender = senderFindingJournald() {
      sender.submit((event, deliveringFallback))
    } else {
      delivery.fellBack.increment()
      if arrival != nil { delivery.fellBackInEpisode.increment() }
      if deliveringFallback { fallback.receive(event) }
    }
  }

  /// The fallback sink's own ``DiagnosticsSink/destination``: journald may refuse entries at
  /// any time.
  public var fallbackDestination: SinkDestination? { fallback.destination }

  /// Waits until the events received before the call reached journald, for at most
  /// ``flushTimeout`` seconds (a journald that stopped reading is said once on standard
  /// error), then flushes the fallback sink.
  public func flush() {
    if let sender = activeSender, !sender.flush(within: flushTimeout), delivery.slowSaid.set() {
      ConfigurationWarning.emit(
        "journald did not take \(sender.backlog) queued entries within \(flushTimeout) s "
          + "(sent \(sent), dropped \(dropped) so far); is journald reading?")
    }
    fallback.flush()
  }
}

extension JournaldSink {
  /// A sink with the same settings, its own sending thread and the fallback's own renewal, for
  /// a forked child.
  /// - Returns: The child's sink.
  public func renewedAfterFork() -> any DiagnosticsSink {
    JournaldSink(
      socketPath: socketPath, fallback: fallback.renewedAfterFork(),
      queueCapacity: queueCapacity, flushTimeout: flushTimeout)
  }

  /// Gives journald half of `seconds` to take what is queued and `runEnd`; when it does not,
  /// says what was lost and writes `runEnd` to the fallback (when `deliveringFallback`: a
  /// fan-out whose own standard-error sink writes the run's `run-end` there does not).
  /// - Parameters:
  ///   - seconds: How long the sink may take: half for journald, half for the fallback.
  ///   - runEnd: The run's `run-end` record, if it writes one.
  ///   - deliveringFallback: Whether the fallback receives `runEnd` when journald cannot.
  public func finishAtProcessEnd(
    within seconds: Double, runEnd: MisuseEvent?, deliveringFallback: Bool
  ) {
    guard let sender = activeSender else {
      if deliveringFallback {
        fallback.finishAtProcessEnd(within: seconds, runEnd: runEnd, deliveringFallback: true)
      } else {
        fallback.flush()
      }
      return
    }
    let last = runEnd.map { runEnd in
      { [self] in (runEnd.stamped(dropped: dropped), deliveringFallback) }
    }
    _ = sender.finish(within: seconds / 2, last: last)
    let lost = sender.backlog
    if let last = sender.takeBackLast() {
      // journald never took the queue: the run's end goes where the reader can still see it.
      let (event, deliver) = last()
      if deliver { fallback.receive(event.stamped(dropped: dropped + lost)) }
    }
    if lost > 0 {
      var line = Array("binding-diagnostics: sink=journald sent=".utf8)
      line.appendDecimal(sent)
      line.append(contentsOf: " dropped=".utf8)
      line.appendDecimal(dropped + lost)
      line.append(contentsOf: " action=\"process ending; journald did not take the queue\"\n".utf8)
      ConfigurationWarning.write(line)
    }
    fallback.finishAtProcessEnd(within: seconds / 2, runEnd: nil, deliveringFallback: true)
  }
}

extension DiagnosticsSink where Self == JournaldSink {
  /// A journald sink falling back to standard error; see ``JournaldSink``.
  public static func journald() -> JournaldSink { JournaldSink() }
}
