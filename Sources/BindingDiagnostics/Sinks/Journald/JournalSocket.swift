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
      let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
      // Darwin has no SOCK_CLOEXEC: the flag is set right after.
      let fd = socket(AF_UNIX, SOCK_DGRAM, 0)
      if fd >= 0 { FileDescriptorIO.setCloseOnExec(fd) }
    #endif
    guard fd >= 0 else { return .failure(SystemError("socket", code: errno)) }
    defer { FileDescriptorIO.closeFile(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    #if !canImport(Glibc)
      address.sun_len = UInt8(MemoryLayout<sockaddr_un>.size)
    #endif
    let bytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard bytes.count < capacity else {
      return .failure(SystemError("connect", code: ENAMETOOLONG))
    }
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      buffer.copyBytes(from: bytes)
      buffer[bytes.count] = 0
    }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard result == 0 else { return .failure(SystemError("connect", code: errno)) }
    return .success(())
  }
}
