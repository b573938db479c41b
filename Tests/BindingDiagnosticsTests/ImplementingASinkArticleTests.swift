import Foundation
import TestSupport
import Testing

/// The example of the "Implementing a sink" article is the code `AppDefinedSinkProcessTests`
/// runs, and it needs nothing but the public API.
@Suite struct ImplementingASinkArticleTests {
  private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  private static let example = root.appendingPathComponent(
    "Tests/Helpers/misuse-helper/BufferedFileSink.swift")
  private static let article = root.appendingPathComponent(
    "Sources/BindingDiagnostics/BindingDiagnostics.docc/ImplementingASink.md")

  /// The article's Swift code blocks, in order.
  private static func codeBlocks(_ text: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line == "```swift" {
        current = []
      } else if let lines = current, line == "```" {
        blocks.append(lines.joined(separator: "\n"))
        current = nil
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  @Test func theArticlesExampleIsTheTestedSinkWordForWord() throws {
    let code = try String(contentsOf: Self.example, encoding: .utf8)
    let blocks = Self.codeBlocks(try String(contentsOf: Self.article, encoding: .utf8))
    let shown = blocks.first { $0.contains("final class BufferedFileSink") }
    #expect(shown == code.trimmingCharacters(in: .newlines))
  }

  @Test func theLandingPageLinksTheArticle() throws {
    let landing = try String(
      contentsOf: Self.root.appendingPathComponent(
        "Sources/BindingDiagnostics/BindingDiagnostics.docc/BindingDiagnostics.md"),
      encoding: .utf8)
    #expect(landing.contains("- <doc:ImplementingASink>"))
  }

  @Test func theExampleCompilesAsAnAppOutsideThePackage() throws {
    // No -package-name: only public API is visible, as to an app that depends on the package.
    let modules = productsDirectory().appendingPathComponent("Modules").path
    let result = try runProduct(
      "/usr/bin/env",
      [
        "swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors", "-module-name",
        "SinkApp", "-I", modules, Self.example.path,
      ], timeout: 300)
    #expect(result.stderr == "")
    #expect(result.status == 0)
  }
}
