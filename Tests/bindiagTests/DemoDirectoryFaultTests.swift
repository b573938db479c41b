import BindingDiagnostics
import Foundation
import TestSupport
import Testing

@testable import bindiag

#if canImport(Glibc)
  import Glibc
#endif

/// `demo --dir`'s directory (`mkdir(2)`) through the system-call seam: an interrupted call is
/// made again; a failed one ends the demo with its error, before anything runs.
@Suite struct DemoDirectoryFaultTests {
  /// The error of `result`, `nil` when it succeeded.
  static func error(_ result: Result<Void, SystemError>) -> SystemError? {
    guard case .failure(let error) = result else { return nil }
    return error
  }

  @Test func anInterruptedMkdirIsMadeAgain() throws {
    let path = try temporaryDirectory() + "/demo"
    let faults = SystemCallFaults([.makeDirectory: [.error(EINTR)]])
    let made = SystemCallFaults.$current.withValue(faults) {
      FileDescriptorIO.makeDirectory(path, 0o750)
    }
    #expect(faults.remaining == [])
    #expect(throws: Never.self) { try made.get() }
    var isDirectory: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory))
    #expect(isDirectory.boolValue)
    let again = FileDescriptorIO.makeDirectory(path, 0o750)
    #expect(Self.error(again) == SystemError("mkdir", code: EEXIST))
  }

  @Test func aFailedMkdirEndsTheDemoWithItsError() throws {
    let path = try temporaryDirectory() + "/demo"
    let faults = SystemCallFaults([.makeDirectory: [.error(EACCES)]])
    let made = SystemCallFaults.$current.withValue(faults) {
      FileDescriptorIO.makeDirectory(path, 0o750)
    }
    #expect(faults.remaining == [])
    #expect(Self.error(made) == SystemError("mkdir", code: EACCES))
    // The demo itself: it stops at the error (exit 1) and makes nothing.
    let demoFaults = SystemCallFaults([.makeDirectory: [.error(EACCES)]])
    let status = SystemCallFaults.$current.withValue(demoFaults) {
      DemoCommand.run(DemoOptions(directory: path))
    }
    #expect(demoFaults.remaining == [])
    #expect(status == ExitCode.failure)
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  /// The error's text, from the built `bindiag`, for a directory whose parent is missing.
  @Test func aDirectoryThatCannotBeMadeIsTheDemosError() throws {
    let path = try temporaryDirectory() + "/missing/demo"
    let result = try bindiag("demo", "--dir", path)
    #expect(result.status == 1)
    #expect(result.stdout == "")
    #expect(result.stderr == "Error: cannot create '\(path)': No such file or directory\n")
  }
}
