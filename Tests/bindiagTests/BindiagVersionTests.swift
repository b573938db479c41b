import Foundation
import TestSupport
import Testing

/// `bindiag --version` names the release the changelog describes last.
@Suite struct BindiagVersionTests {
  static let changelog = BindiagReadmeTests.readme.deletingLastPathComponent()
    .appendingPathComponent("CHANGELOG.md")

  @Test func theVersionIsTheChangelogsNewestRelease() throws {
    let text = try String(contentsOf: Self.changelog, encoding: .utf8)
    let heading = text.split(separator: "\n").first { $0.hasPrefix("## ") }
    let newest = try #require(heading).dropFirst(3).split(separator: " ").first.map(String.init)
    let result = try bindiag("--version")
    #expect(result.stdout == "bindiag \(try #require(newest))\n")
    #expect(result.stderr == "")
    #expect(result.status == 0)
  }
}
