import Foundation

/// The bounded queue and sending thread behind ``JournaldSink``.
///
/// `sd_journal_sendv` blocks while journald's datagram queue is full, and a journald that
/// accepts but never reads keeps it full for ever. So the app's thread only enqueues the event
/// (one short lock); a dedicated thread sends. When the queue is full the event is dropped and
/// counted, with one line on standard error when drops start and one when they stop.
///
/// `@unchecked Sendable`: every mutable property is read and written only while `condition` is
/// locked; the sending thread releases the lock while it sends a batch it took out of `queue`.
final class JournalSender: @unchecked Sendable {
  /// What the sending thread does with an event journald refused (journald gone), and whether
  /// that event is to be handed to the fallback sink.
  typealias Refused = @Sendable (MisuseEvent, JournalError, _ deliverFallback: Bool) -> Void

  /// A queued event and whether its fallback delivery is wanted.
  private struct Item {
    let event: MisuseEvent
    let deliverFallback: Bool
  }

  private let capacity: Int
  private let refused: Refused
  private let condition = NSCondition()
  private var queue: [Item] = []
  private var sendingCount = 0
  private var enqueued: UInt64 = 0
  private var finished: UInt64 = 0
  private var stopping = false
  private var running = false
  private var idle = false
  private var notice = DropNotice()
  private(set) var sent = 0
  private(set) var dropped = 0

  init(capacity: Int, refused: @escaping Refused) {
    self.capacity = max(1, capacity)
    self.refused = refused
    queue.reserveCapacity(min(self.capacity, 1024))
  }

  func start() {
    condition.lock()
    running = true
    condition.unlock()
    LibraryThread.start(name: "bindiag.journal") { [self] in self.run() }
  }

  /// Enqueues `event`, or drops and counts it when the queue is full. Never waits for journald.
  func submit(_ event: MisuseEvent, deliverFallback: Bool) {
    condition.lock()
    let change: DropNotice.Change?
    if queue.count + sendingCount < capacity && !stopping {
      queue.append(Item(event: event, deliverFallback: deliverFallback))
      enqueued += 1
      change = notice.accepted(now: RateLimiter.monotonicNanoseconds())
      if idle {
        idle = false
        condition.signal()
      }
    } else {
      dropped += 1
      change = notice.dropped(now: RateLimiter.monotonicNanoseconds())
    }
    condition.unlock()
    if let change { DropNotice.say(change, sink: Array("journald".utf8), capacity: capacity) }
  }

  /// Waits until every event enqueued before the call was sent (or refused), for at most
  /// `timeout` seconds.
  /// - Returns: Whether everything was sent in time.
  @discardableResult
  func flush(timeout: Double) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    let ticket = enqueued
    while finished < ticket && running {
      if !condition.wait(until: deadline) { return finished >= ticket }
    }
    return true
  }

  /// Events waiting or being sent.
  var backlog: Int {
    condition.lock()
    defer { condition.unlock() }
    return queue.count + sendingCount
  }

  var counts: (sent: Int, dropped: Int) {
    condition.lock()
    defer { condition.unlock() }
    return (sent, dropped)
  }

  /// Asks the thread to send what is queued and end; waits at most `timeout` seconds (a stuck
  /// journald keeps the thread in `sd_journal_sendv`, which then ends with the process).
  func stop(timeout: Double) {
    condition.lock()
    stopping = true
    condition.broadcast()
    let deadline = Date(timeIntervalSinceNow: timeout)
    while running {
      if !condition.wait(until: deadline) { break }
    }
    condition.unlock()
  }

  private func run() {
    ProcessFlush.blockStopSignals()
    var batch: [Item] = []
    condition.lock()
    while true {
      while queue.isEmpty && !stopping {
        idle = true
        LibraryThread.waiting { condition.wait() }
      }
      if queue.isEmpty && stopping { break }
      swap(&queue, &batch)
      sendingCount = batch.count
      condition.unlock()
      for item in batch {
        let outcome = JournalWriter.send(JournalFieldsEncoder().fields(item.event))
        if case .failure(let error) = outcome { refused(item.event, error, item.deliverFallback) }
        // Counted entry by entry, so a flush that gives up reports exactly what got through.
        condition.lock()
        if case .success = outcome { sent += 1 }
        sendingCount -= 1
        finished += 1
        condition.broadcast()
        condition.unlock()
      }
      batch.removeAll(keepingCapacity: true)
      condition.lock()
    }
    running = false
    condition.broadcast()
    condition.unlock()
  }
}
