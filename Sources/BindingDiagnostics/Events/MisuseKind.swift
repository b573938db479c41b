/// What went wrong: a stable kebab-case code, its journald `MESSAGE_ID` and its default level.
///
/// The built-in kinds have fixed 128-bit message ids that match
/// `config/binding-diagnostics.catalog`. An app defines its own kinds with
/// ``init(code:defaultLevel:)``; their id is derived stably from the code.
public struct MisuseKind: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The kebab-case code written as `kind` (`BINDING_KIND` in journald).
  public let code: String
  /// 32 lowercase hex digits written as `message_id` (`MESSAGE_ID` in journald).
  public let messageID: String
  /// The level reports of this kind get unless the reporter names another.
  public let defaultLevel: MisuseLevel

  /// A `Binding<Bool>` mapped from `Binding<Wrapped?>` was set to `true`: no effect.
  public static let mappedBoolSetTrue = MisuseKind(
    builtIn: "mapped-bool-set-true", messageID: "2b9f53b872d7905613eeb68e53797657", level: .error)
  /// A binding unwrapped from `Binding<Wrapped?>` was read after the optional became `nil`.
  ///
  /// Level `info`: SwiftUI reads a destination's binding while it animates the dismissal that
  /// cleared the optional, so most of these are expected.
  public static let unwrappedReadAfterNil = MisuseKind(
    builtIn: "unwrapped-read-after-nil", messageID: "408dfadb7955002b716d4ab50fbd4491",
    level: .info)
  /// A binding unwrapped from `Binding<Wrapped?>` was written after the optional became `nil`.
  public static let unwrappedWriteAfterNil = MisuseKind(
    builtIn: "unwrapped-write-after-nil", messageID: "bc5fac4ceaa67ee0a9571f1f145acecc",
    level: .warning)
  /// A binding to a collection element, found by its `id`, was read after the element left the
  /// collection; the last value was returned.
  ///
  /// Level `info`: SwiftUI still reads a row's or a detail view's binding while it animates the
  /// removal away, so most of these are expected.
  public static let elementReadAfterRemoval = MisuseKind(
    builtIn: "element-read-after-removal", messageID: "dd247305be2c4d0989f04225e38f18ac",
    level: .info)
  /// A binding to a collection element was written after the element left the collection; the
  /// write was dropped.
  public static let elementWriteAfterRemoval = MisuseKind(
    builtIn: "element-write-after-removal", messageID: "f85acfe97c4c497e9481d236932560ea",
    level: .warning)
  /// A binding made on the main thread was written from another thread. SwiftUI requires state
  /// changes on the main thread ("Publishing changes from background threads is not allowed").
  public static let setOffMainThread = MisuseKind(
    builtIn: "set-off-main-thread", messageID: "225af2e2c84a98d859d1b81a14e0f08e",
    level: .warning)
  /// A write of an `Equatable` value did not stick: reading the binding right after gave another
  /// value (a `.constant`, a setter that drops or redirects the write, a stale copy of the
  /// source).
  public static let writeNotApplied = MisuseKind(
    builtIn: "write-not-applied", messageID: "043e1df79d121894fb520fc6dbb65814", level: .warning)
  /// A write to a binding began while another write to the same binding was still running on the
  /// same thread (a setter or an observer that writes back into its own binding).
  public static let reentrantWrite = MisuseKind(
    builtIn: "reentrant-write", messageID: "1602a1b76db8d6991739f4e08b103e2c", level: .warning)

  /// The kinds this library reports by itself.
  public static let builtIn: [MisuseKind] = [
    .mappedBoolSetTrue, .unwrappedReadAfterNil, .unwrappedWriteAfterNil,
    .elementReadAfterRemoval, .elementWriteAfterRemoval, .setOffMainThread, .writeNotApplied,
    .reentrantWrite,
  ]

  /// A run record written once per heartbeat interval from a run's first misuse record on: the
  /// run is alive, and had handed out `run_records` records so far. Never a misuse event.
  public static let runHeartbeat = MisuseKind(
    builtIn: "run-heartbeat", messageID: "0ce00da9e5601761612af530de3384ae", level: .debug)
  /// A run record written once when the process ends, after its last misuse record: the run is
  /// complete, and records up to `run_records` that a reader never saw were lost. Never a misuse
  /// event.
  public static let runEnd = MisuseKind(
    builtIn: "run-end", messageID: "aeef9f2d799fb34e68598c1cfad41b6a", level: .debug)

  /// The kinds of run records, which readers use to find a run's tail and end and never count
  /// as misuse events.
  public static let runRecordKinds: [MisuseKind] = [.runHeartbeat, .runEnd]

  /// Every kind this package defines: ``builtIn`` and ``runRecordKinds``.
  public static var known: [MisuseKind] { builtIn + runRecordKinds }

  /// Whether this kind is a run record's (`run-heartbeat`, `run-end`).
  public var isRunRecord: Bool {
    code == MisuseKind.runHeartbeat.code || code == MisuseKind.runEnd.code
  }

  private init(builtIn code: String, messageID: String, level: MisuseLevel) {
    self.code = code
    self.messageID = messageID
    self.defaultLevel = level
  }

  /// Defines an application's own kind of misuse.
  ///
  /// The message id is two SipHash-2-4 values of the code under fixed keys, so the same code
  /// gives the same id in every process, on every machine, in every version.
  /// A built-in code returns the built-in kind.
  /// - Parameters:
  ///   - code: Kebab-case: lowercase ASCII letters and digits in words joined by single `-`.
  ///   - defaultLevel: The level reports of this kind get by default.
  /// - Returns: `nil` when `code` is not kebab-case.
  public init?(code: String, defaultLevel: MisuseLevel = .warning) {
    guard MisuseKind.isKebabCase(code) else { return nil }
    if let known = MisuseKind.known.first(where: { $0.code == code }) {
      self = known
      return
    }
    self.code = code
    self.messageID = MisuseKind.derivedMessageID(for: code)
    self.defaultLevel = defaultLevel
  }

  /// A kind as a reader found it: code and id taken as written.
  package init(code: String, messageID: String, defaultLevel: MisuseLevel) {
    self.code = code
    self.messageID = messageID
    self.defaultLevel = defaultLevel
  }

  /// The code.
  public var description: String { code }

  /// Whether `code` is lowercase kebab-case (`[a-z0-9]+(-[a-z0-9]+)*`, at most 64 bytes).
  public static func isKebabCase(_ code: String) -> Bool {
    // Over the string's own bytes where it has them (every code read from a record): iterating
    // the UTF-8 view byte by byte cost about a thousand instructions per code.
    code.utf8.withContiguousStorageIfAvailable { isKebabCase(bytes: $0) }
      ?? isKebabCase(bytes: code.utf8)
  }

  /// ``isKebabCase(_:)`` over the bytes of a code.
  package static func isKebabCase<Bytes: BidirectionalCollection<UInt8>>(bytes: Bytes) -> Bool {
    guard !bytes.isEmpty, bytes.count <= 64, bytes.first != UInt8(ascii: "-"),
      bytes.last != UInt8(ascii: "-")
    else { return false }
    var previousDash = false
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        previousDash = false
      case UInt8(ascii: "-"):
        if previousDash { return false }
        previousDash = true
      default: return false
      }
    }
    return true
  }

  /// The stable id of an app-defined code: SipHash-2-4 under two fixed keys, concatenated.
  static func derivedMessageID(for code: String) -> String {
    let bytes = Array("binding-diagnostics/kind/\(code)".utf8)
    let high = SipHash24.hash(bytes, key: (0x6269_6e64_696e_6764, 0x6961_676e_6f73_7469))
    let low = SipHash24.hash(bytes, key: (0x6d65_7373_6167_655f, 0x6964_5f76_315f_6b69))
    return Hex.fixed64(high) + Hex.fixed64(low)
  }
}
