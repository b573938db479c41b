public import Foundation

/// A journald of a test's own, so the suite never writes into the machine's journal: a command
/// runs in a mount namespace where `/run/systemd/journal` holds a fresh `systemd-journald`'s
/// sockets and `/run/log/journal` is a directory the test owns. When the command is done the
/// journald is synced and stopped; its journal files stay in ``directory`` for readers
/// (`journalctl -D`, `bindiag --journal-dir`), and the directory is removed with this value.
public final class PrivateJournal: Sendable {
  /// Where the journal files are: one directory per machine id, as under `/run/log/journal`.
  public let directory: String
  /// What the command printed and how it ended.
  public let output: ProcessOutput

  /// Why a private journal cannot be made here (not root, no `unshare` or journald), or `nil`.
  public static let unavailability: String? = {
    guard getuid() == 0 else { return "needs root (a mount namespace)" }
    guard journald != nil else { return "systemd-journald is not installed" }
    guard let probe = try? runProduct("/usr/bin/env", ["unshare", "-m", "true"]), probe.status == 0
    else { return "unshare cannot make a mount namespace" }
    return nil
  }()

  private static let journald = [
    "/lib/systemd/systemd-journald", "/usr/lib/systemd/systemd-journald",
  ]
  .first { FileManager.default.isExecutableFile(atPath: $0) }

  /// Runs `command` (with `stdin`) against a journald of its own, at most two minutes.
  /// - Parameters:
  ///   - command: The program and its arguments; it writes to `/run/systemd/journal/socket`.
  ///   - stdin: The command's standard input.
  ///   - environment: Variables for the command.
  /// - Throws: ``Failure`` when the journald does not start; what starting a process throws.
  public init(running command: [String], stdin: Data? = nil, environment: [String: String] = [:])
    throws
  {
    if let reason = PrivateJournal.unavailability { throw Failure(message: reason) }
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("private-journal-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    self.directory = directory
    output = try runProduct(
      "/usr/bin/env",
      [
        "timeout", "120", "unshare", "-m", "/bin/sh", "-c", PrivateJournal.script, "sh", directory,
        PrivateJournal.journald!,
      ] + command,
      environment: environment, stdin: stdin)
    if output.status == 70 { throw Failure(message: output.stderr) }
  }

  deinit {
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// Runs a built product (`bindiag`, `misuse-helper`) against a journald of its own, so what
  /// it writes to journald never reaches the machine's journal; where no private journal can be
  /// made (not root), it runs as it is.
  /// - Parameters:
  ///   - product: The product's name.
  ///   - arguments: Its arguments.
  ///   - environment: Variables for it.
  /// - Returns: What it printed and how it ended.
  public static func run(
    _ product: String, _ arguments: [String], environment: [String: String] = [:]
  ) throws -> ProcessOutput {
    guard unavailability == nil else {
      return try runProduct(product, arguments, environment: environment)
    }
    let path = productsDirectory().appendingPathComponent(product).path
    return try PrivateJournal(running: [path] + arguments, environment: environment).output
  }

  /// The journal's entries matching `matches` (`FIELD=value`), as `journalctl -o json --all`
  /// prints them.
  /// - Parameter matches: journalctl matches.
  /// - Returns: One object per entry.
  public func entries(matching matches: [String]) throws -> [[String: Any]] {
    let output = try runProduct(
      "/usr/bin/env",
      ["journalctl", "--no-pager", "--all", "-o", "json", "-D", directory] + matches)
    return output.stdout.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
    }
  }

  /// Why the private journal failed.
  public struct Failure: Error, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    /// The message.
    public var description: String { message }
  }

  /// The namespace's set-up: private `/run/systemd`, `/run/log/journal` bound to the test's
  /// directory, volatile storage only, no forwarding; then the command, a sync, and a stop.
  private static let script = #"""
    set -eu
    dir=$1 journald=$2
    shift 2
    mount -t tmpfs tmpfs /run/systemd
    mkdir -p /run/systemd/journal /run/log
    mount -t tmpfs tmpfs /run/log
    mkdir -p /run/log/journal
    mount --bind "$dir" /run/log/journal
    if [ -d /var/log/journal ]; then mount -t tmpfs tmpfs /var/log/journal; fi
    mount -t tmpfs tmpfs /etc/systemd
    printf '[Journal]\nStorage=volatile\nReadKMsg=no\nRateLimitIntervalSec=0\nForwardToSyslog=no\nForwardToWall=no\nForwardToConsole=no\n' \
      >/etc/systemd/journald.conf
    "$journald" >/dev/null 2>&1 &
    pid=$!
    tries=0
    until [ -S /run/systemd/journal/socket ]; do
      tries=$((tries + 1))
      if [ "$tries" -gt 400 ]; then echo "private journald did not start" >&2; kill "$pid"; exit 70; fi
      sleep 0.05
    done
    # A command that stops or restarts the journald (and stops the one it started) finds it here.
    export BINDING_TEST_JOURNALD_PID="$pid" BINDING_TEST_JOURNALD="$journald"
    status=0
    # Bounded inside as well: the outer `timeout` ends only this shell, and the command would
    # keep the output pipes open.
    timeout 110 "$@" || status=$?
    journalctl --sync >/dev/null 2>&1 || true
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" || true
    exit "$status"
    """#
}

extension JournalNativeSender {
  /// Sends `entries` into a journald of their own, as `uid`; see ``send(_:asUser:)``.
  /// - Parameters:
  ///   - entries: The entries.
  ///   - uid: The user to send as (`nobody` by default) when the test runs as root.
  /// - Returns: The journal, and the uid the entries were sent as.
  public static func sendPrivately(_ entries: [Entry], asUser uid: UInt32 = 65534) throws
    -> (journal: PrivateJournal, uid: UInt32)
  {
    let journal = try PrivateJournal(
      running: ["python3", "-c", script, String(uid)], stdin: try payload(entries))
    guard journal.output.status == 0,
      let sentAs = UInt32(journal.output.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    else {
      throw SenderError(
        message: "journal sender failed (\(journal.output.status)): \(journal.output.stderr)")
    }
    return (journal, sentAs)
  }
}
