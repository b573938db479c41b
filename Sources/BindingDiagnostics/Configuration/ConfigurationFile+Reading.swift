#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension ConfigurationFile {
  /// The largest configuration file read: 64 KiB. A larger one is refused whole, so a file of
  /// half a million keys cannot hold up the first misuse while it is parsed and warned about.
  static let maximumBytes = 64 * 1024

  /// The file's bytes, or why it is not obeyed (one line, without the `VARIABLE=path: ` prefix).
  ///
  /// Refused, like OpenSSH refuses a writable `authorized_keys` and sudo a writable `sudoers`:
  /// - a file that every user may write (`chmod o+w`): anyone could turn values public or
  ///   choose where records go;
  /// - a file owned by a user other than the one running (the effective uid) and other than
  ///   root: a root service does not obey a file another user can rewrite;
  /// - anything but a regular file (a FIFO would block), and a file over ``maximumBytes``.
  ///
  /// A group-writable file is obeyed (umask 002 is common with per-user groups). Only the file
  /// is checked, not the directories above it.
  /// - Parameters:
  ///   - path: The file (`BINDING_DIAGNOSTICS_CONFIG`); opened with `open(2)`, checked with
  ///     `fstat(2)` on the open descriptor (no race with a rename), read with `read(2)`.
  ///   - userID: Who runs (`geteuid()`).
  static func read(
    atPath path: String, userID: uid_t = geteuid()
  ) -> Result<[UInt8], EnvironmentConfiguration.FileProblem> {
    typealias Problem = EnvironmentConfiguration.FileProblem
    let descriptor: Int32
    switch FileDescriptorIO.openFile(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) {
    case .success(let opened): descriptor = opened
    case .failure:
      return .failure(Problem.unreadable)
    }
    defer { FileDescriptorIO.closeFile(descriptor) }
    let info: stat
    switch FileDescriptorIO.status(descriptor) {
    case .success(let status): info = status
    case .failure:
      return .failure(Problem.unreadable)
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      return .failure(Problem(description: "not a regular file"))
    }
    let mode = String(info.st_mode & 0o7777, radix: 8)
    if info.st_mode & S_IWOTH != 0 {
      return .failure(
        Problem(description: "writable by every user (mode 0\(mode)); refused: chmod o-w it"))
    }
    if info.st_uid != userID && info.st_uid != 0 {
      return .failure(
        Problem(
          description:
            "owned by uid \(info.st_uid), neither this process's user (uid \(userID)) nor root; refused"
        ))
    }
    let tooLarge = Problem.tooLarge
    guard Int(info.st_size) <= maximumBytes else { return .failure(tooLarge) }
    var bytes = [UInt8](repeating: 0, count: maximumBytes + 1)
    var count = 0
    while count < bytes.count {
      let filled = count
      let result = bytes.withUnsafeMutableBytes { buffer in
        FileDescriptorIO.read(
          descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
      }
      switch result {
      case .success(0):
        bytes.removeSubrange(count...)
        return .success(bytes)
      case .success(let read):
        count += read
      case .failure:
        return .failure(Problem.unreadable)
      }
    }
    return .failure(tooLarge)
  }
}
