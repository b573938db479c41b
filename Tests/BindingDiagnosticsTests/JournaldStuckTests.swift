import Foundation
import TestSupport
import Testing

/// Whether this test process may make a mount namespace (root with `unshare`), where a fake
/// journald can take over `/run/systemd/journal/socket` without touching the real one.
let canShadowJournal: Bool = {
  guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
    return false
  }
  return (try? runProduct("/usr/bin/unshare", ["-m", "true"]).status) == 0
}()

/// Runs `misuse-helper` in a private mount namespace whose journald socket is a datagram socket
/// that accepts entries and never reads them: journald stuck, its queue full.
func runAgainstStuckJournald(_ arguments: [String], environment: [String: String]) throws
  -> ProcessOutput
{
  let directory = try temporaryDirectory()
  let helper = productsDirectory().appendingPathComponent("misuse-helper").path
  let script = """
    set -e
    mount -t tmpfs tmpfs /run/systemd/journal
    python3 -c 'import socket, time
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind("/run/systemd/journal/socket")
    open("\(directory)/ready", "w").close()
    time.sleep(120)' &
    server=$!
    while [ ! -e "\(directory)/ready" ]; do sleep 0.05; done
    status=0
    timeout 60 "$0" "$@" || status=$?
    kill $server
    exit $status
    """
  return try runProduct(
    "/usr/bin/unshare", ["-m", "/bin/sh", "-c", script, helper] + arguments,
    environment: environment)
}

@Suite(.enabled(if: canShadowJournal, "needs root and unshare(1) for a private mount namespace"))
struct JournaldStuckTests {
  @Test func aJournaldThatNeverReadsNeverBlocksTheApp() throws {
    let started = Date()
    let result = try runAgainstStuckJournald(
      ["20000"],
      environment: [
        "BINDING_DIAGNOSTICS": "journald", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
      ])
    let elapsed = Date().timeIntervalSince(started)
    // `timeout` exits 124 when the app hung; the app must finish on its own.
    #expect(result.status == 0, "exit \(result.status) after \(elapsed) s: \(result.stderr)")
    let lines = result.stderr.split(separator: "\n").map(String.init)
    #expect(
      lines.filter { $0.hasPrefix("binding-diagnostics: sink=journald queue=8192 action=\"queue full, dropping records\"") }.count == 1,
      "\(result.stderr)")
    let slow = try #require(lines.first { $0.contains("journald did not take") }, "\(result.stderr)")
    // Everything is accounted for: sent + queued + dropped = 20 000.
    let numbers = slow.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    // "did not take Q queued entries within 1.0 s (sent S, dropped D so far)"
    try #require(numbers.count >= 5, "\(slow)")
    let queued = numbers[0]
    let sent = numbers[numbers.count - 2]
    let dropped = numbers[numbers.count - 1]
    #expect(queued + sent + dropped == 20_000, "\(slow)")
    #expect(dropped > 0)
  }
}
