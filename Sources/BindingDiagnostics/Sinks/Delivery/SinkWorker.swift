/// A bounded queue and the library thread that empties it, shared by the JSON Lines and
/// journald sinks.
///
/// Callers append to one of `shards` queues, each behind its own lock; a thread always uses the
/// same queue (``ThreadOrdinal``), so misusing threads do not contend, and a caller waits only
/// for its queue's lock. The first record into an empty queue wakes the worker: one wake-up per
/// batch. A full queue drops and counts the record (``DropNotice`` says when drops start and
/// stop). Flushes and stops wait a bounded time (a hung filesystem, a stuck journald).
///
/// `@unchecked Sendable`: the queues and the control state are ``Condition``s; `spares` and
/// `completed` belong to the worker thread (or, when it is not running, to the caller holding
/// `control`'s lock).
final class SinkWorker<Delivery: SinkDelivery>: @unchecked Sendable {
  typealias Batch = Delivery.Batch

  /// How the worker queues and wakes.
  struct Configuration {
    /// The thread's name.
    var threadName: String
    /// The sink's name in the drop lines, with any identifying `key=value` pairs after it.
    var noticeName: [UInt8]
    /// Records a queue holds before new ones are dropped and counted.
    var capacity: Int
    /// Queues callers are spread over; threads beyond this many share them.
    var shards = 1
    /// Whether records being delivered still count against the capacity.
    var capacityCountsInFlight = false
    /// How long the worker lets records gather after it wakes from idle (0: not at all).
    var gatherNanoseconds: UInt64 = 0
    /// Deliver on the caller's thread, under the worker's lock, instead of a thread.
    var synchronous = false
    /// Whether a delivery step the end of the process cuts short tears a record (a `write(2)`
    /// to a file or pipe: the end waits for it, ``WriteGate``), or not (a datagram).
    var stepsCanTear = true
  }

  /// How ``finish(within:last:)`` ended, when it has something to say.
  enum Ending: Equatable {
    /// A delivery step was still under way after the whole time.
    case stuck
    /// Records were left undelivered: those delivered, and every other one received.
    case account(delivered: Int, dropped: Int)
  }

  /// One queue callers append to.
  private struct Queue {
    var batch = Batch()
    /// Records the worker took and is delivering (kept only with `capacityCountsInFlight`).
    var inFlight = 0
    var accepted = 0
    /// Records dropped because this queue was full.
    var dropped = 0
    var notice = DropNotice()
    /// Keeps the next queue's state off this one's cache line.
    private let padding = CacheLinePadding()
  }

  /// What the worker and the callers that wait for it share.
  private struct Control {
    /// A caller found its queue empty and appended: the worker has a batch to take.
    var pending = false
    var flushRequested: UInt64 = 0
    var flushCompleted: UInt64 = 0
    var stopping = false
    var running = false
    /// Past its time to stop: drop what is queued (counted) and deliver only `last`.
    var abandoning = false
    /// The record to deliver after every other as the worker stops; taken once, by whoever
    /// delivers it (or gives up on it).
    var last: (() -> Batch.Element)?
    /// Whether `last` was delivered.
    var deliveredLast = false

    var hasWork: Bool { pending || flushRequested != flushCompleted || stopping }
  }

  /// Delivery steps under way, for ``finish(within:last:)``.
  private struct Gate {
    var delivering = false
    var halted = false
    /// Only the last record's steps run (``Control/abandoning``).
    var abandoning = false
    var haltWaiting = false
    /// Records delivered through the gate.
    var delivered = 0
  }

  /// What the records are delivered to.
  let delivery: Delivery
  private let configuration: Configuration
  private let queues: Striped<Condition<Queue>>
  private let control = Condition(Control())
  private let gate = Condition(Gate())
  /// Set once ``stop(within:last:)`` closed the queues: later records are dropped.
  private let closed = Latch()
  /// Records dropped because the queues were closed.
  private let droppedClosed = Counter()
  /// Records a synchronous worker dropped after it stopped.
  private let droppedStopped = Counter()
  /// Records dropped from the queues, undelivered, because the worker ran out of time to stop.
  private let droppedAbandoned = Counter()
  /// Whether the step under way delivers the last record (the deliverer's own: one at a time).
  private var deliveringLast = false
  /// What the worker swaps each queue's batch with, one per queue.
  private var spares: [Batch]
  /// The flush ticket the worker completed last.
  private var completed: UInt64 = 0

