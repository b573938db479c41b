#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether a journald listens on its socket: `sd_journal_sendv` returns 0 even when none
/// does, so the sink asks the socket itself with a `connect(2)`.
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
}
