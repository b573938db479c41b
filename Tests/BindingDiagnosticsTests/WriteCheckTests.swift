import BindingDiagnostics
import BindingDiagnosticsTesting
import Foundation
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// The write checks of the package's bindings and of `diagnosed()`: `set-off-main-thread`,
/// `write-not-applied`, `reentrant-write`.
@Suite struct WriteCheckTests {
  // MARK: write-not-applied

  @Test func aConstantWriteDoesNotStick() throws {
    let (events, line) = recordingMisuses { () -> Int in
      let line = #line + 1
      let title = Binding.constant("Draft").diagnosed(label: "title")
      title.wrappedValue = "Final"
      return line
    }
    let event = try #require(events.first)
    #expect(events.count == 1)
    #expect(event.kind == .writeNotApplied)
    #expect(event.level == .warning)
    #expect(event.line == line)
    #expect(event.file == #fileID)
    #expect(event.label == "title")
    #expect(event.valueType == "Swift.String")
    #expect(event.valuePresent)
    #expect(event.value == "<private>")
    #expect(
      event.message
        == "A write through a binding did not stick: reading it right after gave another value (wrote String, read back String)."
    )
  }

  @Test func bothValuesShowWhenPublic() throws {
    let (events, _) = recordingMisuses(configuration: .init(privacy: .public, rateLimit: nil)) {
      let count = Binding(get: { 3 }, set: { _ in }).diagnosed()
      count.wrappedValue = 4
    }
    #expect(events.map(\.value) == ["wrote 4, read back 3"])
  }

  @Test func aDroppingSetterAndAStaleCopyDoNotStick() {
    let model = Box("Ada")
    let (events, _) = recordingMisuses {
      let dropping = Binding(get: { model.value }, set: { _ in }).diagnosed(label: "dropping")
      dropping.wrappedValue = "Grace"
      // A copy taken when the view was made: writes reach the model, reads the copy.
      let snapshot = model.value
      let stale = Binding(get: { snapshot }, set: { model.value = $0 }).diagnosed(label: "stale")
      stale.wrappedValue = "Grace"
    }
    #expect(events.map(\.kind) == [.writeNotApplied, .writeNotApplied])
    #expect(events.compactMap(\.label) == ["dropping", "stale"])
  }

  @Test func correctWritesReportNothing() {
    let model = Box("Ada")
    let alert = Box<String?>("Saved")
    let notes = Box([WriteNote(id: 1, text: "milk")])
    let (events, _) = recordingMisuses {
      let name = model.binding.diagnosed(label: "name")
      name.wrappedValue = "Grace"
      name.wrappedValue = "Grace"
      let unwrapped = Binding(unwrapping: alert.binding)
      unwrapped?.wrappedValue = "Done"
      let flag = alert.binding.mappedToBool()
      flag.wrappedValue = false
      let presented = alert.binding.mappedToBool(default: "Hello")
      presented.wrappedValue = true
      presented.wrappedValue = false
      let note = Binding(element: 1, in: notes.binding)
      note?.wrappedValue.text = "oat milk"
      let anyValue = Box<[Int]>([]).binding.diagnosed()
      anyValue.wrappedValue = [1]
    }
    #expect(events.isEmpty)
    #expect(model.value == "Grace")
    #expect(notes.value.map(\.text) == ["oat milk"])
  }

  @Test func aNormalisingSourceSaysSo() {
    let age = Box(30)
    let clamping = Binding(get: { age.value }, set: { age.value = min(max($0, 0), 120) })
    let (quiet, _) = recordingMisuses {
      clamping.diagnosed(label: "age", normalises: true).wrappedValue = 200
    }
    #expect(quiet.isEmpty)
    #expect(age.value == 120)
    let (reported, _) = recordingMisuses {
      clamping.diagnosed(label: "age").wrappedValue = 200
    }
    #expect(reported.map(\.kind) == [.writeNotApplied])
  }

  @Test func anUnwrappedBindingToANormalisingSourceSaysSo() {
    // The optional's source clamps what it is given, as `aNormalisingSourceSaysSo`'s does.
    let age = Box<Int?>(30)
    let clamping = Binding<Int?>(get: { age.value }, set: { age.value = $0.map { min($0, 120) } })
    let (quiet, _) = recordingMisuses {
      Binding(unwrapping: clamping, label: "age", normalises: true)?.wrappedValue = 200
    }
    #expect(quiet.isEmpty)
    #expect(age.value == 120)
    let (reported, _) = recordingMisuses {
      Binding(unwrapping: clamping, label: "age")?.wrappedValue = 200
    }
    #expect(reported.map(\.kind) == [.writeNotApplied])
    // The other checks stay: a write after nil is still dropped and reported.
    let (dropped, _) = recordingMisuses {
      let unwrapped = Binding(unwrapping: clamping, label: "age", normalises: true)
      age.value = nil
      unwrapped?.wrappedValue = 40
    }
    #expect(dropped.map(\.kind) == [.unwrappedWriteAfterNil])
  }

  @Test func aMappedFalseThatLeavesTheOptionalIsNotApplied() throws {
    let alert = Box<String?>("Saved")
    let (events, _) = recordingMisuses {
      let ignoresNil = Binding<String?>(
        get: { alert.value }, set: { if $0 != nil { alert.value = $0 } })
      let flag = ignoresNil.mappedToBool(label: "dismiss")
      flag.wrappedValue = false
    }
    let event = try #require(events.first)
    #expect(events.count == 1)
    #expect(event.kind == .writeNotApplied)
    #expect(event.valueType == "Swift.Optional<Swift.String>")
    #expect(event.valuePresent)
    #expect(
      event.message
        == "A Binding<Bool> mapped from an optional was set to false, but the optional is still not nil."
    )
  }

  @Test func anUnwrappedWriteThatDoesNotStick() {
    let (events, _) = recordingMisuses {
      let binding = Binding(unwrapping: Binding<Int?>(get: { 1 }, set: { _ in }), label: "n")
      binding?.wrappedValue = 2
    }
    #expect(events.map(\.kind) == [.writeNotApplied])
  }

  @Test func aValueNotEqualToItselfIsNotReportedAsNotApplied() {
    // NaN is not equal to itself: a read-back cannot tell whether it stuck, and the source did
    // store it.
    let level = Box(0.0)
    let point = Box(Point(x: 0, y: 0))
    let (events, _) = recordingMisuses {
      level.binding.diagnosed(label: "level").wrappedValue = .nan
      Binding(unwrapping: Box<Double?>(1).binding, label: "gain")?.wrappedValue = .nan
      let sample = Box(Sample(value: 1))
      sample.binding.diagnosed(label: "sample").wrappedValue = Sample(value: .nan)
      point.binding.diagnosed(label: "point").wrappedValue = Point(x: 1, y: 2)
    }
    #expect(events.isEmpty)
    #expect(level.value.isNaN)
    // A value equal to itself that does not stick is still reported.
    let (constant, _) = recordingMisuses {
      Binding.constant(1.5).diagnosed(label: "constant").wrappedValue = .nan
      Binding.constant(Double.nan).diagnosed(label: "stuck").wrappedValue = 2
    }
    #expect(constant.compactMap(\.label) == ["constant", "stuck"])
  }

  @Test func aWriteFromAnotherThreadBeforeTheReadBackIsNotAWriteThatDidNotStick() {
    // A binding made off the main thread may be written from any thread. This thread writes 1;
    // before it reads the value back, another thread writes 2 through the same binding (the
    // getter lets it, as a thread preempted between the write and the read-back would).
    let progress = Box(0)
    let (events, _) = recordingMisuses {
      let diagnostics = DiagnosticsSystem.current
      let binding = Box<Binding<Int>?>(nil)
      let interrupt = Box(true)
      binding.value = Binding(
        get: {
          if progress.value == 1, interrupt.value {
            interrupt.value = false
            Self.onAnotherThread {
              DiagnosticsSystem.withDiagnostics(diagnostics) { binding.value?.wrappedValue = 2 }
            }
          }
          return progress.value
        },
        set: { progress.value = $0 }
      ).diagnosed(label: "progress")
      binding.value?.wrappedValue = 1
    }
    #expect(events.map(\.kind) == [])
    #expect(progress.value == 2)
  }

  // MARK: reentrant-write

  @Test func aSetterWritingBackIntoItsBindingIsReportedOnceAndTheInnerWriteHappens() throws {
    let volume = Box(5)
    let (events, line) = recordingMisuses { () -> Int in
      let slot = Box<Binding<Int>?>(nil)
      let line = #line + 8
      slot.value = Binding(
        get: { volume.value },
        set: { newValue in
          volume.value = newValue
          // Clamps by writing back, one step at a time: three nested writes.
          if newValue > 10, let binding = slot.value { binding.wrappedValue = newValue - 1 }
        }
      ).diagnosed(label: "volume")
      if let binding = slot.value { binding.wrappedValue = 13 }
      return line
    }
    #expect(volume.value == 10)
    let event = try #require(events.first)
    #expect(events.map(\.kind) == [.reentrantWrite])
    #expect(event.line == line)
    #expect(event.valueType == "Swift.Int")
    #expect(event.label == "volume")
    #expect(
      event.message
        == "A binding was written while a write to it was still running on the same thread; the inner write happened."
    )
  }

  @Test func eachOutermostWriteReportsItsReentry() {
    let volume = Box(5)
    let (events, _) = recordingMisuses {
      let slot = Box<Binding<Int>?>(nil)
      slot.value = Binding(
        get: { volume.value },
        set: {
          volume.value = $0
          if $0 > 10, let binding = slot.value { binding.wrappedValue = 10 }
        }
      ).diagnosed()
      let binding = slot.value!
      binding.wrappedValue = 11
      binding.wrappedValue = 3
      binding.wrappedValue = 12
    }
    #expect(events.map(\.kind) == [.reentrantWrite, .reentrantWrite])
  }

  @Test func elementAndUnwrappedBindingsCatchReentry() throws {
    let notes = Box([WriteNote(id: 1, text: "milk")])
    let draft = Box<String?>("a")
    let (events, _) = recordingMisuses {
      let note = Box<Binding<WriteNote>?>(nil)
      let base = Binding(
        get: { notes.value },
        set: { newValue in
          notes.value = newValue
          if newValue[0].text.count > 4, let binding = note.value {
            binding.wrappedValue.text = "long"
          }
        })
      note.value = Binding(element: 1, in: base, label: "note")
      if let binding = note.value { binding.wrappedValue.text = "oat milk" }
      let text = Box<Binding<String>?>(nil)
      let optional = Binding<String?>(
        get: { draft.value },
        set: { newValue in
          draft.value = newValue
          if newValue == "b", let binding = text.value { binding.wrappedValue = "c" }
        })
      text.value = Binding(unwrapping: optional, label: "draft")
      if let binding = text.value { binding.wrappedValue = "b" }
    }
    #expect(events.map(\.kind) == [.reentrantWrite, .reentrantWrite])
    #expect(events.compactMap(\.label) == ["note", "draft"])
    #expect(notes.value.map(\.text) == ["long"])
    #expect(draft.value == "c")
  }

  @Test func aReentrantWriteIsReportedThoughAnotherThreadWroteMeanwhile() {
    // Inside this thread's write, another thread writes the binding (and is done), then the
    // setter writes back into its own binding: re-entrant, whatever the other thread did.
    let volume = Box(0)
    let (events, _) = recordingMisuses {
      let diagnostics = DiagnosticsSystem.current
      let binding = Box<Binding<Int>?>(nil)
      binding.value = Binding(
        get: { volume.value },
        set: { newValue in
          volume.value = newValue
          guard newValue == 1 else { return }
          Self.onAnotherThread {
            DiagnosticsSystem.withDiagnostics(diagnostics) { binding.value?.wrappedValue = 2 }
          }
          binding.value?.wrappedValue = 3
        }
      ).diagnosed(label: "volume")
      binding.value?.wrappedValue = 1
    }
    #expect(events.map(\.kind) == [.reentrantWrite])
    #expect(events.compactMap(\.label) == ["volume"])
    #expect(volume.value == 3)
  }

  // MARK: set-off-main-thread

  // `swift test` runs no test on the main thread (on Linux a `@MainActor` one runs on the main
  // queue, which counts as main; see the test below): these make their bindings on the library's
  // stand-in for it.
  #if DEBUG
    @Test func aMainThreadBindingWrittenFromAQueueIsReported() throws {
      let counter = Box(0)
      let sink = RecordingSink()
      let diagnostics = Diagnostics(configuration: .init(sink: sink, rateLimit: nil))
      let line = #line + 2
      let binding = MainThreadStandIn.run {
        let binding = counter.binding.diagnosed(label: "counter")
        binding.wrappedValue = 1  // on the main thread: no report
        return binding
      }
      Self.onAnotherThread {
        DiagnosticsSystem.withDiagnostics(diagnostics) { binding.wrappedValue = 2 }
      }
      diagnostics.flush()
      let event = try #require(sink.events.first)
      #expect(sink.events.map(\.kind) == [.setOffMainThread])
      #expect(event.line == line)
      #expect(event.label == "counter")
      #expect(event.valueType == "Swift.Int")
      #expect(event.message == "A binding made on the main thread was written from another thread.")
      #expect(counter.value == 2)
    }

    @Test func everyKindOfPackageBindingChecksTheThread() throws {
      let alert = Box<String?>("Saved")
      let notes = Box([WriteNote(id: 1, text: "milk")])
      let sink = RecordingSink()
      let diagnostics = Diagnostics(configuration: .init(sink: sink, rateLimit: nil))
      let (flag, unwrapped, element, row) = MainThreadStandIn.run {
        let rows = notes.binding.elementBindings(label: "rows")
        return (
          alert.binding.mappedToBool(label: "flag"),
          Binding(unwrapping: alert.binding, label: "unwrapped")!,
          Binding(element: 1, in: notes.binding, label: "element")!, rows[rows.startIndex]
        )
      }
      Self.onAnotherThread {
        DiagnosticsSystem.withDiagnostics(diagnostics) {
          unwrapped.wrappedValue = "Again"
          element.wrappedValue.text = "oat milk"
          row.wrappedValue.text = "soy milk"
          flag.wrappedValue = false
        }
      }
      diagnostics.flush()
      #expect(sink.events.map(\.kind) == Array(repeating: .setOffMainThread, count: 4))
      #expect(sink.events.compactMap(\.label) == ["unwrapped", "element", "rows", "flag"])
    }

    @Test func theConfigurationTurnsTheThreadCheckOff() throws {
      let sink = RecordingSink()
      var configuration = DiagnosticsConfiguration(sink: sink, rateLimit: nil)
      configuration.checksMainThread = false
      let diagnostics = Diagnostics(configuration: configuration)
      let binding = MainThreadStandIn.run { Box(0).binding.diagnosed() }
      Self.onAnotherThread {
        DiagnosticsSystem.withDiagnostics(diagnostics) { binding.wrappedValue = 2 }
      }
      diagnostics.flush()
      #expect(sink.events.isEmpty)
    }
  #endif

  /// The article's `@MainActor` test: a binding made on the main actor, written there (after a
  /// suspension, which on Linux resumes on whichever thread drains the main queue) and from a
  /// child task. On Linux `swift test` runs a `@MainActor` test off the main thread, on the main
  /// queue, as an `async` main runs an app's main actor.
  @MainActor @Test func aBindingMadeOnTheMainActorIsCheckedWhereverTheMainActorRuns() async {
    let model = Box(0.0)
    let sink = RecordingSink()
    let diagnostics = Diagnostics(configuration: .init(sink: sink, rateLimit: nil))
    let progress = model.binding.diagnosed(label: "upload-progress")
    await DiagnosticsSystem.withDiagnostics(diagnostics) {
      await Task.yield()
      progress.wrappedValue = 0.5  // on the main actor: not reported
      await withTaskGroup(of: Void.self) { $0.addTask { progress.wrappedValue = 1 } }
      await Task.detached { DiagnosticsSystem.withDiagnostics(diagnostics) { progress.wrappedValue = 2 } }.value
      progress.wrappedValue = 3  // on the main actor again: not reported
    }
    diagnostics.flush()
    #expect(sink.events.map(\.kind) == [.setOffMainThread, .setOffMainThread])
    #expect(sink.events.map(\.value) == ["<private>", "<private>"])
    #expect(model.value == 3)
  }

  @Test func aBindingMadeOffTheMainThreadIsNotChecked() throws {
    let sink = RecordingSink()
    let diagnostics = Diagnostics(configuration: .init(sink: sink, rateLimit: nil))
    let binding = Box<Binding<Int>?>(nil)
    Self.onAnotherThread { binding.value = Box(0).binding.diagnosed() }
    let made = try #require(binding.value)
    Self.onAnotherThread {
      DiagnosticsSystem.withDiagnostics(diagnostics) { made.wrappedValue = 2 }
    }
    diagnostics.flush()
    #expect(sink.events.isEmpty)
  }

  @Test(arguments: [
    (["BINDING_DIAGNOSTICS_MAIN_THREAD_CHECK": "off"], false, [String]()),
    (["BINDING_DIAGNOSTICS_MAIN_THREAD_CHECK": "on"], true, []),
    ([:], true, []),
    (
      ["BINDING_DIAGNOSTICS_MAIN_THREAD_CHECK": "of"], true,
      [
        "BINDING_DIAGNOSTICS_MAIN_THREAD_CHECK: expected on or off, got \"of\"; using on"
      ]
    ),
  ])
  func theMainThreadCheckIsOneSetting(
    environment: [String: String], checks: Bool, warnings: [String]
  ) {
    let parsed = EnvironmentConfiguration.specification(environment: environment) { _ in nil }
    #expect(parsed.specification.checksMainThread == checks)
    #expect(parsed.warnings == warnings)
    #expect(parsed.specification.open().configuration.checksMainThread == checks)
  }

  @Test func theFileTurnsTheThreadCheckOff() {
    let file = #"{"main_thread_check": "off"}"#
    let parsed = EnvironmentConfiguration.specification(
      environment: ["BINDING_DIAGNOSTICS_CONFIG": "app.json"]
    ) { _ in Array(file.utf8) }
    #expect(parsed.warnings == [])
    #expect(parsed.specification.checksMainThread == false)
  }

  /// Runs `body` on a thread of its own and waits for it.
  static func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    Thread {
      body()
      done.signal()
    }.start()
    done.wait()
  }
}

/// A row of a collection, `Identifiable` and `Equatable`.
private struct WriteNote: Identifiable, Equatable, Sendable {
  let id: Int
  var text: String
}

/// A value with a `Double`, `Equatable` as the compiler makes it: not equal to itself when the
/// `Double` is NaN.
private struct Sample: Equatable, Sendable {
  var value: Double
}
