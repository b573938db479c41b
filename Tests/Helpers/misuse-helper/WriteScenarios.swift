import BindingDiagnostics
import Foundation

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// Runs `make` on a thread of its own and returns what it made.
func madeOffMainThread<T>(_ make: @escaping @Sendable () -> T) -> T {
  nonisolated(unsafe) var made: T?
  let done = DispatchSemaphore(value: 0)
  Thread {
    made = make()
    done.signal()
  }.start()
  done.wait()
  return made!
}

/// The writes issue 30 is about, as an app makes them (`--writes misused`), and the same app
/// written correctly (`--writes correct`). Every binding is made on the main thread. Misused,
/// each site misuses once:
/// - `counter`: written from a DispatchQueue block (set-off-main-thread);
/// - `title`: a `.constant` written (write-not-applied);
/// - `name`: a setter that drops the write (write-not-applied);
/// - `dismiss`: a flag mapped from an optional whose setter ignores `nil` (write-not-applied);
/// - `volume`: a setter that clamps by writing back into its own binding (reentrant-write).
enum WriteScenarios {
  final class Model: @unchecked Sendable {
    var counter = 0
    var title = "Draft"
    var name = "Ada"
    var alert: String? = "Unsaved changes"
    var volume = 5

    /// A binding its own setter can reach.
    final class Slot: @unchecked Sendable {
      var binding: Binding<Int>?
    }
  }

  static func run(misused: Bool) {
    let model = Model()
    let counter = Binding(get: { model.counter }, set: { model.counter = $0 })
      .diagnosed(label: "counter")
    let computed = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      let next = 42
      if misused { counter.wrappedValue = next }
      computed.signal()
    }
    computed.wait()
    if !misused { counter.wrappedValue = 42 }

    let title =
      misused
      ? Binding.constant("Draft").diagnosed(label: "title")
      : Binding(get: { model.title }, set: { model.title = $0 }).diagnosed(label: "title")
    title.wrappedValue = "Final"

    let name = Binding(
      get: { model.name }, set: { if !misused { model.name = $0 } }
    ).diagnosed(label: "name")
    name.wrappedValue = "Grace"

    let alert = Binding<String?>(
      get: { model.alert }, set: { if !misused || $0 != nil { model.alert = $0 } })
    let dismiss = alert.mappedToBool(label: "dismiss")
    dismiss.wrappedValue = false

    let volume = Model.Slot()
    volume.binding = Binding(
      get: { model.volume },
      set: { newValue in
        if misused {
          model.volume = newValue
          if newValue > 10, let binding = volume.binding { binding.wrappedValue = 10 }
        } else {
          model.volume = min(newValue, 10)
        }
      }
    ).diagnosed(label: "volume", normalises: !misused)
    if let binding = volume.binding { binding.wrappedValue = 11 }
  }

  /// A main-actor app with an `async` main (`--main-actor-writes`): once the main thread parks in
  /// `dispatchMain()`, libdispatch runs the main actor's work (the main queue) on a worker
  /// thread on Linux. One binding made on the main thread before that, one made on the main
  /// actor after; each is written on the main actor (correct) and from a detached task (each
  /// misuses once: set-off-main-thread). Exits the process.
  static func runOnTheMainActor() -> Never {
    let progress = LockedValue(0)
    let early = progress.binding.diagnosed(label: "made-on-main-thread")
    Task { @MainActor in
      let late = progress.binding.diagnosed(label: "made-on-main-actor")
      await Task.detached {}.value
      early.wrappedValue = 1
      late.wrappedValue = 2
      await Task.detached {
        early.wrappedValue = 3
        late.wrappedValue = 4
      }.value
      early.wrappedValue = 5
      late.wrappedValue = 6
      exit(progress.value == 6 ? 0 : 1)
    }
    dispatchMain()
  }
}
