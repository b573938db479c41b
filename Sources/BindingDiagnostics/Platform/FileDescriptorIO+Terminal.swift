// `package`: the signature uses `winsize`.
#if canImport(Glibc)
  package import Glibc
#elseif canImport(Darwin)
  package import Darwin
#endif

extension FileDescriptorIO {
  /// The window size of the terminal on `fd` (`ioctl(2)` `TIOCGWINSZ`).
  /// - Parameter fd: The descriptor.
  /// - Returns: Its columns and rows (0 where the terminal does not say), or the failure of
  ///   `ioctl` (`ENOTTY` when `fd` is not a terminal).
  package static func windowSize(_ fd: Int32) -> Result<winsize, SystemError> {
    var size = winsize()
    return retrying("ioctl", .ioctl) { _ in ioctl(fd, UInt(TIOCGWINSZ), &size) }.map { _ in size }
  }
}
