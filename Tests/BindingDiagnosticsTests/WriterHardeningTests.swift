import Foundation
import TestSupport
import Testing

/// What an attacker or a careless operator does to an app's diagnostics: close its standard
/// streams, stop it mid-misuse, lock its log file, cut its stderr pipe, hand it a file another
/// user can tamper with.
@Suite struct WriterHardeningTests {
  let helper = productsDirectory().appendingPathComponent("misuse-helper").path
  static let isRoot = getuid() == 0

  @Test func anAppStartedWithItsStandardStreamsClosedNeitherHangsNorLogsIntoTheFile() throws {
    let path = try temporaryDirectory() + "/closed.jsonl"
    let result = try runProduct(
      "/usr/bin/timeout",
      ["30", "/bin/sh", "-c", #"exec "$0" 2000 <&- >&- 2>&-"#, helper],
      environment: [
        "BINDING_DIAGNOSTICS": "jsonl:\(path),stderr", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
      ])
    #expect(result.status == 0)
    // Descriptor 2 stayed closed: the stderr sink's lines did not land in the log file.
    let records = try parseRecords(try lines(ofFile: path))
    #expect(withoutRunRecords(records).count == 2000)
    #expect(records.count == 2001)
    #expect(seqIsContiguousPerRun(records))
  }

  @Test func sigtermWhileThreadsMisuseFlushesEverythingInTime() throws {
    for _ in 0..<5 {
      let path = try temporaryDirectory() + "/busy.jsonl"
      let running = try RunningHelper(
        ["0", "--threads", "2", "--forever"],
        environment: [
          "BINDING_DIAGNOSTICS": "jsonl:\(path)", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
        ], stderr: true)
      running.waitFor("misusing")
      Thread.sleep(forTimeInterval: 0.2)
      running.signal(SIGTERM)
      #expect(running.waitForExit())
      #expect(running.process.terminationStatus == SIGTERM)
      // The queues were written out in time. The app's threads run on meanwhile: a record
      // made once the sink was ending is dropped, counted, and said in one line with the
      // account (every record received and not written is dropped).
      let errors = running.errors()
      let records = try parseRecords(try lines(ofFile: path))
      #expect(!records.isEmpty)
      let seqs = records.compactMap { $0["seq"] as? Int }
      let missing = (seqs.max() ?? 0) - Set(seqs).count
      var dropped = 0
      if !errors.isEmpty {
        let prefix =
          "binding-diagnostics: sink=jsonl path=\(path) written=\(records.count) dropped="
        let suffix = " action=\"process ending; the rest dropped\"\n"
        #expect(errors.hasPrefix(prefix) && errors.hasSuffix(suffix), "\(errors)")
        dropped = Int(errors.dropFirst(prefix.count).dropLast(suffix.count)) ?? -1
        #expect(dropped > 0)
      }
      #expect(missing <= dropped, "\(missing) records missing below the last one written")
    }
  }

  @Test func anotherProcessHoldingTheFilesLockDoesNotStopTheWriter() throws {
    let path = try temporaryDirectory() + "/locked.jsonl"
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    let holder = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    #expect(flock(holder.fileDescriptor, LOCK_SH) == 0)
    defer { try? holder.close() }
    let result = try runProduct(
      "/usr/bin/timeout", ["60", helper, "300"],
      environment: [
        "BINDING_DIAGNOSTICS": "jsonl:\(path)", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
      ])
    #expect(result.status == 0)
    // 300 records and the run's end.
    #expect(try lines(ofFile: path).count == 301)
    #expect(
      result.stderr
        == "binding-diagnostics: sink=jsonl path=\(path) action=\"another process holds the file's lock; writing without it\"\n"
    )
  }

  @Test func aVanishedStderrReaderNeverKillsTheAppWithSigpipe() throws {
    let pipe = Pipe()
    try pipe.fileHandleForReading.close()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: helper)
    process.arguments = ["3"]
    // A bad setting makes the library write a warning line into the dead pipe.
    process.environment = ["BINDING_DIAGNOSTICS_PRIVACY": "bogus"]
    process.standardError = pipe.fileHandleForWriting
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let deadline = Deadline(process, seconds: 60)
    process.waitUntilExit()
    #expect(!deadline.passed, "the helper hung")
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 0)
  }

  @Test(.enabled(if: isRoot, "needs root to create files as another user"))
  func aTornRecordInAFileTheAppCannotReadStillGetsItsNewline() throws {
    let directory = try temporaryDirectory()
    let path = directory + "/writeonly.jsonl"
    let torn = #"{"v":1,"ts":"2026-11-30T04:12:33"#
    try torn.write(toFile: path, atomically: false, encoding: .utf8)
    #expect(chown(path, 65534, 65534) == 0)
    #expect(chmod(path, 0o200) == 0)
    let result = try runProduct(
      "/usr/bin/setpriv",
      ["--reuid=65534", "--regid=65534", "--clear-groups", helper, "2"],
      environment: [
        "BINDING_DIAGNOSTICS": "jsonl:\(path)", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
      ])
    #expect(result.status == 0, "\(result.stderr)")
    let all = try lines(ofFile: path)
    #expect(all.first == torn)
    // Two records and the run-end.
    #expect(
      try parseRecords(Array(all.dropFirst())).compactMap { $0["seq"] as? Int } == [1, 2, 3])
  }

  @Test func aFileEveryUserCanWriteIsUsedAndSaidOnce() throws {
    let path = try temporaryDirectory() + "/open.jsonl"
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    #expect(chmod(path, 0o666) == 0)
    let result = try runProduct(
      helper, ["2"],
      environment: [
        "BINDING_DIAGNOSTICS": "jsonl:\(path)", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
      ])
    #expect(result.status == 0)
    #expect(
      result.stderr
        == "binding-diagnostics: sink=jsonl path=\(path) action=\"writable by every user: anyone can forge or delete its records\"\n"
    )
    // Two records and the run-end.
    #expect(try lines(ofFile: path).count == 3)
  }

  @Test(.enabled(if: isRoot, "needs root to make a symlink owned by another user"))
  func aDirectorySymlinkPlantedByAnotherUserIsRefused() throws {
    let directory = try temporaryDirectory()
    let target = try temporaryDirectory()
    let link = directory + "/logs"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    #expect(lchown(link, 65534, 65534) == 0)
    let result = try runProduct(
      helper, ["1"],
      environment: [
        "BINDING_DIAGNOSTICS": "jsonl:\(link)/app.jsonl", "BINDING_DIAGNOSTICS_RATE_LIMIT": "off",
      ])
    #expect(result.status == 0)
    #expect(!FileManager.default.fileExists(atPath: target + "/app.jsonl"))
    #expect(
      result.stderr.contains("a symlink of uid 65534 in the path refused"), "\(result.stderr)")
  }
}
