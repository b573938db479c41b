import Foundation
import TestSupport

/// `bindiag` run on a real pseudo-terminal made by util-linux `script`, sized with `stty`, so
/// `isatty`, `TIOCGWINSZ` and a pager's keyboard behave as for a person. What the terminal shows
/// is recorded chunk by chunk with the time each arrived; keys can be typed while it runs.
final class TerminalSession: @unchecked Sendable {
  // @unchecked: `chunks` is only touched while `lock` is held.
  private let lock = NSLock()
  private var chunks: [(seconds: Double, bytes: Data)] = []
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let reader = DispatchGroup()
  private let started = Date()

  /// Starts `bindiag arguments` (or another `product` of the package) on a `columns`×`rows`
  /// terminal. `redirections` are shell
  /// redirections added to the command (`< fifo`, `> out.json`) for the streams that must not
  /// be the terminal. The environment is the tests' own less anything that changes how
  /// `bindiag` writes (`COLUMNS`, `LINES`, `NO_COLOR`, `PAGER`, `LESS`), with `TERM` set and
  /// times in UTC; `environment` adds to it.
  init(
    _ arguments: [String], columns: Int = 80, rows: Int = 24, redirections: String = "",
    environment: [String: String] = [:], product: String = "bindiag"
  ) throws {
    let binary = productsDirectory().appendingPathComponent(product).path
    let command =
      "stty cols \(columns) rows \(rows) && exec "
      + ([binary] + arguments).map(TerminalSession.quote).joined(separator: " ")
      + (redirections.isEmpty ? "" : " " + redirections)
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    process.arguments = ["-q", "-f", "-e", "-c", command, "/dev/null"]
    var merged = ProcessInfo.processInfo.environment
    for key in ["COLUMNS", "LINES", "NO_COLOR", "PAGER", "LESS", "LV"] { merged[key] = nil }
    for key in merged.keys where key.hasPrefix("BINDING_DIAGNOSTICS") { merged[key] = nil }
    merged["TERM"] = "xterm-256color"
    merged["TZ"] = "UTC"
    merged.merge(environment) { $1 }
    process.environment = merged
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let handle = output.fileHandleForReading
    // A thread of its own, not Dispatch's global queue: a block blocked in read(2) there holds
    // one of as few workers as there are processors (see `runProduct`).
    reader.enter()
    Thread { [self] in
      while true {
        let data = handle.availableData
        if data.isEmpty { break }
        let seconds = Date().timeIntervalSince(started)
        lock.withLock { chunks.append((seconds, data)) }
      }
      reader.leave()
    }.start()
  }

  /// Everything shown so far, the terminal's CRLF turned back into LF.
  var text: String {
    lock.withLock {
      String(decoding: chunks.reduce(Data()) { $0 + $1.bytes }, as: UTF8.self)
        .replacingOccurrences(of: "\r\n", with: "\n")
    }
  }

  /// Each chunk as it arrived: seconds since the start and its text.
  var timedChunks: [(seconds: Double, text: String)] {
    lock.withLock { chunks.map { ($0.seconds, String(decoding: $0.bytes, as: UTF8.self)) } }
  }

  /// Waits until the terminal shows `needle`; `false` after `timeout` seconds.
  func waitFor(_ needle: String, timeout: Double = 20) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if text.contains(needle) { return true }
      Thread.sleep(forTimeInterval: 0.02)
    }
    return false
  }

  /// Seconds since the session started, on the clock of ``timedChunks``.
  var elapsed: Double { Date().timeIntervalSince(started) }

  /// Everything shown so far exactly as written, carriage returns and escapes included.
  var raw: String {
    lock.withLock { String(decoding: chunks.reduce(Data()) { $0 + $1.bytes }, as: UTF8.self) }
  }

  /// Types `keys`.
  func type(_ keys: String) {
    input.fileHandleForWriting.write(Data(keys.utf8))
  }

  /// Waits for the command to end (killing it after `timeout` seconds) and returns its exit
  /// status, or `nil` when it had to be killed.
  func finish(timeout: Double = 60) -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    let killed = process.isRunning
    if killed { process.terminate() }
    process.waitUntilExit()
    try? input.fileHandleForWriting.close()
    reader.wait()
    return killed ? nil : process.terminationStatus
  }

  /// `text` as one shell word.
  static func quote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
