import BindingDiagnosticsReport
import Foundation
import TestSupport
import Testing

@Suite struct SourceRootResolverTests {
  @Test func theModuleFolderWinsOverADecoyOfTheSameName() throws {
    let root = try temporaryTree([
      "Sources/App/ContentView.swift", "Sources/Other/ContentView.swift",
      "Sources/App/Views/Detail.swift",
    ])
    let resolved = SourceRootResolver(root: root).resolve([
      "App/ContentView.swift", "Other/ContentView.swift", "App/Detail.swift",
      "Third/ContentView.swift", "App/Gone.swift", "App/ContentView.swift",
    ])
    #expect(
      resolved == [
        "App/ContentView.swift": .resolved("Sources/App/ContentView.swift"),
        "Other/ContentView.swift": .resolved("Sources/Other/ContentView.swift"),
        "App/Detail.swift": .resolved("Sources/App/Views/Detail.swift"),
        "Third/ContentView.swift": .ambiguous([
          "Sources/App/ContentView.swift", "Sources/Other/ContentView.swift",
        ]),
        "App/Gone.swift": .missing,
      ])
  }

  @Test func aLoneFileIsTakenWhateverItsFolderIsCalled() throws {
    // An Xcode target folder need not carry the module's name.
    let root = try temporaryTree(["MyApp iOS/Screens/ContentView.swift"])
    #expect(
      SourceRootResolver(root: root).resolve(["MyApp/ContentView.swift"])
        == ["MyApp/ContentView.swift": .resolved("MyApp iOS/Screens/ContentView.swift")])
  }

  @Test func twoFilesInsideTheModuleFolderAreAmbiguous() throws {
    let root = try temporaryTree(["Sources/App/A/Row.swift", "Sources/App/B/Row.swift"])
    #expect(
      SourceRootResolver(root: root).resolve(["App/Row.swift"])
        == ["App/Row.swift": .ambiguous(["Sources/App/A/Row.swift", "Sources/App/B/Row.swift"])])
  }

  @Test func hiddenFoldersAndSymbolicLinksAreNotSearched() throws {
    let root = try temporaryTree([
      "Sources/App/ContentView.swift", ".build/checkouts/Dep/Sources/App/ContentView.swift",
    ])
    let elsewhere = try temporaryTree(["Sources/App/Detail.swift"])
    try FileManager.default.createSymbolicLink(
      atPath: root + "/Linked", withDestinationPath: elsewhere)
    try FileManager.default.createSymbolicLink(
      atPath: root + "/Sources/Loop", withDestinationPath: root)
    try FileManager.default.createSymbolicLink(
      atPath: root + "/Sources/App/Alias.swift",
      withDestinationPath: elsewhere + "/Sources/App/Detail.swift")
    #expect(
      SourceRootResolver(root: root).resolve([
        "App/ContentView.swift", "App/Detail.swift", "App/Alias.swift",
      ])
        == [
          "App/ContentView.swift": .resolved("Sources/App/ContentView.swift"),
          "App/Detail.swift": .missing,
          "App/Alias.swift": .missing,
        ])
  }
}