  /// A worker; ``start()`` starts its thread.
  /// - Parameters:
  ///   - delivery: What batches are handed to.
  ///   - configuration: Queues, bounds, mode.
  init(delivering delivery: Delivery, _ configuration: Configuration) {
    self.delivery = delivery
    var configuration = configuration
    configuration.capacity = max(1, configuration.capacity)
    self.configuration = configuration
    queues = Striped(count: configuration.shards) { Condition(Queue()) }
    spares = (0..<configuration.shards).map { _ in Batch() }
  }

  /// Starts the worker thread.
  func start() {
    // What the worker's idle wake-up runs, made here first (see ``anyQueueHolds(_:)``).
    _ = anyQueueHolds(1)
    control.withLock { $0.running = true }
    LibraryThread.start(name: configuration.threadName) { [self] in self.run() }
  }

  /// Appends `element` to the calling thread's queue (or, synchronously, delivers it); drops and
  /// counts it when that queue is full. The caller waits for its queue's lock only, and wakes
  /// the worker at most once per batch.
  func submit(_ element: Batch.Element) {
    if configuration.synchronous {
      control.withLock { control in
        guard !control.stopping else {
          droppedStopped.increment()
          return
        }
        spares[0].removeAll()
        spares[0].append(element)
        delivery.deliver(spares[0], fromShard: 0, worker: self)
        spares[0].removeAll()
      }
      return
    }
    // Ending (the process goes, or the sink): counted, without waiting for the queue's lock
    // (misusing threads would keep the worker and the ending thread from it).
    if closed.isSet {
      droppedClosed.increment()
      return
    }
    let capacity = configuration.capacity
    let inFlight = configuration.capacityCountsInFlight
    let (wake, change) = queues[ThreadOrdinal.current()].withLock {
      queue -> (Bool, DropNotice.Change?) in
      if queue.batch.count + (inFlight ? queue.inFlight : 0) < capacity {
        let wake = queue.batch.count == 0
        queue.batch.append(element)
        queue.accepted += 1
        return (wake, queue.notice.accepted(now: MonotonicClock.nanoseconds()))
      }
      queue.dropped += 1
      return (false, queue.notice.dropped(now: MonotonicClock.nanoseconds()))
    }
    if wake {
      control.withLock { $0.pending = true }
      control.signal()
    }
    if let change { DropNotice.say(change, sink: configuration.noticeName, capacity: capacity) }
  }

  /// Waits until every record submitted before the call was delivered, then
  /// ``SinkDelivery/flushed()``; at most `seconds` for a worker thread. Without a running
  /// thread the caller delivers what is queued itself.
  /// - Parameter seconds: How long to wait for the worker.
  /// - Returns: Whether everything was delivered in time.
  @discardableResult
  func flush(within seconds: Double) -> Bool {
    let ticket = control.withLock { control -> UInt64? in
      guard configuration.synchronous || !control.running else {
        control.flushRequested += 1
        return control.flushRequested
      }
      for index in 0..<configuration.shards where take(index) {
        deliverTaken(index)
      }
      delivery.flushed()
      return nil
    }
    guard let ticket else { return true }
    control.broadcast()
    return control.withLock(
      when: { $0.flushCompleted >= ticket || !$0.running }, before: deadline(seconds)
    ) { _, wait in wait.ready }
  }

  /// Closes the queues (records received later are dropped and counted), lets the worker
  /// deliver what they hold, then `last` if given, and ends its thread; then
  /// ``SinkDelivery/stopped()``.
  /// - Parameters:
  ///   - seconds: How long to wait for the worker.
  ///   - last: Makes the record delivered after every other, when it is delivered.
  /// - Returns: Whether the worker is still running (stuck, or slower than `seconds`).
  @discardableResult
  func stop(within seconds: Double, last: (() -> Batch.Element)? = nil) -> Bool {
    closed.set()
    let threaded = control.withLock { control -> Bool in
      control.stopping = true
      guard control.running else {
        // No thread (synchronous, or it never started): what is queued, and the last, here.
        for index in 0..<configuration.shards where take(index) { deliverTaken(index) }
        if let last {
          deliverLast(last)
          control.deliveredLast = true
        }
        return false
      }
      control.last = last
      return true
    }
    if threaded { control.broadcast() }
    return control.withLock(when: { !$0.running }, before: deadline(seconds)) { control, _ in
      guard !control.running else { return true }
      delivery.stopped()
      return false
    }
  }

