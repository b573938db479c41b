// App code written the way a SwiftUI developer writes it, compiled by Tests/AppleStubs/build.sh
// against the SwiftUI interface stub and, unchanged, against the Linux Binding (LinuxViews.swift
// stands in for SwiftUI's views there), in Swift 5 and Swift 6 modes with -warnings-as-errors.
import BindingDiagnostics

#if canImport(SwiftUI)
  import SwiftUI
#endif

/// A note being edited.
struct Draft: Hashable, Sendable {
  var title = "Untitled"
}

/// A list of notes with a save confirmation, an editor toggle and a detail sheet.
struct NotesView: View {
  @State var alertText: String?
  @State var draft: Draft?
  @State var selection: String?
  @State var isSaving = false

  var body: some View {
    VStack {
      Button("Save") {
        isSaving = true
        Task {
          alertText = await save()
          isSaving = false
        }
      }
      Toggle("Edit", isOn: $draft.mappedToBool(default: Draft()))
      if let title = Binding(unwrapping: $selection, label: "note-detail") {
        DetailView(title: title)
      }
    }
    .alert(isPresented: $alertText.mappedToBool()) {
      Alert(title: Text(alertText ?? ""))
    }
    .alert("Saved", isPresented: $alertText.mappedToBool(label: "save-alert")) {
      Button("OK") { alertText = nil }
    }
    .sheet(isPresented: Binding<Bool>(mappedTo: $selection).transaction(Transaction())) {
      Text(selection ?? "")
    }
  }

  func save() async -> String {
    "Your changes were saved."
  }
}

/// An item of a checklist.
struct ChecklistItem: Identifiable, Hashable, Sendable {
  let id: Int
  var title: String
  var isDone = false
}

/// A checklist whose rows and editor bind to their items by identity, so a deleted item's row or
/// open editor reports instead of crashing.
struct ChecklistView: View {
  @State var items: [ChecklistItem] = []
  @State var editing: Int?

  var body: some View {
    VStack {
      ForEach($items.elementBindings(label: "checklist-row")) { $item in
        Toggle(item.title, isOn: $item.isDone)
      }
      if let id = editing, let item = Binding(element: id, in: $items, label: "item-editor") {
        Toggle("Done", isOn: item.isDone)
      }
    }
  }
}

/// A detail view editing the selected note's title through a binding.
struct DetailView: View {
  @Binding var title: String

  var body: some View {
    Text(title)
  }
}
