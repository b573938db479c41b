import BindingDiagnostics
import Foundation
import TestSupport
import Testing

/// Where `jq` is installed, if it is.
private let jqPath = ["/usr/bin/jq", "/usr/local/bin/jq"].first {
  FileManager.default.isExecutableFile(atPath: $0)
}

/// Issue 28.11: `.ci/run` fails the run on entries this checkout's programs wrote into the system
/// journal, and only on those. Its selector (`.ci/journal-selector.jq`) is run here on a real
/// journal: `misuse-helper` run from this checkout, the same binary copied outside it (another
/// checkout) and a Python program sending `BINDING_*` fields (an app someone is trying), all
/// through the journald sink or journald's native protocol into a private journald.
@Suite(
  .enabled(if: PrivateJournal.unavailability == nil, "needs a private journald"),
  .enabled(if: jqPath != nil, "needs jq"))
struct CIJournalSelectorTests {
  /// The checkout: the directory above `.build` holding `Package.swift`.
  static func checkout() throws -> String {
    struct NoCheckout: Error {}
    var url = productsDirectory().resolvingSymlinksInPath()
    while url.path != "/" {
      url.deleteLastPathComponent()
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path),
        FileManager.default.fileExists(atPath: url.appendingPathComponent(".ci/run").path)
      {
        return url.path
      }
    }
    throw NoCheckout()
  }

  @Test func theSelectorTakesThisCheckoutsEntriesAndNoOthers() throws {
    let root = try Self.checkout()
    let outside = try temporaryDirectory()
    let copy = outside + "/misuse-helper"
    try FileManager.default.copyItem(
      atPath: productsDirectory().appendingPathComponent("misuse-helper").path, toPath: copy)
    let entry = JournalFieldsEncoder().fields(fixtureEvent(seq: 1, run: "a1a1a1a1a1a1a1a1"))
      .map { (name: $0.name, value: Array($0.value.utf8)) }
    try JournalNativeSender.payload([entry]).write(
      to: URL(fileURLWithPath: outside + "/entry.json"))
    // The sender, then a wait for journald to take the entry in while it still lives.
    try (JournalNativeSender.script
      + "\nimport subprocess\nsubprocess.run(['journalctl', '--sync'], check=True)\n").write(
        toFile: outside + "/app.py", atomically: false, encoding: .utf8)
    // Each program misuses once and sleeps until journald has its entry (so journald could
    // look up its executable), then is ended.
    let script = """
      set -e
      inside=$1 outside=$2 dir=$3
      wait_for() { n=0; until journalctl -q --no-pager "_PID=$1" | grep -q .; do n=$((n+1)); [ $n -lt 400 ]; sleep 0.05; done; }
      BINDING_DIAGNOSTICS=journald "$inside" 1 --then-sleep >/dev/null & a=$!
      BINDING_DIAGNOSTICS=journald "$outside" 1 --then-sleep >/dev/null & b=$!
      wait_for $a; wait_for $b
      kill $a $b; wait $a $b || true
      python3 "$dir/app.py" 0 <"$dir/entry.json" >/dev/null
      journalctl --sync
      echo "$a $b"
      """
    let journal = try PrivateJournal(running: [
      "/bin/sh", "-c", script, "sh", productsDirectory().appendingPathComponent("misuse-helper").path,
      copy, outside,
    ])
    #expect(journal.output.status == 0, "\(journal.output.stderr)")
    let pids = journal.output.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
    try #require(pids.count == 2)
    let exported = try runProduct(
      "/usr/bin/env", ["journalctl", "--no-pager", "-o", "json", "-D", journal.directory])
    // One entry journald could name no program for (the sender had exited): it may be the
    // suite's, so it counts too.
    let anonymous = #"{"MESSAGE":"A misuse.","BINDING_RUN":"b2b2b2b2b2b2b2b2","_PID":"1"}"#
    // Another program whose command line merely names a file of the checkout is not the
    // checkout's (red team: `sudo cat …/Package.swift` failed CI); a command line whose program
    // lies under the checkout is.
    let mentioning = try jsonLine([
      "_EXE": "/usr/bin/sudo", "_CMDLINE": "sudo cat \(root)/Package.swift",
      "MESSAGE": "pam_unix(sudo:session): session opened", "_PID": "2",
    ])
    let launched = try jsonLine([
      "_EXE": "/usr/bin/python3", "_CMDLINE": "\(root)/.build/tool --flag", "_PID": "3",
    ])
    let selected = try runProduct(
      jqPath!, ["-c", "--arg", "root", root, "-f", root + "/.ci/journal-selector.jq"],
      stdin: Data(
        ([exported.stdout + anonymous, mentioning, launched].joined(separator: "\n") + "\n").utf8))
    #expect(selected.status == 0, "\(selected.stderr)")
    let objects = selected.stdout.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
    }
    let selectedPIDs = Set(objects.compactMap { $0["_PID"] as? String })
    #expect(selectedPIDs == [pids[0], "1", "3"], "\(selected.stdout)")
    // Every entry of this checkout's program is taken, its BINDING_* record among them.
    let all = exported.stdout.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
    }
    let inside = all.filter { $0["_PID"] as? String == pids[0] }
    #expect(inside.contains { $0["BINDING_RUN"] != nil })
    #expect(objects.count == inside.count + 2)
    // The other programs did write BINDING_* entries.
    #expect(all.contains { $0["_PID"] as? String == pids[1] && $0["BINDING_RUN"] != nil })
    #expect(all.contains { $0["BINDING_RUN"] as? String == "a1a1a1a1a1a1a1a1" })
  }

  /// One journal entry as `journalctl -o json` prints it.
  private func jsonLine(_ fields: [String: String]) throws -> String {
    let data = try JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
  }
}
