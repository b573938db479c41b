import BindingDiagnostics
import BindingDiagnosticsTesting
import Foundation
import TestSupport
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif

@Suite struct LinuxModelRecipesTests {
  @Test func theRecipesCompileAsAnAppOutsideThePackage() throws {
    // No -package-name: only public API is visible, as to an app that depends on the package.
    let recipes = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("LinuxModelRecipes.swift").path
    let modules = productsDirectory().appendingPathComponent("Modules").path
    let result = try runProduct(
      "/usr/bin/env",
      [
        "swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors", "-module-name",
        "RecipeApp", "-I", modules, recipes,
      ])
    #expect(result.stderr == "")
    #expect(result.status == 0)
  }

  @Test func aPlainClassModelReportsThroughItsBindings() {
    let model = InboxModel()
    let (events, _) = recordingMisuses {
      #expect(model.isShowingAlert.wrappedValue == false)
      model.isShowingAlert.wrappedValue = true  // nothing to present: the misuse
      model.save()
      #expect(model.isShowingAlert.wrappedValue)
      model.isShowingAlert.wrappedValue = false
    }
    #expect(events.map(\.kind) == [.mappedBoolSetTrue])
    #expect(events.first?.label == "save-alert")
    #expect(model.alertText.value == nil)
  }

  @Test func withLockReadsAndWritesInOneStep() async {
    let model = InboxModel()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask { for _ in 0..<1_000 { model.receive() } }
      }
    }
    #expect(model.unread.value == 8_000)
  }

  @Test @MainActor func aMainActorModelsBindingsWorkOffTheMainActor() async throws {
    let model = ComposerModel()
    model.startEditing()
    let editing = model.isEditing
    let text = try #require(model.draftText)
    // Bindings made on the main actor and written from another thread: safe (the state is a
    // `LockedValue`), and each such write is reported, as SwiftUI would refuse it; a model meant
    // to be written from several threads turns the thread check off.
    let written = await Task.detached {
      (
        recordingMisuses {
          text.wrappedValue = "Hello"
          editing.wrappedValue = false  // closes the editor: the draft becomes nil
          text.wrappedValue = "lost"  // written after nil: dropped and reported
        }.events,
        recordingMisuses(configuration: Self.threadCheckOff) { text.wrappedValue = "again" }.events
      )
    }.value
    #expect(
      written.0.map(\.kind) == [
        .setOffMainThread, .setOffMainThread, .setOffMainThread, .unwrappedWriteAfterNil,
      ])
    #expect(written.1.map(\.kind) == [.unwrappedWriteAfterNil])
    #expect(model.draft.value == nil)
    #expect(model.title == "New message")
  }

  /// The configuration of a process whose bindings are meant to be written from several threads.
  static var threadCheckOff: DiagnosticsConfiguration {
    var configuration = DiagnosticsConfiguration(rateLimit: nil)
    configuration.checksMainThread = false
    return configuration
  }
}
