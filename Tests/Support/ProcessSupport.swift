public import Foundation

/// What a finished child process printed and how it ended.
public struct ProcessOutput: Sendable {
  /// Everything the process wrote to standard output.
  public var stdout: String
  /// Everything the process wrote to standard error.
  public var stderr: String
  /// The exit status.
  public var status: Int32

  /// What a run wrote and how it ended.
  public init(stdout: String, stderr: String, status: Int32) {
    self.stdout = stdout
    self.stderr = stderr
    self.status = status
  }
}

/// The built products' directory: the one holding this test bundle.
public func productsDirectory() -> URL {
  #if os(macOS)
    // The tests run inside an `.xctest` bundle loaded by Xcode's runner; there is no /proc.
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      return bundle.bundleURL.deletingLastPathComponent()
    }
    return Bundle.main.bundleURL.deletingLastPathComponent()
  #else
    URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
  #endif
}

/// A process that did not end within its time limit: it was killed (`SIGKILL`).
public struct ProcessTimedOut: Error, CustomStringConvertible {
  /// The program.
  public var name: String
  /// The limit, in seconds.
  public var seconds: Double
  /// What it printed on standard error before it was killed.
  public var stderr: String
  /// Says which program hung.
  public var description: String { "\(name) did not end within \(seconds) s: \(stderr)" }
}

/// Kills `process` (`SIGKILL`) unless it ends within `seconds`; call ``Deadline/passed`` after
/// it ended to know whether it was killed. A hang then fails the test instead of stopping CI.
public final class Deadline: @unchecked Sendable {
  private let lock = NSLock()
  private var killed = false
  private let ended = DispatchSemaphore(value: 0)

  /// Starts watching `process` (already running).
  public init(_ process: Process, seconds: Double) {
    let pid = process.processIdentifier
    Thread { [self] in
      if ended.wait(timeout: .now() + seconds) == .timedOut {
        lock.withLock { killed = true }
        kill(pid, SIGKILL)
      }
    }.start()
  }

  /// Stops watching (the process ended) and says whether it had to be killed.
  public var passed: Bool {
    ended.signal()
    return lock.withLock { killed }
  }
}

/// Runs a built product (or any executable path) to completion, in `directory` when given,
/// killing it after `timeout` seconds.
/// - Throws: ``ProcessTimedOut`` when it had to be killed; what starting a process throws.
public func runProduct(
  _ name: String, _ arguments: [String], environment: [String: String] = [:], stdin: Data? = nil,
  directory: String? = nil, timeout: Double = 300
) throws -> ProcessOutput {
  let executable =
    name.hasPrefix("/")
    ? URL(fileURLWithPath: name) : productsDirectory().appendingPathComponent(name)
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
  var merged = ProcessInfo.processInfo.environment
  for key in merged.keys where key.hasPrefix("BINDING_DIAGNOSTICS") { merged[key] = nil }
  merged.merge(environment) { $1 }
  process.environment = merged
  let out = Pipe()
  let err = Pipe()
  let input = Pipe()
  process.standardOutput = out
  process.standardError = err
  process.standardInput = input
  try process.run()
  let deadline = Deadline(process, seconds: timeout)
  if let stdin { input.fileHandleForWriting.write(stdin) }
  try input.fileHandleForWriting.close()
  // Read both pipes fully before waiting, so a chatty child cannot block on a full pipe. Each
  // on a thread of its own: Dispatch's global queue runs as many blocks at once as there are
  // processors and cannot see a block blocked in read(2), so on two cores the reads of two
  // long-running children (a follow, a fleet) starved every other test's reads past its time
  // limit.
  let group = DispatchGroup()
  nonisolated(unsafe) var outData = Data()
  nonisolated(unsafe) var errData = Data()
  group.enter()
  Thread {
    outData = out.fileHandleForReading.readDataToEndOfFile()
    group.leave()
  }.start()
  group.enter()
  Thread {
    errData = err.fileHandleForReading.readDataToEndOfFile()
    group.leave()
  }.start()
  group.wait()
  process.waitUntilExit()
  if deadline.passed {
    throw ProcessTimedOut(
      name: name, seconds: timeout, stderr: String(decoding: errData, as: UTF8.self))
  }
  return ProcessOutput(
    stdout: String(decoding: outData, as: UTF8.self),
    stderr: String(decoding: errData, as: UTF8.self),
    status: process.terminationStatus)
}

/// Starts `count` copies of a product at once and waits for all of them.
public func runConcurrently(
  _ name: String, count: Int, arguments: [String], environment: [String: String]
) throws -> [ProcessOutput] {
  let results = LockedResults(count: count)
  DispatchQueue.concurrentPerform(iterations: count) { index in
    results.set(index, Result { try runProduct(name, arguments, environment: environment) })
  }
  return try results.values.map { try $0.get() }
}

/// Results filled in from several threads.
final class LockedResults: @unchecked Sendable {
  // @unchecked: `storage` is only touched while `lock` is held.
  private let lock = NSLock()
  private var storage: [Result<ProcessOutput, any Error>?]
  init(count: Int) { storage = Array(repeating: nil, count: count) }
  func set(_ index: Int, _ value: Result<ProcessOutput, any Error>) {
    lock.withLock { storage[index] = value }
  }
  var values: [Result<ProcessOutput, any Error>] { lock.withLock { storage.map { $0! } } }
}

/// The lines of a file, without the final empty piece.
public func lines(ofFile path: String) throws -> [String] {
  let text = try String(contentsOfFile: path, encoding: .utf8)
  var lines = text.components(separatedBy: "\n")
  if lines.last == "" { lines.removeLast() }
  return lines
}

/// Writes `text` to a new file under the temporary directory and returns its path.
public func temporaryFile(_ text: String, name: String = "config.json") throws -> String {
  let directory = try temporaryDirectory()
  let path = directory + "/" + name
  try text.write(toFile: path, atomically: true, encoding: .utf8)
  return path
}

/// This test process's directory under the temporary directory, removed when the process exits
/// (set `BINDING_KEEP_TEST_FILES=1` to keep it): a full run makes some hundred megabytes of files.
private let processTemporaryDirectory: String = {
  let path = NSTemporaryDirectory() + "binding-tests-\(getpid())-" + UUID().uuidString
  try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  if ProcessInfo.processInfo.environment["BINDING_KEEP_TEST_FILES"] == nil {
    atexit { try? FileManager.default.removeItem(atPath: processTemporaryDirectory) }
  }
  return path
}()

/// A new, empty directory under the temporary directory (inside this process's own, which is
/// removed when the process exits).
public func temporaryDirectory() throws -> String {
  let path = processTemporaryDirectory + "/" + UUID().uuidString
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}