  /// Ends the worker as the process ends (`exit`, a stop signal), so that no delivery step
  /// (``unlessHalted(_:)``) is under way when the process goes: the kernel cuts a write to a
  /// regular file short when the process is killed, tearing a record. The queues are closed
  /// and delivered, then `last`, for three fifths of `seconds`; a worker still at work by then
  /// drops what is queued (counted) and delivers `last` only, for one fifth more; one still at
  /// work after that is halted once its current step returns.
  /// - Parameters:
  ///   - seconds: How long the process may wait.
  ///   - last: Makes the record delivered after every other (the run's `run-end`), when it is
  ///     delivered.
  /// - Returns: `nil` when everything received was delivered; otherwise what to say.
  func finish(within seconds: Double, last: (() -> Batch.Element)? = nil) -> Ending? {
    var stuck = stop(within: seconds * 3 / 5, last: last)
    if stuck {
      control.withLock { $0.abandoning = true }
      gate.withLock { $0.abandoning = true }
      control.broadcast()
      stuck = control.withLock(when: { !$0.running }, before: deadline(seconds / 5)) {
        control, _ in
        guard !control.running else { return true }
        delivery.stopped()
        return false
      }
    }
    if stuck {
      gate.withLock { $0.haltWaiting = true }
      let halted = gate.withLock(when: { !$0.delivering }, before: deadline(seconds / 5)) {
        gate, wait in
        if wait.ready { gate.halted = true }
        return wait.ready
      }
      guard halted else { return .stuck }
    }
    // One reading of the closed-sink drops serves both the decision and the account, so a
    // record dropped in between cannot make a line that says `dropped=0`.
    let droppedAfterClose = droppedClosed.value
    let abandoned = droppedAbandoned.value
    guard stuck || droppedAfterClose > 0 || abandoned > 0 else { return nil }
    var received = droppedAfterClose
    for queue in queues.all { received += queue.withLock { $0.accepted + $0.dropped } }
    let delivered = gate.withLock { $0.delivered }
    return .account(delivered: delivered, dropped: received - delivered)
  }

  /// Takes back the last record ``finish(within:last:)`` was given, when the worker has not
  /// taken it (it is stuck): the caller delivers it elsewhere, or not at all.
  /// - Returns: What makes the last record, or `nil` when the worker took it.
  func takeBackLast() -> (() -> Batch.Element)? {
    control.withLock { control in
      defer { control.last = nil }
      return control.last
    }
  }

  /// Whether the last record given to ``stop(within:last:)`` was handed to the delivery.
  var deliveredLast: Bool { control.withLock { $0.deliveredLast } }

  /// Runs `step`, one delivery step the end of the process must not cut short (a `write(2)`),
  /// unless ``finish(within:)`` halted the worker.
  /// - Parameter step: Delivers, and returns how many records it delivered.
  /// - Returns: Whether `step` ran.
  func unlessHalted(_ step: () -> Int) -> Bool {
    let last = deliveringLast
    let open = gate.withLock { gate -> Bool in
      guard !gate.halted, !gate.abandoning || last else { return false }
      gate.delivering = true
      return true
    }
    guard open else { return false }
    // The very end of the process (``WriteGate``) waits for this step, or refuses it.
    let gated = configuration.stepsCanTear
    let admitted = !gated || WriteGate.enter()
    let delivered = admitted ? step() : 0
    if admitted && gated { WriteGate.leave() }
    let wake = gate.withLock { gate -> Bool in
      gate.delivering = false
      gate.delivered += delivered
      return gate.haltWaiting
    }
    if wake { gate.broadcast() }
    return admitted
  }

  /// Tells the worker that `count` records taken from queue `shard` left it (they no longer
  /// count against the capacity, nor in ``backlog``).
  func delivered(_ count: Int, fromShard shard: Int) {
    queues[shard].withLock { $0.inFlight -= count }
  }

  /// Records dropped: queues full, or closed, or abandoned as the process ended.
  var dropped: Int {
    var total = droppedClosed.value + droppedStopped.value + droppedAbandoned.value
    for queue in queues.all { total += queue.withLock { $0.dropped } }
    return total
  }

