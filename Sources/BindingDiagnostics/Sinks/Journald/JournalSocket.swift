#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether a journald listens on its socket: `sd_journal_sendv` returns 0 even when none
/// does, so the sink asks the socket itself with a `connect(2)` at start, and checks that the
/// socket file is still there (``exists(_:)``) before each entry.
enum JournalSocket {
  /// journald's native protocol socket.
  static let defaultPath = "/run/systemd/journal/socket"

  /// Connects a datagram socket to `path`; success means a journald is there.
  static func probe(_ path: String) -> Result<Void, SystemError> {
    #if canImport(Glibc)
      let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    #else
      // Darwin has no SOCK_CLOEXEC: the flag is set right after.
      let type = SOCK_DGRAM
    #endif
    let fd: Int32
    switch FileDescriptorIO.makeSocket(AF_UNIX, type) {
    case .success(let made): fd = made
    case .failure(let error): return .failure(error)
    }
    #if !canImport(Glibc)
      FileDescriptorIO.setCloseOnExec(fd)
    #endif
    defer { FileDescriptorIO.closeFile(fd) }
    return FileDescriptorIO.connectSocket(fd, toUnixPath: path)
  }

  /// Whether the socket file is at `path` (`stat(2)`). libsystemd fails silently (returns 0,
  /// the entry lost) when `sendmsg` finds no socket file (`ENOENT`: journald stopped and its
  /// socket removed), so the sender checks this first: one system call, on the sending thread.
  static func exists(_ path: String) -> Result<Void, SystemError> {
    FileDescriptorIO.pathStatus(path).map { _ in () }
  }
}
