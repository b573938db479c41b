import BindingDiagnostics
import BindingDiagnosticsReport
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The calls the system-call seam took over from the report's own code (`rename`, `unlink`,
/// directory reads, `open` and `fstat` of an input, `follow`'s inotify), each failed once
/// through the seam's test hook (``SystemCallFaults``): the failure comes back as a clear error
/// and nothing is lost.
@Suite struct SeamFaultTests {
  /// A baseline file at `path` holding one site, and that baseline.
  static func baseline(at path: String, events: Int) throws -> Baseline {
    let site = SiteKey(kind: "write-dropped", file: "App.swift", line: 7)
    let identity = SiteIdentity(
      kind: "write-dropped", file: "App.swift", function: "body", label: "name")
    let baseline = Baseline(entries: [.init(site: site, identity: identity, events: events)])
    try BaselineFile.write(baseline, to: path).get()
    return baseline
  }

  /// The error of `result`, `nil` when it succeeded.
  static func error<Value>(_ result: Result<Value, SystemError>) -> SystemError? {
    guard case .failure(let error) = result else { return nil }
    return error
  }

  /// The names in `directory`.
  static func names(_ directory: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
  }

  @Test func aFailedRenameKeepsTheOldBaselineAndLeavesNoTemporaryFile() throws {
    let directory = try temporaryDirectory()
    let path = directory + "/baseline.json"
    let old = try Self.baseline(at: path, events: 1)
    let new = Baseline(entries: [])
    let faults = SystemCallFaults([.rename: [.error(EXDEV)]])
    let result = SystemCallFaults.$current.withValue(faults) { BaselineFile.write(new, to: path) }
    #expect(faults.remaining == [])
    #expect(Self.error(result) == SystemError("rename", code: EXDEV))
    #expect(try BaselineFile.read(path: path).get() == old)
    #expect(try Self.names(directory) == ["baseline.json"])
  }

  @Test func aFailedUnlinkSaysSoAndTheFileStays() throws {
    let path = try temporaryDirectory() + "/kept"
    try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
    let faults = SystemCallFaults([.unlink: [.error(EBUSY)]])
    let result = SystemCallFaults.$current.withValue(faults) {
      FileDescriptorIO.unlinkFile(path)
    }
    #expect(faults.remaining == [])
    #expect(Self.error(result) == SystemError("unlink", code: EBUSY))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data([1, 2, 3]))
    #expect(throws: Never.self) { try FileDescriptorIO.unlinkFile(path).get() }
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func aFailedDirectoryReadIsTheJournalListersError() throws {
    let directory = try temporaryDirectory()
    try Data().write(to: URL(fileURLWithPath: directory + "/system.journal"))
    let faults = SystemCallFaults([.directory: [.error(EACCES)]])
    let failed = SystemCallFaults.$current.withValue(faults) {
      JournalReader.journalFiles(in: directory)
    }
    #expect(faults.remaining == [])
    guard case .failure(.call(let error)) = failed else {
      Issue.record("listed despite the fault: \(failed)")
      return
    }
    #expect(error == SystemError("opendir", code: EACCES))
    #expect(try JournalReader.journalFiles(in: directory).get() == [directory + "/system.journal"])
  }

  @Test func aFailedOpenOfAnInputIsTheReadersError() throws {
    let path = try temporaryDirectory() + "/events.jsonl"
    try Data().write(to: URL(fileURLWithPath: path))
    let faults = SystemCallFaults([.open: [.error(EMFILE)]])
    var aggregator = Aggregator()
    let result = SystemCallFaults.$current.withValue(faults) {
      InputReader().read(path: path, into: &aggregator)
    }
    #expect(faults.remaining == [])
    #expect(Self.error(result) == SystemError("open", code: EMFILE))
  }

  @Test func anInterruptedOpenAndStatusOfAnInputAreRetried() throws {
    let path = try temporaryDirectory() + "/events.jsonl"
    try Data().write(to: URL(fileURLWithPath: path))
    let faults = SystemCallFaults([.open: [.error(EINTR)], .status: [.error(EINTR)]])
    var aggregator = Aggregator()
    let result = SystemCallFaults.$current.withValue(faults) {
      InputReader().read(path: path, into: &aggregator)
    }
    #expect(faults.remaining == [])
    #expect(throws: Never.self) { try result.get() }
  }

  @Test func aFailedPipeOrSpawnIsItsError() {
    let pipeFaults = SystemCallFaults([.pipe: [.error(EMFILE)]])
    let pipe = SystemCallFaults.$current.withValue(pipeFaults) { FileDescriptorIO.makePipe() }
    #expect(pipeFaults.remaining == [])
    #expect(Self.error(pipe) == SystemError("pipe", code: EMFILE))
    let spawnFaults = SystemCallFaults([.spawn: [.error(EAGAIN)]])
    let spawned = SystemCallFaults.$current.withValue(spawnFaults) {
      FileDescriptorIO.spawn(
        "/bin/true", arguments: ["/bin/true"], environment: [:], input: 0, closing: [])
    }
    #expect(spawnFaults.remaining == [])
    #expect(Self.error(spawned) == SystemError("posix_spawn", code: EAGAIN))
  }

  #if canImport(Glibc)
    @Test func anInterruptedInotifyIsMadeAgainAndFollowWatches() throws {
      let directory = try temporaryDirectory()
      let faults = SystemCallFaults([.inotifyInit: [.error(EINTR)], .inotifyWatch: [.error(EINTR)]])
      let watcher = SystemCallFaults.$current.withValue(faults) {
        ChangeWatcher(directories: [directory], polling: false)
      }
      #expect(faults.remaining == [])
      #expect(watcher.mode == .inotify)
    }

    /// Without inotify (`EMFILE`: the per-user limit of instances; `ENOSPC`: of watches),
    /// `follow` polls.
    @Test(arguments: [(SystemCall.inotifyInit, EMFILE), (SystemCall.inotifyWatch, ENOSPC)])
    func aRefusedInotifyMakesFollowPoll(call: SystemCall, code: Int32) throws {
      let directory = try temporaryDirectory()
      let faults = SystemCallFaults([call: [.error(code)]])
      let watcher = SystemCallFaults.$current.withValue(faults) {
        ChangeWatcher(directories: [directory], polling: false)
      }
      #expect(faults.remaining == [])
      #expect(watcher.mode == .polling)
      #expect(ChangeWatcher(directories: [directory], polling: false).mode == .inotify)
    }

    @Test func aFailedInotifyCallIsItsError() throws {
      let directory = try temporaryDirectory()
      let flags = Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC)
      let initFaults = SystemCallFaults([.inotifyInit: [.error(EMFILE)]])
      let made = SystemCallFaults.$current.withValue(initFaults) {
        FileDescriptorIO.makeInotify(flags)
      }
      #expect(initFaults.remaining == [])
      #expect(Self.error(made) == SystemError("inotify_init1", code: EMFILE))
      let fd = try FileDescriptorIO.makeInotify(flags).get()
      defer { FileDescriptorIO.closeFile(fd) }
      let watchFaults = SystemCallFaults([.inotifyWatch: [.error(ENOSPC)]])
      let watched = SystemCallFaults.$current.withValue(watchFaults) {
        FileDescriptorIO.addInotifyWatch(fd, directory, mask: UInt32(IN_CREATE))
      }
      #expect(watchFaults.remaining == [])
      #expect(Self.error(watched) == SystemError("inotify_add_watch", code: ENOSPC))
    }
  #endif
}
