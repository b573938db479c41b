#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One open log file (always a regular file): its descriptor and the identity (device, inode) it was opened as.
struct LogFile {
  let fd: Int32
  let device: UInt64
  let inode: UInt64
  /// Opened for reading too, so a torn last record can be detected (``endsWithNewline()``).
  let isReadable: Bool
  /// Why other users can tamper with the file (world-writable, or another user's), if they can.
  let exposure: String?

  /// Opens `path` for appending, creating it `0640`, refusing symlinks and whatever is not a
  /// regular file (directories, devices, FIFOs, sockets), and checking the opened file is the one the path names. Another process may
  /// rotate the file between the open and the check; that race is retried, not reported.
  static func open(_ path: String) -> Result<LogFile, SystemError> {
    var attempt = 0
    while true {
      let result = openOnce(path)
      guard case .failure(let error) = result, error.code == EAGAIN, attempt < 20 else {
        return result
      }
      attempt += 1
    }
  }

  private static func openOnce(_ path: String) -> Result<LogFile, SystemError> {
    if let owner = foreignSymlinkOwner(in: path) {
      return .failure(
        SystemError("open (a symlink of uid \(owner) in the path refused)", code: ELOOP))
    }
    if case .success(let info) = FileDescriptorIO.linkStatus(path) {
      let type = info.st_mode & S_IFMT
      if type == S_IFLNK { return .failure(SystemError("open (symlink refused)", code: ELOOP)) }
      if type == S_IFDIR { return .failure(SystemError("open", code: EISDIR)) }
      if type != S_IFREG {
        return .failure(SystemError("open (not a regular file)", code: EINVAL))
      }
    }
    // Read and write, to check the last byte before appending; write-only where the file's
    // permissions allow no more.
    let flags = O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK
    let fd: Int32
    var isReadable = true
    switch FileDescriptorIO.openFile(path, flags | O_RDWR, 0o640) {
    case .success(let opened): fd = FileDescriptorIO.aboveStandardStreams(opened)
    case .failure(let error) where error.code == EACCES:
      isReadable = false
      switch FileDescriptorIO.openFile(path, flags | O_WRONLY, 0o640) {
      case .failure(let error): return .failure(error)
      case .success(let opened): fd = FileDescriptorIO.aboveStandardStreams(opened)
      }
    case .failure(let error): return .failure(error)
    }
    guard case .success(let info) = FileDescriptorIO.status(fd),
      case .success(let named) = FileDescriptorIO.linkStatus(path),
      info.st_dev == named.st_dev, info.st_ino == named.st_ino
    else {
      FileDescriptorIO.closeFile(fd)
      return .failure(SystemError("open (path changed while opening)", code: EAGAIN))
    }
    // Regular files only (a device such as /dev/full, a FIFO or a socket cannot hold records);
    // O_NONBLOCK was for opening, writes block as usual.
    let type = info.st_mode & S_IFMT
    guard type == S_IFREG else {
      FileDescriptorIO.closeFile(fd)
      return .failure(SystemError("open (not a regular file)", code: EINVAL))
    }
    FileDescriptorIO.setStatusFlags(fd, O_APPEND)
    var exposure: String?
    if info.st_mode & S_IWOTH != 0 {
      exposure = "writable by every user: anyone can forge or delete its records"
    } else if info.st_uid != geteuid() && info.st_uid != 0 {
      exposure = "owned by uid \(info.st_uid): that user can read, forge or delete its records"
    }
    return .success(
      LogFile(
        fd: fd, device: UInt64(info.st_dev), inode: UInt64(info.st_ino),
        isReadable: isReadable, exposure: exposure))
  }

  /// The owner of a symlinked directory in `path` that neither root nor this process owns:
  /// another user could point it anywhere, so the file would be created where they chose.
  /// Root's symlinks (`/var/run`, macOS's `/tmp`) are followed.
  private static func foreignSymlinkOwner(in path: String) -> uid_t? {
    var prefix = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/").dropLast() {
      prefix += "/" + component
      guard case .success(let info) = FileDescriptorIO.linkStatus(prefix),
        info.st_mode & S_IFMT == S_IFLNK
      else { continue }
      if info.st_uid != 0 && info.st_uid != geteuid() { return info.st_uid }
    }
    return nil
  }

  /// Whether `path` still names this file (false when moved away or deleted).
  func isStillAt(_ path: String) -> Bool {
    guard case .success(let info) = FileDescriptorIO.linkStatus(path) else { return false }
    return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
  }

  /// The file's current size.
  func size() -> Int {
    guard case .success(let info) = FileDescriptorIO.status(fd) else { return 0 }
    return Int(info.st_size)
  }

  /// Whether a `\n` must go first so the next record is not glued to a torn one: when the last
  /// byte is not `\n` (a write cut short by SIGKILL or ENOSPC). A file that cannot be read
  /// gets the `\n` on the first write after opening whenever it is not empty (a blank line,
  /// which readers skip, at worst).
  func needsNewlineBeforeAppend(firstWrite: Bool) -> Bool {
    guard isReadable else { return firstWrite && size() > 0 }
    return !endsWithNewline()
  }

  /// Whether the file is empty or ends with `\n`: `false` when a write cut short (SIGKILL,
  /// ENOSPC) left half a record, which the next append must not be glued to. Files that cannot
  /// be read count as ending cleanly.
  func endsWithNewline() -> Bool {
    guard isReadable else { return true }
    let size = size()
    guard size > 0 else { return true }
    return FileDescriptorIO.byte(fd, at: size - 1).map { $0 == UInt8(ascii: "\n") } ?? true
  }

  func close() {
    FileDescriptorIO.closeFile(fd)
  }
}
