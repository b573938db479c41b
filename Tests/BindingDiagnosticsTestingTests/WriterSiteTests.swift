import BindingDiagnostics
import BindingDiagnosticsTesting
import Testing

#if canImport(SwiftUI)
  import SwiftUI
#endif

@Suite struct WriterSiteTests {
  @Test(arguments: [
    ("/src/app/Sources/InboxKit/InboxModel.swift", "InboxKit/InboxModel.swift"),
    ("/src/app/Sources/InboxKit/Models/InboxModel.swift", "InboxKit/InboxModel.swift"),
    ("/src/app/Tests/InboxKitTests/InboxTests.swift", "InboxKitTests/InboxTests.swift"),
    ("/home/me/Sources/Tests/App/Sources/Kit/A.swift", "Kit/A.swift"),
    ("/xcode/MyApp/ContentView.swift", "MyApp/ContentView.swift"),
    ("main.swift", "main.swift"),
  ])
  func aPathIsNamedInFileIDStyle(path: String, fileID: String) {
    #expect(WriterSite.fileID(ofPath: path) == fileID)
  }

  /// The record names the line that wrote, in this file, not the mapping's line in another;
  /// the mapping's site stays `file`/`line`.
  @Test func aRecordNamesTheLineThatWrote() {
    let (events, _) = recordingMisuses {
      let flag = Misuses.flag(label: "writer")
      flag.wrappedValue = true
      let line = #line - 1
      return line
    }
    let line = #line - 4
    #expect(events.map(\.writer) == ["BindingDiagnosticsTestingTests/WriterSiteTests.swift:\(line)"])
    #expect(events.map(\.file) == ["BindingDiagnosticsTestingTests/Misuses.swift"])
  }

  /// A storm of one site walks the stack once per record written: each writer is the same.
  @Test func everyRecordOfAStormNamesTheWriter() {
    let (events, _) = recordingMisuses {
      let flag = Misuses.flag(label: "storm")
      for _ in 0..<100 { flag.wrappedValue = true }
    }
    let line = #line - 2
    #expect(events.count == 100)
    #expect(
      Set(events.compactMap(\.writer))
        == ["BindingDiagnosticsTestingTests/WriterSiteTests.swift:\(line)"])
  }
}
