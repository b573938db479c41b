import BindingDiagnostics
import BindingDiagnosticsTesting
import Foundation
import Testing

@testable import bindiag

/// The demo app's views, tested as an app team would: under `.failsOnMisuse`, the fixed pattern
/// passes and each misusing view fails once, at its misusing write in DemoApp.swift (the writer's
/// line), with a comment naming the mapping's line and the writer's.
@Suite(.failsOnMisuse) struct DemoAppTests {
  private let demoPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/bindiag/DemoApp.swift").path

  @Test func settingsViewUsesTheFixedPattern() {
    DemoApp.settingsView(DemoApp.Model())
  }

  @Test func inboxViewFailsAtItsAlertMapping() throws {
    let line = try demoLine(containing: #"mappedToBool(label: "save-confirmation")"#)
    let writer = try demoLine(containing: "isPresented.wrappedValue = true")
    let path = demoPath
    withKnownIssue {
      DemoApp.inboxView(DemoApp.Model())
    } matching: { issue in
      issue.sourceLocation?.fileID == "bindiag/DemoApp.swift"
        && issue.sourceLocation?.line == writer && issue.sourceLocation?.filePath == path
        && issue.error == nil
        && issue.comments.map(\.rawValue) == [
          "Binding misuse mapped-bool-set-true at bindiag/DemoApp.swift:\(line), written at bindiag/DemoApp.swift:\(writer), label \"save-confirmation\", String?: A Binding<Bool> mapped from an optional was set to true; the write had no effect."
        ]
    }
  }

  @Test(.failsOnMisuse(except: [.unwrappedReadAfterNil]))
  func detailViewFailsOnlyForItsWriteAfterNil() throws {
    let line = try demoLine(containing: #"Binding(unwrapping: selection, label: "message-detail")"#)
    let writer = try demoLine(containing: #"message.wrappedValue = "Lunch on Saturday?""#)
    withKnownIssue {
      DemoApp.detailView(DemoApp.Model())
    } matching: { issue in
      issue.sourceLocation?.fileID == "bindiag/DemoApp.swift"
        && issue.sourceLocation?.line == writer && issue.error == nil
        && issue.comments.count == 1
        && issue.comments[0].rawValue.hasPrefix(
          "Binding misuse unwrapped-write-after-nil at bindiag/DemoApp.swift:\(line), written at bindiag/DemoApp.swift:\(writer), label \"message-detail\""
        )
    }
  }

  @Test(.failsOnMisuse(except: [.elementReadAfterRemoval]))
  func notesViewFailsOnlyForTheKeystrokeAfterDeletion() throws {
    let line = try demoLine(containing: #"Binding(element: 2, in: notes, label: "note-editor")"#)
    let writer = try demoLine(containing: #"editor.wrappedValue = Note(id: 2, text: "Call Ana at 7")"#)
    let model = DemoApp.Model()
    withKnownIssue {
      DemoApp.notesView(model)
    } matching: { issue in
      issue.sourceLocation?.fileID == "bindiag/DemoApp.swift"
        && issue.sourceLocation?.line == writer && issue.error == nil
        && issue.comments.count == 1
        && issue.comments[0].rawValue.hasPrefix(
          "Binding misuse element-write-after-removal at bindiag/DemoApp.swift:\(line), written at bindiag/DemoApp.swift:\(writer), label \"note-editor\""
        )
    }
    #expect(model.notes.value.map(\.text) == ["Buy milk", "Pay rent"])
  }

  @Test func notesViewReadsTheDeletedNoteTwiceAtInfo() {
    let events = expectMisuse(.elementReadAfterRemoval, count: 2) {
      _ = expectMisuse(.elementWriteAfterRemoval, count: 1) {
        DemoApp.notesView(DemoApp.Model())
      }
    }
    #expect(events.map(\.level) == [.info, .info])
    #expect(Set(events.compactMap(\.label)) == ["note-editor"])
  }

  @Test func feedViewMisusesItsBannerTwoThousandTimes() {
    let events = expectMisuse(.mappedBoolSetTrue, count: 2000) {
      DemoApp.feedView(DemoApp.Model())
    }
    #expect(Set(events.compactMap(\.label)) == ["feed-error-banner"])
  }

  @Test func composeViewFailsAtItsConstantSubject() throws {
    let line = try demoLine(containing: #"diagnosed(label: "compose-subject")"#)
    let writer = try demoLine(containing: #"subject.wrappedValue = "Lunch on Friday?""#)
    withKnownIssue {
      DemoApp.composeView(DemoApp.Model())
    } matching: { issue in
      issue.sourceLocation?.fileID == "bindiag/DemoApp.swift"
        && issue.sourceLocation?.line == writer && issue.error == nil
        && issue.comments.count == 1
        && issue.comments[0].rawValue.hasPrefix(
          "Binding misuse write-not-applied at bindiag/DemoApp.swift:\(line), written at bindiag/DemoApp.swift:\(writer), label \"compose-subject\""
        )
    }
  }

  @Test func volumeViewFailsOnceForItsReentrantClamp() throws {
    let line = try demoLine(containing: #"diagnosed(label: "volume-slider")"#)
    let writer = try demoLine(containing: "binding.wrappedValue = 10")
    let model = DemoApp.Model()
    withKnownIssue {
      DemoApp.volumeView(model)
    } matching: { issue in
      issue.sourceLocation?.fileID == "bindiag/DemoApp.swift"
        && issue.sourceLocation?.line == writer && issue.error == nil
        && issue.comments.count == 1
        && issue.comments[0].rawValue.hasPrefix(
          "Binding misuse reentrant-write at bindiag/DemoApp.swift:\(line), written at bindiag/DemoApp.swift:\(writer), label \"volume-slider\""
        )
    }
    #expect(model.volume.value == 10)
  }

  /// The line of DemoApp.swift holding `text`.
  private func demoLine(containing text: String) throws -> Int {
    let lines = try String(contentsOfFile: demoPath, encoding: .utf8).components(separatedBy: "\n")
    return try #require(lines.firstIndex { $0.contains(text) }) + 1
  }
}
