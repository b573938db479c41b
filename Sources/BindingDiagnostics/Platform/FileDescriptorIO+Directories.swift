// `package`: the signature uses `mode_t`.
#if canImport(Glibc)
  package import Glibc
#elseif canImport(Darwin)
  package import Darwin
#endif

extension FileDescriptorIO {
  /// `mkdir(2)`: makes the directory `path` with `mode` (less the umask).
  /// - Parameters:
  ///   - path: The new directory.
  ///   - mode: Its permissions, `0o750`, ….
  /// - Returns: The failure of `mkdir` (`EEXIST` when `path` exists).
  package static func makeDirectory(_ path: String, _ mode: mode_t) -> Result<Void, SystemError> {
    retrying("mkdir", .makeDirectory) { _ in mkdir(path, mode) }.map { _ in () }
  }
}
