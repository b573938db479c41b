import BindingDiagnostics
import Foundation

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// A scripted app that misuses bindings the way real view code does, through the public API
/// only. Each view owns a model and builds its bindings as a SwiftUI body would.
enum DemoApp {
  /// Misuses the script commits, by kind, so the demo can check its own summary.
  static let expectedEvents = 3 + 2000 + 2 + 1 + 2 + 1 + 4 * 25 + 1 + 1 + 1 + 1

  /// The app's state; each value sits behind a lock, as `@State` storage stands in a view.
  final class Model: Sendable {
    let alertText = LockedValue<String?>("Your changes were saved.")
    let selectedMessage = LockedValue<String?>("Lunch on Friday?")
    let draftTitle = LockedValue<String?>(nil)
    let feedError = LockedValue<String?>("Offline")
    let notes = LockedValue([
      Note(id: 1, text: "Buy milk"), Note(id: 2, text: "Call Ana"), Note(id: 3, text: "Pay rent"),
    ])
    let uploadProgress = LockedValue(0.0)
    let subject = LockedValue("")
    let volume = LockedValue(5)
  }

  /// A row of the notes list.
  struct Note: Identifiable, Sendable {
    let id: Int
    var text: String
  }

  /// Runs every scene of the script.
  static func run() {
    let model = Model()
    inboxView(model)
    feedView(model)
    detailView(model)
    notesView(model)
    settingsView(model)
    syncWorkers()
    uploadView(model)
    composeView(model)
    volumeView(model)
    customKind()
  }

  /// An alert whose OK button writes `true` to the mapped flag: three taps, three misuses.
  static func inboxView(_ model: Model) {
    let isPresented = model.alertText.binding.mappedToBool(label: "save-confirmation")
    for _ in 0..<3 { isPresented.wrappedValue = true }
    isPresented.wrappedValue = false  // the correct dismissal: no report
  }

  /// A body re-evaluated in a tight loop that keeps writing `true`: rate limiting folds it.
  static func feedView(_ model: Model) {
    let showsError = Binding<Bool>(mappedTo: model.feedError.binding, label: "feed-error-banner")
    for _ in 0..<2000 { showsError.wrappedValue = true }
  }

  /// A detail view still on screen while its selection is cleared (a dismissal animation):
  /// two reads and one edit after `nil`.
  static func detailView(_ model: Model) {
    let selection = model.selectedMessage.binding
    guard let message = Binding(unwrapping: selection, label: "message-detail") else { return }
    _ = message.wrappedValue
    model.selectedMessage.value = nil
    _ = message.wrappedValue
    _ = message.wrappedValue
    message.wrappedValue = "Lunch on Saturday?"
  }

  /// A notes list whose rows and open editor hold element bindings: a note is deleted while its
  /// editor is still on screen (a sheet animating away), which reads it twice and then takes
  /// one more keystroke. With `$notes[index]` that read crashes ("Index out of range"); here
  /// it returns the note's last text, and the keystroke is dropped and reported.
  static func notesView(_ model: Model) {
    let notes = model.notes.binding
    for row in notes.elementBindings(label: "note-row") {
      _ = row.wrappedValue  // the list draws its rows: no report
    }
    guard let editor = Binding(element: 2, in: notes, label: "note-editor") else { return }
    editor.wrappedValue.text = "Call Ana at 6"
    model.notes.value.removeAll { $0.id == 2 }  // swipe to delete, or a sync from elsewhere
    _ = editor.wrappedValue
    _ = editor.wrappedValue
    editor.wrappedValue = Note(id: 2, text: "Call Ana at 7")
  }

  /// The fixed pattern: `mappedToBool(default:)` stores a value, so nothing is reported.
  static func settingsView(_ model: Model) {
    let isEditing = model.draftTitle.binding.mappedToBool(default: "Untitled")
    for _ in 0..<5 { isEditing.wrappedValue = true }
  }

  /// Four background threads reading a binding whose value another thread cleared.
  static func syncWorkers() {
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      let payload = LockedValue<Int?>(1)
      guard let value = Binding(unwrapping: payload.binding, label: "sync-job") else { return }
      payload.value = nil
      for _ in 0..<25 { _ = value.wrappedValue + worker }
    }
  }

  /// A progress bar whose upload's completion handler writes the progress from the network
  /// queue: one write off the main thread, where SwiftUI says only "Publishing changes from
  /// background threads is not allowed".
  static func uploadView(_ model: Model) {
    let progress = model.uploadProgress.binding.diagnosed(label: "upload-progress")
    let finished = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      progress.wrappedValue = 1.0  // the completion handler: should hop to the main thread
      finished.signal()
    }
    finished.wait()
  }

  /// A subject field bound to `.constant` while the view was sketched, never wired up: the
  /// keystroke does not stick and the field snaps back.
  static func composeView(_ model: Model) {
    let subject = Binding.constant(model.subject.value).diagnosed(label: "compose-subject")
    subject.wrappedValue = "Lunch on Friday?"
  }

  /// A volume slider whose setter clamps by writing back into its own binding: the inner write
  /// replaces the outer one while it is being stored.
  static func volumeView(_ model: Model) {
    let slider = LockedValue<Binding<Int>?>(nil)
    slider.value = Binding(
      get: { model.volume.value },
      set: { newValue in
        model.volume.value = newValue
        // The fix: store min(newValue, 10) instead of writing back.
        if newValue > 10, let binding = slider.value { binding.wrappedValue = 10 }
      }
    ).diagnosed(label: "volume-slider")
    if let binding = slider.value { binding.wrappedValue = 11 }
  }

  /// An app-defined kind reported through the same pipeline.
  static func customKind() {
    guard let kind = MisuseKind(code: "sheet-presented-twice", defaultLevel: .notice) else {
      return
    }
    DiagnosticsSystem.report(
      kind, message: "A sheet was presented while another was still up.", valueType: String.self,
      valuePresent: true, value: "compose", label: "compose-sheet")
  }
}
