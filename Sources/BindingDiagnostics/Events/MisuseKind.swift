/// What went wrong: a stable kebab-case code, its journald `MESSAGE_ID` and its default level.
///
/// The built-in kinds are rows of one table (`KindTable+Rows.swift`): code, fixed 128-bit message
/// id, default level and the journald catalog's text (`config/binding-diagnostics.catalog`).
/// An app defines its own kinds with ``init(code:defaultLevel:)``; their id is derived stably
/// from the code.
public struct MisuseKind: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The kebab-case code written as `kind` (`BINDING_KIND` in journald).
  public let code: String
  /// 32 lowercase hex digits written as `message_id` (`MESSAGE_ID` in journald).
  public let messageID: String
  /// The level reports of this kind get unless the reporter names another.
  public let defaultLevel: MisuseLevel

  /// A `Binding<Bool>` mapped from `Binding<Wrapped?>` was set to `true`: no effect.
  public static let mappedBoolSetTrue = MisuseKind(builtIn: "mapped-bool-set-true")
  /// A binding unwrapped from `Binding<Wrapped?>` was read after the optional became `nil`.
  ///
  /// Level `info`: SwiftUI reads a destination's binding while it animates the dismissal that
  /// cleared the optional, so most of these are expected.
  public static let unwrappedReadAfterNil = MisuseKind(builtIn: "unwrapped-read-after-nil")
  /// A binding unwrapped from `Binding<Wrapped?>` was written after the optional became `nil`.
  public static let unwrappedWriteAfterNil = MisuseKind(builtIn: "unwrapped-write-after-nil")
  /// A binding to a collection element, found by its `id`, was read after the element left the
  /// collection; the last value was returned.
  ///
  /// Level `info`: SwiftUI still reads a row's or a detail view's binding while it animates the
  /// removal away, so most of these are expected.
  public static let elementReadAfterRemoval = MisuseKind(builtIn: "element-read-after-removal")
  /// A binding to a collection element was written after the element left the collection; the
  /// write was dropped.
  public static let elementWriteAfterRemoval = MisuseKind(builtIn: "element-write-after-removal")
  /// A binding made on the main thread was written from another thread. SwiftUI requires state
  /// changes on the main thread ("Publishing changes from background threads is not allowed").
  public static let setOffMainThread = MisuseKind(builtIn: "set-off-main-thread")
  /// A write of an `Equatable` value did not stick: reading the binding right after gave another
  /// value (a `.constant`, a setter that drops or redirects the write, a stale copy of the
  /// source).
  public static let writeNotApplied = MisuseKind(builtIn: "write-not-applied")
  /// A write to a binding began while another write to the same binding was still running on the
  /// same thread (a setter or an observer that writes back into its own binding).
  public static let reentrantWrite = MisuseKind(builtIn: "reentrant-write")

  /// The kinds this library reports by itself.
  public static let builtIn: [MisuseKind] = KindTable.rows.filter { !$0.isRunRecord }.map(
    MisuseKind.init(row:))

  /// A run record written once per heartbeat interval from a run's first misuse record on: the
  /// run is alive, and had handed out `run_records` records so far. Never a misuse event.
  public static let runHeartbeat = MisuseKind(builtIn: "run-heartbeat")
  /// A run record written once when the process ends, after its last misuse record: the run is
  /// complete, and records up to `run_records` that a reader never saw were lost. Never a misuse
  /// event.
  public static let runEnd = MisuseKind(builtIn: "run-end")

  /// The kinds of run records, which readers use to find a run's tail and end and never count
  /// as misuse events.
  public static let runRecordKinds: [MisuseKind] = KindTable.rows.filter(\.isRunRecord).map(
    MisuseKind.init(row:))

  /// Every kind this package defines: ``builtIn`` and ``runRecordKinds``.
  public static var known: [MisuseKind] { builtIn + runRecordKinds }

  /// Whether this kind is a run record's (`run-heartbeat`, `run-end`).
  public var isRunRecord: Bool {
    code == MisuseKind.runHeartbeat.code || code == MisuseKind.runEnd.code
  }

  /// The built-in kind of `row`.
  /// - Parameter row: A row of ``KindTable``.
  package init(row: KindTable.Row) {
    self.code = row.code
    self.messageID = row.messageID
    self.defaultLevel = row.defaultLevel
  }

  /// The built-in kind whose row has `code`; a code with no row is a programming error.
  private init(builtIn code: String) {
    guard let row = KindTable.row(code: code) else {
      preconditionFailure("no row for the built-in kind '\(code)' in KindTable+Rows.swift")
    }
    self.init(row: row)
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
    if let row = KindTable.row(code: code) {
      self = MisuseKind(row: row)
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
