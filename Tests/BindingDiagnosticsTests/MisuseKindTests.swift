import BindingDiagnostics
import Foundation
import Testing

@Suite struct MisuseKindTests {
  @Test func builtInKindsHaveFixedIdsAndLevels() {
    #expect(MisuseKind.mappedBoolSetTrue.code == "mapped-bool-set-true")
    #expect(MisuseKind.mappedBoolSetTrue.messageID == "2b9f53b872d7905613eeb68e53797657")
    #expect(MisuseKind.mappedBoolSetTrue.defaultLevel == .error)
    #expect(MisuseKind.unwrappedReadAfterNil.messageID == "408dfadb7955002b716d4ab50fbd4491")
    #expect(MisuseKind.unwrappedReadAfterNil.defaultLevel == .info)
    #expect(MisuseKind.unwrappedWriteAfterNil.messageID == "bc5fac4ceaa67ee0a9571f1f145acecc")
    #expect(MisuseKind.unwrappedWriteAfterNil.defaultLevel == .warning)
    #expect(MisuseKind.elementReadAfterRemoval.code == "element-read-after-removal")
    #expect(MisuseKind.elementReadAfterRemoval.messageID == "dd247305be2c4d0989f04225e38f18ac")
    #expect(MisuseKind.elementReadAfterRemoval.defaultLevel == .info)
    #expect(MisuseKind.elementWriteAfterRemoval.code == "element-write-after-removal")
    #expect(MisuseKind.elementWriteAfterRemoval.messageID == "f85acfe97c4c497e9481d236932560ea")
    #expect(MisuseKind.elementWriteAfterRemoval.defaultLevel == .warning)
    #expect(MisuseKind(code: "element-write-after-removal") == .elementWriteAfterRemoval)
  }

  @Test(arguments: [
    (MisuseKind.setOffMainThread, "set-off-main-thread", "225af2e2c84a98d859d1b81a14e0f08e"),
    (MisuseKind.writeNotApplied, "write-not-applied", "043e1df79d121894fb520fc6dbb65814"),
    (MisuseKind.reentrantWrite, "reentrant-write", "1602a1b76db8d6991739f4e08b103e2c"),
  ])
  func theWriteKindsHaveFixedIdsAtWarning(kind: MisuseKind, code: String, messageID: String) {
    #expect(kind.code == code)
    #expect(kind.messageID == messageID)
    #expect(kind.defaultLevel == .warning)
    #expect(MisuseKind.builtIn.contains(kind))
    #expect(MisuseKind(code: code, defaultLevel: .debug) == kind)
  }

  @Test func customKindsDeriveAStableId() throws {
    let kind = try #require(MisuseKind(code: "sheet-dismissed-twice", defaultLevel: .notice))
    // Pinned, and checked against an independent SipHash-2-4 in Python: the derivation must
    // never change, or catalogs and queries break.
    #expect(kind.messageID == "80f311d85ffa3d358fbb91a216a333aa")
    #expect(kind.messageID.count == 32)
    #expect(MisuseKind(code: "sheet-dismissed-twice")?.messageID == kind.messageID)
    #expect(MisuseKind(code: "sheet-dismissed-once")?.messageID != kind.messageID)
    #expect(MisuseKind(code: "mapped-bool-set-true") == .mappedBoolSetTrue)
  }

  @Test(arguments: ["", "Upper", "double--dash", "-lead", "trail-", "space here", "ünï"])
  func nonKebabCodesAreRefused(_ code: String) {
    #expect(MisuseKind(code: code) == nil)
  }

  @Test func customKindsGoThroughThePipeline() throws {
    let sink = RecordingSinkProbe()
    let diagnostics = Diagnostics(
      configuration: DiagnosticsConfiguration(sink: sink, rateLimit: nil))
    let kind = try #require(MisuseKind(code: "focus-lost", defaultLevel: .notice))
    DiagnosticsSystem.withDiagnostics(diagnostics) {
      DiagnosticsSystem.report(
        kind, message: "Focus was lost.", valueType: Int.self, label: "field")
    }
    let event = try #require(sink.recorded.first)
    #expect(event.kind.code == "focus-lost")
    #expect(event.level == .notice)
    #expect(event.valueType == "Swift.Int")
    #expect(event.file == #fileID)
  }

  @Test func levelsOrderAndMapToSyslogPriorities() {
    #expect(MisuseLevel.allCases.map(\.syslogPriority) == [7, 7, 6, 5, 4, 3, 2])
    #expect(MisuseLevel.trace < .critical)
    #expect(MisuseLevel.allCases.sorted() == MisuseLevel.allCases)
  }
}

/// A minimal sink written against the public protocol, proving third-party sinks plug in.
/// `NSLock` rather than `Mutex`, which an app targeting macOS 13 / iOS 16 cannot use.
/// `@unchecked Sendable`: `events` is only touched under `lock`.
final class RecordingSinkProbe: DiagnosticsSink, @unchecked Sendable {
  private let lock = NSLock()
  private var events: [MisuseEvent] = []
  func receive(_ event: MisuseEvent) { lock.withLock { events.append(event) } }
  var recorded: [MisuseEvent] { lock.withLock { events } }
}
