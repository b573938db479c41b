import Synchronization

/// Sends each event to journald as one entry, through `sd_journal_sendv` from libsystemd.
///
/// Fields follow the contract (`MESSAGE`, `MESSAGE_ID`, `PRIORITY`, `CODE_*`,
/// `SYSLOG_IDENTIFIER`, `BINDING_*`); values travel as raw bytes, newlines included. Where
/// libsystemd or the journal socket is missing, the sink says so once on standard error and
/// hands events to its fallback (standard error by default) instead.
public final class JournaldSink: DiagnosticsSink {
  /// Why the journal is not used, or `nil` when it is.
  public let unavailableReason: String?
  private let fallback: any DiagnosticsSink
  private let socketPath: String
  private let failureSaid = Atomic<Bool>(false)
  private let sentCount = Atomic<Int>(0)
  private let fallbackCount = Atomic<Int>(0)

  /// A journald sink, checking once that libsystemd loads and a journald listens.
  /// - Parameters:
  ///   - socketPath: journald's socket, checked with `connect(2)`; injectable for tests.
  ///   - fallback: Where events go when the journal is unavailable.
  public init(
    socketPath: String = "/run/systemd/journal/socket",
    fallback: any DiagnosticsSink = StandardErrorSink()
  ) {
    self.socketPath = socketPath
    self.fallback = fallback
    switch JournalWriter.availability(socketPath: socketPath) {
    case .success:
      unavailableReason = nil
    case .failure(let error):
      unavailableReason = error.description
      failureSaid.store(true, ordering: .relaxed)
      ConfigurationWarning.emit("journald unavailable: \(error); writing to the fallback sink")
    }
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
  public var sent: Int { sentCount.load(ordering: .relaxed) }

  /// Events handed to the fallback sink so far.
  public var fellBack: Int { fallbackCount.load(ordering: .relaxed) }

  /// Sends the event as one journal entry, or to the fallback sink.
  /// - Parameter event: The event.
  public func receive(_ event: MisuseEvent) {
    if unavailableReason == nil {
      switch JournalWriter.send(JournalFieldsEncoder().fields(event)) {
      case .success:
        sentCount.add(1, ordering: .relaxed)
        return
      case .failure(let error):
        if !failureSaid.exchange(true, ordering: .relaxed) {
          ConfigurationWarning.emit("journald send failed: \(error); writing to the fallback sink")
        }
      }
    }
    fallbackCount.add(1, ordering: .relaxed)
    fallback.receive(event)
  }

  /// Flushes the fallback sink; journald entries are written when `sd_journal_sendv` returns.
  public func flush() {
    fallback.flush()
  }
}

extension DiagnosticsSink where Self == JournaldSink {
  /// A journald sink falling back to standard error; see ``JournaldSink``.
  public static func journald() -> JournaldSink { JournaldSink() }
}
