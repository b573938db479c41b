import BindingDiagnostics

#if canImport(SwiftUI)
  import SwiftUI
#endif

// The two recipes of the DocC article "Models on Linux", as an app writes them. This target
// builds with -warnings-as-errors in Swift 6 mode, so neither may raise a diagnostic; and
// LinuxModelRecipesTests compiles this file again as a module of its own, outside the package,
// so it uses public API only.

/// Recipe 1: a plain class. Its state is a `LockedValue`, held in a `let`, so the class is
/// `Sendable` and its bindings' `@Sendable` closures may capture it.
final class InboxModel: Sendable {
  let alertText = LockedValue<String?>(nil)
  let unread = LockedValue(0)

  var isShowingAlert: Binding<Bool> { alertText.binding.mappedToBool(label: "save-alert") }

  func save() { alertText.value = "Your changes were saved." }

  func receive() { unread.withLock { $0 += 1 } }
}

/// Recipe 2: a `@MainActor` model. Main-actor state stays a plain `var`; what bindings read
/// and write is a `LockedValue`, so a binding made on the main actor is safe on any thread (a
/// write from another thread is still reported `set-off-main-thread`, as SwiftUI would refuse
/// it, unless the thread check is off).
@MainActor final class ComposerModel {
  var title = "New message"
  let draft = LockedValue<String?>(nil)

  var isEditing: Binding<Bool> { draft.binding.mappedToBool(label: "editor") }
  var draftText: Binding<String>? { Binding(unwrapping: draft.binding, label: "draft") }

  func startEditing() { draft.value = "" }
}
