import Foundation
import TestSupport
import Testing

/// An app's default standard-error sink, as a person at a terminal and a pipe see it: short
/// compiler-style lines on the terminal (coloured unless `NO_COLOR`), contract logfmt elsewhere.
@Suite struct HumanStandardErrorTests {
  /// `misuse_helper/main.swift:LINE`, where the helper makes its mapping.
  static let site: String = {
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Helpers/misuse-helper/main.swift")
    let lines = (try? String(contentsOf: source, encoding: .utf8))?.split(
      separator: "\n", omittingEmptySubsequences: false)
    let index = lines?.firstIndex { $0.contains("alert.mappedToBool(label: label)") } ?? -1
    return "misuse_helper/main.swift:\(index + 1)"
  }()

  static let text = "a Binding<Bool> mapped from String? was set to true; no effect"

  @Test func aTerminalShowsOneColouredLinePerRecord() throws {
    // 12 misuses under a limit of 1 per minute: one record now, the 11 others folded into one
    // record written at exit.
    let session = try TerminalSession(
      ["12", "save-alert"], environment: ["BINDING_DIAGNOSTICS_RATE_LIMIT": "1/60"],
      product: "misuse-helper")
    #expect(session.finish() == 0)
    let error = "\u{1b}[0;1;31merror:\u{1b}[0m"
    #expect(
      session.text
        == "\(Self.site): \(error) \(Self.text) [mapped-bool-set-true, save-alert]\n"
        + "\(Self.site): \(error) \(Self.text) [mapped-bool-set-true, save-alert] (+10 folded)\n")
  }

  @Test func noColorKeepsTheLinePlain() throws {
    let session = try TerminalSession(
      ["1"], environment: ["NO_COLOR": "1"], product: "misuse-helper")
    #expect(session.finish() == 0)
    #expect(session.text == "\(Self.site): error: \(Self.text) [mapped-bool-set-true]\n")
  }

  @Test func stderrLogfmtKeepsTheContractOnATerminal() throws {
    let session = try TerminalSession(
      ["1"], environment: ["BINDING_DIAGNOSTICS": "stderr:logfmt"], product: "misuse-helper")
    #expect(session.finish() == 0)
    let lines = session.text.split(separator: "\n")
    #expect(lines.count == 2)  // the misuse, then the run's run-end
    #expect(lines.first?.hasPrefix("v=1 ts=") == true)
    #expect(lines.first?.contains(" kind=mapped-bool-set-true ") == true)
    #expect(lines.last?.contains(" kind=run-end ") == true)
  }

  @Test func aPipeGetsTheContractLogfmt() throws {
    let result = try runProduct("misuse-helper", ["1"], environment: ["TERM": "xterm-256color"])
    #expect(result.status == 0)
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 2)  // the misuse, then the run's run-end
    #expect(lines.first?.hasPrefix("v=1 ts=") == true)
    #expect(lines.last?.contains(" kind=run-end ") == true)
  }
}
