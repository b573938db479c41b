import BindingDiagnosticsTesting
import Foundation
import Testing

@Suite struct SourcePathsTests {
  private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

  @Test(arguments: [
    (
      "BindingDiagnosticsTestingFixtures/FixtureViews.swift",
      "Tests/BindingDiagnosticsTestingFixtures/FixtureViews.swift"
    ),
    ("bindiag/DemoApp.swift", "Sources/bindiag/DemoApp.swift"),
    (
      "BindingDiagnostics/MisusePolicy.swift",
      "Sources/BindingDiagnostics/Configuration/MisusePolicy.swift"
    ),
  ])
  func findsAFileOfThePackage(fileID: String, relative: String) {
    let path = SourcePaths.path(of: fileID, anchorFileID: #fileID, anchorPath: #filePath)
    #expect(path == root + "/" + relative)
    #expect(FileManager.default.fileExists(atPath: path))
  }

  @Test func theAnchorsOwnFileIsTheAnchorsPath() {
    #expect(
      SourcePaths.path(of: #fileID, anchorFileID: #fileID, anchorPath: #filePath) == #filePath)
  }

  @Test(arguments: [
    ("OtherApp/ContentView.swift", #filePath),
    ("BindingDiagnostics/NoSuchFile.swift", #filePath),
    ("bindiag/DemoApp.swift", "/nonexistent/package/Tests/T/File.swift"),
  ])
  func anythingElseKeepsTheFileID(fileID: String, anchorPath: String) {
    #expect(
      SourcePaths.path(of: fileID, anchorFileID: "T/File.swift", anchorPath: anchorPath) == fileID)
  }
}
