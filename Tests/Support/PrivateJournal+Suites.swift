import Foundation
public import Testing

extension PrivateJournal {
  /// Set (to `1`) in a test process that ``runSuite(_:)`` started against a private journald.
  public static let insideVariable = "BINDING_DIAGNOSTICS_TESTS_IN_PRIVATE_JOURNAL"

  /// Whether this test process runs against a private journald, started by ``runSuite(_:)``:
  /// suites that send through the journald sink in the test process run only here, so what
  /// they send never reaches the machine's journal.
  public static let isInside = ProcessInfo.processInfo.environment[insideVariable] == "1"

  /// Why a suite that sends through the journald sink is skipped outside a private journald.
  public static let insideOnly: Comment =
    "sends to journald from the test process: runs in a child test process against a private journald"

  /// Whether this process can start such a suite with ``runSuite(_:)``: not already inside a
  /// private journald, and one can be made (root, `unshare`, `systemd-journald`).
  public static let canStartSuites = !isInside && unavailability == nil

  /// Why ``canStartSuites`` is false.
  public static let cannotStartSuites: Comment = Comment(
    rawValue: isInside ? "already inside a private journald" : unavailability ?? "")

  /// Runs the Swift Testing suite named `suite` (its type name) of this very test binary in a
  /// child process against a journald of its own (at most two minutes, as every private
  /// journal); the child's entries stay in the journal's ``directory``.
  /// - Parameter suite: The suite's type name, as in `JournaldSinkTests`.
  /// - Returns: The journal, with what the child printed and how it ended.
  /// - Throws: ``Failure`` when the journald does not start; what starting a process throws.
  public static func runSuite(_ suite: String) throws -> PrivateJournal {
    let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    return try PrivateJournal(
      running: [binary, "--testing-library", "swift-testing", "--filter", "\\.\(suite)/"],
      environment: [insideVariable: "1", "NO_COLOR": "1"])
  }
}

extension ProcessOutput {
  /// How many tests a Swift Testing run reported as passed, from its closing line
  /// (`Test run with N tests … passed …`), or `nil` when it did not pass.
  public var swiftTestingPassed: Int? {
    let text = stdout + stderr
    guard
      let line = text.split(separator: "\n").last(where: {
        $0.contains("Test run with ") && $0.contains(" passed ")
      }),
      let range = line.range(of: "Test run with ")
    else { return nil }
    return Int(line[range.upperBound...].prefix { $0.isNumber })
  }
}
