#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The POSIX calls the sinks make, each retrying `EINTR`, looping on partial writes and
/// returning failures as ``SystemError`` values.
package enum FileDescriptorIO {
  /// Writes all of `bytes` to `fd` (`write(2)`): one call unless the kernel takes less.
  static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Void, SystemError> {
    var offset = 0
    return writeAll(fd, bytes, written: &offset)
  }

  /// Writes all of `bytes` to `fd`, counting in `offset` how many bytes reached the file even
  /// when a later call fails (a disk that fills mid-write takes part of the buffer).
  static func writeAll(
    _ fd: Int32, _ bytes: UnsafeRawBufferPointer, written offset: inout Int
  ) -> Result<Void, SystemError> {
    let faults = SystemCallFaults.current
    while offset < bytes.count {
      var count = bytes.count - offset
      switch faults?.next() {
      case .error(let code)?:
        if code == EINTR { continue }
        return .failure(SystemError("write", code: code))
      case .short(let most)?: count = min(count, most)
      case nil: break
      }
      let written = write(fd, bytes.baseAddress! + offset, count)
      if written < 0 {
        if errno == EINTR { continue }
        return .failure(SystemError("write", code: errno))
      }
      offset += written
    }
    return .success(())
  }

  /// Writes all of `bytes` to `fd`.
  static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Result<Void, SystemError> {
    bytes.withUnsafeBytes { writeAll(fd, $0) }
  }

  /// `open(2)` with `flags` and `mode`.
  static func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Result<Int32, SystemError>
  {
    while true {
      let fd = open(path, flags, mode)
      if fd >= 0 { return .success(fd) }
      if errno == EINTR { continue }
      return .failure(SystemError("open", code: errno))
    }
  }

  /// Moves `fd` to the lowest free descriptor from 3 up (close-on-exec), so that an app started
  /// with standard input, output or error closed never gets library files or pipes as its
  /// descriptors 0 to 2 (where every `printf` and warning would land in them).
  static func aboveStandardStreams(_ fd: Int32) -> Int32 {
    guard fd >= 0, fd <= 2 else { return fd }
    let moved = fcntl(fd, F_DUPFD_CLOEXEC, 3)
    guard moved >= 0 else { return fd }
    _ = close(fd)
    return moved
  }

  /// `pipe(2)`, both ends close-on-exec and above the standard streams.
  static func makePipe() -> Result<(read: Int32, write: Int32), SystemError> {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return .failure(SystemError("pipe", code: errno)) }
    let read = aboveStandardStreams(ends[0])
    let write = aboveStandardStreams(ends[1])
    for fd in [read, write] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return .success((read, write))
  }

  /// Sets `O_NONBLOCK` on `fd`.
  static func setNonBlocking(_ fd: Int32) {
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
  }

  /// `fstat(2)`.
  static func status(_ fd: Int32) -> Result<stat, SystemError> {
    var info = stat()
    guard fstat(fd, &info) == 0 else { return .failure(SystemError("fstat", code: errno)) }
    return .success(info)
  }

  /// `stat(2)` without following a final symlink (`lstat`).
  static func linkStatus(_ path: String) -> Result<stat, SystemError> {
    var info = stat()
    guard lstat(path, &info) == 0 else { return .failure(SystemError("lstat", code: errno)) }
    return .success(info)
  }

  /// `flock(2)`, retrying `EINTR`.
  static func lock(_ fd: Int32, _ operation: Int32) -> Result<Void, SystemError> {
    while flock(fd, operation) != 0 {
      if errno == EINTR { continue }
      return .failure(SystemError("flock", code: errno))
    }
    return .success(())
  }

  /// The byte at `offset` (`pread(2)`), or `nil` when there is none or `fd` cannot be read.
  static func byte(_ fd: Int32, at offset: Int) -> UInt8? {
    var byte: UInt8 = 0
    while true {
      let count = pread(fd, &byte, 1, off_t(offset))
      if count == 1 { return byte }
      if count < 0 && errno == EINTR { continue }
      return nil
    }
  }

  /// `fsync(2)`.
  static func sync(_ fd: Int32) -> Result<Void, SystemError> {
    while fsync(fd) != 0 {
      if errno == EINTR { continue }
      return .failure(SystemError("fsync", code: errno))
    }
    return .success(())
  }

  /// `rename(2)`.
  static func renameFile(_ from: String, _ to: String) -> Result<Void, SystemError> {
    guard rename(from, to) == 0 else { return .failure(SystemError("rename", code: errno)) }
    return .success(())
  }

  /// `ftruncate(2)` to `size` bytes.
  static func truncate(_ fd: Int32, to size: Int) -> Result<Void, SystemError> {
    while ftruncate(fd, off_t(size)) != 0 {
      if errno == EINTR { continue }
      return .failure(SystemError("ftruncate", code: errno))
    }
    return .success(())
  }

  /// `unlink(2)`.
  static func unlinkFile(_ path: String) -> Result<Void, SystemError> {
    guard unlink(path) == 0 else { return .failure(SystemError("unlink", code: errno)) }
    return .success(())
  }

  /// The names in directory `path` (`opendir(3)`, `readdir(3)`), `.` and `..` left out.
  /// - Parameter path: The directory.
  /// - Returns: The names, in the directory's order, or the failure of `opendir`.
  package static func directoryEntries(_ path: String) -> Result<[String], SystemError> {
    guard let directory = opendir(path) else {
      return .failure(SystemError("opendir", code: errno))
    }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return .success(names)
  }

  /// `close(2)`; errors are not actionable after the descriptor is gone.
  static func closeFile(_ fd: Int32) {
    _ = close(fd)
  }
}

extension FileDescriptorIO {
  /// Writes all of `bytes` to a pipe or socket without letting `SIGPIPE` kill the process when
  /// the reader has gone: the signal is blocked for this thread during the write, and one that
  /// the write raised is consumed before the mask is restored. The failure comes back as `EPIPE`.
  static func writeAllWithoutSigpipe(_ fd: Int32, _ bytes: [UInt8]) -> Result<Void, SystemError> {
    var block = sigset_t()
    var previous = sigset_t()
    sigemptyset(&block)
    sigaddset(&block, SIGPIPE)
    var pending = sigset_t()
    sigpending(&pending)
    let alreadyPending = sigismember(&pending, SIGPIPE) == 1
    pthread_sigmask(SIG_BLOCK, &block, &previous)
    let result = writeAll(fd, bytes)
    if case .failure(let error) = result, error.code == EPIPE, !alreadyPending {
      #if canImport(Glibc)
        var timeout = timespec(tv_sec: 0, tv_nsec: 0)
        while sigtimedwait(&block, nil, &timeout) < 0 && errno == EINTR {}
      #else
        // Darwin has no sigtimedwait: sigwait returns at once for a pending signal.
        sigpending(&pending)
        if sigismember(&pending, SIGPIPE) == 1 {
          var consumed: Int32 = 0
          _ = sigwait(&block, &consumed)
        }
      #endif
    }
    pthread_sigmask(SIG_SETMASK, &previous, nil)
    return result
  }

  /// Whether `fd` is a pipe or a socket, where a vanished reader raises `SIGPIPE`.
  static func isPipeOrSocket(_ fd: Int32) -> Bool {
    guard case .success(let info) = status(fd) else { return false }
    let type = info.st_mode & S_IFMT
    return type == S_IFIFO || type == S_IFSOCK
  }
}
