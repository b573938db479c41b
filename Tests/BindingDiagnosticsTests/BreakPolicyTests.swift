import Foundation
import TestSupport
import Testing

/// `BINDING_DIAGNOSTICS_POLICY=break`: a real `misuse-helper` stops in a real debugger (gdb in
/// batch mode) at the misuse and goes on when continued; with no debugger it only reports.
@Suite struct BreakPolicyTests {
  private static let gdb = ["/usr/bin/gdb", "/usr/local/bin/gdb"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  @Test func withoutADebuggerAMisuseIsOnlyReported() throws {
    let output = try runProduct(
      "misuse-helper", ["2", "no-debugger"],
      environment: ["BINDING_DIAGNOSTICS_POLICY": "break", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off"])
    #expect(output.status == 0)
    let records = output.stderr.split(separator: "\n").filter { $0.contains(" label=no-debugger ") }
    #expect(records.count == 2)
  }

  @Test(.enabled(if: gdb != nil, "gdb is not installed"))
  func underADebuggerAMisuseStopsThereAndContinues() throws {
    let helper = productsDirectory().appendingPathComponent("misuse-helper").path
    // gdb waits for SIGCHLD, which a test runner's thread may have blocked (the mask is
    // inherited): start it with none blocked, and never for more than two minutes.
    let unblocked =
      "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execvp(sys.argv[1], sys.argv[1:])"
    let output = try runProduct(
      "/usr/bin/env",
      [
        "python3", "-c", unblocked, "timeout", "120", Self.gdb!, "-nx", "-batch",
        // The helper's standard error joins gdb's output, so the order of the two shows.
        "-ex", "run 1 traced 2>&1", "-ex", "bt", "-ex", "continue", helper,
      ],
      environment: ["BINDING_DIAGNOSTICS_POLICY": "break"])
    let lines = output.stdout.split(separator: "\n")
    // The stop: SIGTRAP in the misusing thread, the helper's own frames in the backtrace.
    let stop = try #require(lines.firstIndex { $0.contains("received signal SIGTRAP") })
    let backtrace = lines[stop...].filter { $0.hasPrefix("#") }
    #expect(
      backtrace.contains { $0.contains("/Sources/BindingDiagnostics/Process/Debugger.swift:") })
    #expect(backtrace.contains { $0.contains("/Tests/Helpers/misuse-helper/main.swift:") })
    // The record was written (flushed) before the stop, once.
    let record = try #require(lines.firstIndex { $0.contains(" label=traced ") })
    #expect(record < stop)
    #expect(lines.filter { $0.contains(" label=traced ") }.count == 1)
    // Continuing goes on to a normal exit.
    #expect(
      lines.contains { $0.hasPrefix("[Inferior 1 (process ") && $0.hasSuffix(" exited normally]") })
  }
}
