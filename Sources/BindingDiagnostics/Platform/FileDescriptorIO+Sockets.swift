#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension FileDescriptorIO {
  /// `socket(2)`.
  /// - Parameters:
  ///   - domain: `AF_UNIX`, ….
  ///   - type: `SOCK_DGRAM`, …, with `SOCK_CLOEXEC` where the system has it.
  ///   - socketProtocol: The protocol, 0 for the domain's own.
  /// - Returns: The socket's descriptor, or the failure of `socket`.
  package static func makeSocket(_ domain: Int32, _ type: Int32, _ socketProtocol: Int32 = 0)
    -> Result<Int32, SystemError>
  {
    retrying("socket", .socket) { _ in socket(domain, type, socketProtocol) }
  }

  /// `connect(2)` of the datagram socket `fd` to the Unix-domain socket at `path`. A datagram
  /// socket's `connect` only sets its peer, so one a signal interrupted is simply made again
  /// (a stream socket's would go on connecting in the background: not for this wrapper).
  /// - Parameters:
  ///   - fd: The socket (`AF_UNIX`, `SOCK_DGRAM`).
  ///   - path: The socket file to send to.
  /// - Returns: The failure of `connect` (`ENAMETOOLONG`, without a call, when `path` does not
  ///   fit a `sockaddr_un`).
  package static func connectSocket(_ fd: Int32, toUnixPath path: String) -> Result<
    Void, SystemError
  > {
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
    return withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
        retrying("connect", .connect) { _ in
          connect(fd, socketAddress, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
      }
    }.map { _ in () }
  }
}
