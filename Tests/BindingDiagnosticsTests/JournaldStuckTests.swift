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
      ["20000", "--stats"],
      environment: [
        "BINDING_DIAGNOSTICS": "journald", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
      ])
    let elapsed = Date().timeIntervalSince(started)
    // `timeout` exits 124 when the app hung; the app must finish on its own.
    #expect(result.status == 0, "exit \(result.status) after \(elapsed) s: \(result.stderr)")
    let lines = result.stderr.split(separator: "\n").map(String.init)
    let full =
      #"binding-diagnostics: sink=journald queue=8192 action="queue full, dropping records""#
    #expect(lines.filter { $0 == full }.count == 1, "\(result.stderr)")
    // Everything is accounted for once the app's own flush (bounded) returned.
    let numbers = result.stdout.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
    try #require(numbers.count == 3, "\(result.stdout)")
    #expect(numbers.reduce(0, +) == 20_000, "\(result.stdout)")
    #expect(numbers[1] > 0 && numbers[2] > 0)
  }
}