  /// Records waiting or being delivered.
  var backlog: Int {
    var total = 0
    for queue in queues.all { total += queue.withLock { $0.batch.count + $0.inFlight } }
    return total
  }

  private func deadline(_ seconds: Double) -> UInt64 {
    MonotonicClock.nanoseconds() &+ UInt64(max(0, seconds) * 1e9)
  }

  /// Swaps queue `index`'s batch with its spare. Only the worker calls it.
  /// - Returns: Whether the batch taken holds records.
  private func take(_ index: Int) -> Bool {
    let inFlight = configuration.capacityCountsInFlight
    queues[index].withLock { queue in
      swap(&queue.batch, &spares[index])
      if inFlight { queue.inFlight = spares[index].count }
    }
    return spares[index].count > 0
  }

  /// Delivers the batch ``take(_:)`` took from queue `index`, then empties it.
  private func deliverTaken(_ index: Int) {
    delivery.deliver(spares[index], fromShard: index, worker: self)
    spares[index].removeAll()
    if configuration.capacityCountsInFlight { queues[index].withLock { $0.inFlight = 0 } }
  }

  /// Delivers the last record, made now, as a batch of its own; the caller is the deliverer
  /// (the worker thread, or the caller holding `control`'s lock when there is none).
  private func deliverLast(_ last: () -> Batch.Element) {
    let inFlight = configuration.capacityCountsInFlight
    spares[0].removeAll()
    spares[0].append(last())
    queues[0].withLock { queue in
      queue.accepted += 1
      if inFlight { queue.inFlight += 1 }
    }
    deliveringLast = true
    delivery.deliver(spares[0], fromShard: 0, worker: self)
    deliveringLast = false
    spares[0].removeAll()
    if inFlight { queues[0].withLock { $0.inFlight = 0 } }
  }

  /// Drops what the queues hold, undelivered and counted (``Control/abandoning``).
  private func abandonQueued() {
    for index in 0..<configuration.shards where take(index) {
      droppedAbandoned.increment(by: spares[index].count)
      spares[index].removeAll()
      if configuration.capacityCountsInFlight { queues[index].withLock { $0.inFlight = 0 } }
    }
  }

  /// Whether any queue holds at least `count` records.
  ///
  /// By index, not through `queues.all.contains`: that instantiated `Array`'s `Sequence`
  /// witness table on the worker's first idle wake-up, under the runtime's lock, and a parent
  /// forking at that moment left its child's worker waiting for the lock for ever (gdb, one
  /// child in about 15 of `misuse-helper 3 --fork 2`). ``start()`` also calls it once, on the
  /// starting thread.
  private func anyQueueHolds(_ count: Int) -> Bool {
    var index = 0
    while index < configuration.shards {
      if queues[index].withLock({ $0.batch.count >= count }) { return true }
      index += 1
    }
    return false
  }

  private func run() {
    StopSignals.blockOnCallingThread()
    let gather = configuration.gatherNanoseconds
    while true {
      let idled = control.withLock(when: \.hasWork, waitingForWork: true) { _, wait in
        wait.waited
      }
      // Woken from idle: let a burst gather (a flush or stop request cuts the wait short). Not
      // after a batch when records are already waiting: they gathered while it was delivered,
      // and a worker that sleeps on a loaded machine may not run again for tens of milliseconds.
      if idled && gather > 0 && !anyQueueHolds(max(1, configuration.capacity / 2)) {
        control.withLock(
          when: { $0.flushRequested != $0.flushCompleted || $0.stopping },
          before: MonotonicClock.nanoseconds() &+ gather
        ) { _, _ in }
      }
      let (ticket, stop, abandoning) = control.withLock { control in
        control.pending = false
        return (control.flushRequested, control.stopping, control.abandoning)
      }
      // Deliver with the lock released, so callers only ever wait for their queue's lock.
      if abandoning {
        abandonQueued()
      } else {
        for index in 0..<configuration.shards where take(index) {
          deliverTaken(index)
        }
      }
      if ticket != completed { delivery.flushed() }
      completed = ticket
      control.withLock { $0.flushCompleted = ticket }
      control.broadcast()
      if stop && !anyQueueHolds(1) {
        if let last = control.withLock({ control in
          defer { control.last = nil }
          return control.last
        }) {
          deliverLast(last)
          control.withLock { $0.deliveredLast = true }
        }
        break
      }
    }
    control.withLock { $0.running = false }
    control.broadcast()
  }
}
