import BindingDiagnostics
import Testing

@testable import bindiag

#if canImport(Glibc)
  import Glibc
#endif

/// The terminal's size (`ioctl(TIOCGWINSZ)`) through the system-call seam, on a real
/// pseudo-terminal: an interrupted call is made again; a failed one is no size, so output is
/// not fitted to a width (as for a pipe).
@Suite struct TerminalSizeFaultTests {
  /// A new pseudo-terminal (the main side, `/dev/ptmx`), 77 columns by 21 rows; closed by the
  /// caller.
  static func terminal() throws -> Int32 {
    let fd = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    try #require(fd >= 0, "/dev/ptmx: errno \(errno)")
    var size = winsize(ws_row: 21, ws_col: 77, ws_xpixel: 0, ws_ypixel: 0)
    try #require(ioctl(fd, UInt(TIOCSWINSZ), &size) == 0, "TIOCSWINSZ: errno \(errno)")
    return fd
  }

  @Test func anInterruptedSizeRequestIsMadeAgain() throws {
    let terminal = try Self.terminal()
    defer { FileDescriptorIO.closeFile(terminal) }
    let faults = SystemCallFaults([.ioctl: [.error(EINTR)]])
    let size = SystemCallFaults.$current.withValue(faults) { Terminal.size(terminal) }
    #expect(faults.remaining == [])
    #expect(size?.columns == 77)
    #expect(size?.rows == 21)
  }

  @Test func aFailedSizeRequestIsItsErrorAndNoSize() throws {
    let terminal = try Self.terminal()
    defer { FileDescriptorIO.closeFile(terminal) }
    let faults = SystemCallFaults([.ioctl: [.error(EIO)]])
    let size = SystemCallFaults.$current.withValue(faults) {
      FileDescriptorIO.windowSize(terminal)
    }
    #expect(faults.remaining == [])
    guard case .failure(let error) = size else {
      Issue.record("a size despite the fault: \(size)")
      return
    }
    #expect(error == SystemError("ioctl", code: EIO))
    let noSize = SystemCallFaults([.ioctl: [.error(EIO)]])
    #expect(SystemCallFaults.$current.withValue(noSize) { Terminal.size(terminal) } == nil)
    #expect(noSize.remaining == [])
    #expect(Terminal.size(terminal)?.columns == 77)
  }
}
