import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// A sink as apps wrote them before the lifecycle was public: `receive` only. It must still
/// compile, and get the defaults.
private struct PlainSink: DiagnosticsSink {
  let received = LockedValue<[MisuseEvent]>([])

  func receive(_ event: MisuseEvent) {
    received.withLock { $0.append(event) }
  }
}

/// An app's sink using each lifecycle requirement, recording how the fan-out called it.
private final class LifecycleSink: DiagnosticsSink, @unchecked Sendable {
  // @unchecked: `calls` is a `LockedValue`; the rest is immutable.
  let name: String
  let destination: SinkDestination?
  let fallbackDestination: SinkDestination?
  let calls = LockedValue<[String]>([])

  init(
    _ name: String, destination: SinkDestination? = nil,
    fallbackDestination: SinkDestination? = nil
  ) {
    self.name = name
    self.destination = destination
    self.fallbackDestination = fallbackDestination
  }

  func receive(_ event: MisuseEvent) {
    calls.withLock { $0.append("receive") }
  }

  func receive(_ event: MisuseEvent, deliveringFallback: Bool) {
    calls.withLock { $0.append("receive fallback=\(deliveringFallback)") }
  }

  func renewedAfterFork() -> any DiagnosticsSink {
    LifecycleSink(
      name + " renewed", destination: destination, fallbackDestination: fallbackDestination)
  }

  func finishAtProcessEnd(within seconds: Double, runEnd: MisuseEvent?, deliveringFallback: Bool) {
    calls.withLock {
      $0.append("finish within=\(seconds) runEnd=\(runEnd != nil) fallback=\(deliveringFallback)")
    }
  }
}

@Suite struct SinkLifecycleTests {
  @Test func aSinkWithOnlyReceiveGetsTheDefaults() throws {
    let sink = PlainSink()
    let renewed = try #require(sink.renewedAfterFork() as? PlainSink)
    #expect(renewed.received === sink.received)
    #expect(sink.destination == nil)
    #expect(sink.fallbackDestination == nil)
    sink.receive(sampleEvent(label: "one"), deliveringFallback: false)
    sink.finishAtProcessEnd(within: 1, runEnd: sampleEvent(label: "end"), deliveringFallback: true)
    #expect(sink.received.value.map(\.label) == ["one", "end"])
  }

  @Test func aFanOutRenewsEachOfItsSinksThroughTheProtocol() throws {
    let fanOut = MultiplexSink([LifecycleSink("a"), LifecycleSink("b")])
    let renewed = try #require(fanOut.renewedAfterFork() as? MultiplexSink)
    let names = renewed.sinks.compactMap { ($0 as? LifecycleSink)?.name }
    #expect(names == ["a renewed", "b renewed"])
  }

  @Test func aFanOutFinishesEachSinkWithItsOwnFallbackDecision() {
    let standardError = SinkDestination(fileDescriptor: 2, format: "logfmt")
    let printer = LifecycleSink("printer", destination: standardError)
    let fallingBack = LifecycleSink("falls back", fallbackDestination: standardError)
    let elsewhere = LifecycleSink(
      "falls back elsewhere", fallbackDestination: SinkDestination(fileDescriptor: 9, format: "x"))
    let fanOut = MultiplexSink([printer, fallingBack, elsewhere])
    fanOut.receive(sampleEvent())
    fanOut.finishAtProcessEnd(within: 0.5, runEnd: sampleEvent(), deliveringFallback: true)
    #expect(
      printer.calls.value == [
        "receive fallback=true", "finish within=0.5 runEnd=true fallback=true",
      ])
    // Its fallback prints where `printer` prints: told not to, for events and the run-end.
    #expect(
      fallingBack.calls.value == [
        "receive fallback=false", "finish within=0.5 runEnd=true fallback=false",
      ])
    #expect(
      elsewhere.calls.value == [
        "receive fallback=true", "finish within=0.5 runEnd=true fallback=true",
      ])
  }

  @Test func sinksWithOneDestinationReceiveOnceWhateverTheirType() {
    let destination = SinkDestination(fileDescriptor: 2, format: "logfmt")
    let first = LifecycleSink("first", destination: destination)
    let second = LifecycleSink("second", destination: destination)
    MultiplexSink([first, second]).receive(sampleEvent())
    #expect(first.calls.value == ["receive fallback=true"])
    #expect(second.calls.value.isEmpty)
  }

  @Test func anAppSinkBesideStandardErrorIsToldNotToRepeatItsLines() {
    let fallingBack = LifecycleSink(
      "falls back", fallbackDestination: StandardErrorSink(format: .logfmt).destination)
    let fanOut = MultiplexSink([StandardErrorSink(format: .logfmt, fileDescriptor: 2), fallingBack])
    fanOut.finishAtProcessEnd(within: 0, runEnd: nil, deliveringFallback: true)
    #expect(fallingBack.calls.value == ["finish within=0.0 runEnd=false fallback=false"])
  }
}
