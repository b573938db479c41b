// `package`: the seam's signatures use the C types (`stat`, `pollfd`, `mode_t`, `pid_t`).
#if canImport(Glibc)
  package import Glibc
#elseif canImport(Darwin)
  package import Darwin
#endif

/// The system-call seam: the POSIX calls a signal can interrupt, each wrapped once here or in
/// an extension file beside it (`FileDescriptorIO+Sockets.swift`, `+Inotify`, `+Directories`,
/// `+Terminal`) for every target. `EINTR` is retried in one place
/// (``retrying(_:_:limit:interrupted:_:)``), partial writes are looped on, and failures come
/// back as ``SystemError`` values; the test hook ``SystemCallFaults`` injects errno values and
/// short transfers into the calls of its task.
package enum FileDescriptorIO {
  /// Calls `body`, one system call given the most bytes it may transfer (`limit`, or fewer
  /// under a ``SystemCallFaults/Fault/short(_:)`` fault), again while a signal interrupts it
  /// (`EINTR`), unless `interrupted` is given: then an interruption returns that. A result
  /// below 0 is a failure of `operation` with `errno`. The one `EINTR` loop of the package;
  /// internal so that the seam's extension files (`FileDescriptorIO+Sockets.swift`, …) use it.
  @inline(__always)
  static func retrying<Value: BinaryInteger>(
    _ operation: String, _ call: SystemCall, limit: Int = 0,
    interrupted: Value? = nil, _ body: (_ limit: Int) -> Value
  ) -> Result<Value, SystemError> {
    #if BINDING_FAULT_INJECTION
      let faults = SystemCallFaults.current
    #endif
    while true {
      var most = limit
      var code: Int32
      #if BINDING_FAULT_INJECTION
        let fault = faults?.next(call)
        if case .interleaved(let action)? = fault {
          SystemCallFaults.$current.withValue(nil) { action() }
        }
        switch fault {
        case .error(let injected)?:
          code = injected
        case .short(let bytes)?:
          most = min(most, bytes)
          fallthrough
        case .asUsual?, .interleaved?, nil:
          let result = body(most)
          if result >= 0 { return .success(result) }
          code = errno
        }
      #else
        let result = body(most)
        if result >= 0 { return .success(result) }
        code = errno
      #endif
      guard code == EINTR else { return .failure(SystemError(operation, code: code)) }
      if let interrupted { return .success(interrupted) }
    }
  }

  /// Writes all of `bytes` to `fd` (`write(2)`): one call unless the kernel takes less.
  /// - Parameters:
  ///   - fd: The descriptor.
  ///   - bytes: What to write.
  /// - Returns: The failure of `write`, when a call failed before all was written.
  package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<
    Void, SystemError
  > {
    var offset = 0
    return writeAll(fd, bytes, written: &offset)
  }

  /// Writes all of `bytes` to `fd`, counting in `offset` how many bytes reached the file even
  /// when a later call fails (a disk that fills mid-write takes part of the buffer).
  static func writeAll(
    _ fd: Int32, _ bytes: UnsafeRawBufferPointer, written offset: inout Int
  ) -> Result<Void, SystemError> {
    while offset < bytes.count {
      let start = offset
      let result = retrying("write", .write, limit: bytes.count - start) {
        write(fd, bytes.baseAddress! + start, $0)
      }
      switch result {
      case .success(let written): offset += written
      case .failure(let error): return .failure(error)
      }
    }
    return .success(())
  }

  /// Writes all of `bytes` to `fd`.
  /// - Parameters:
  ///   - fd: The descriptor.
  ///   - bytes: What to write.
  /// - Returns: The failure of `write`.
  package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Result<Void, SystemError> {
    bytes.withUnsafeBytes { writeAll(fd, $0) }
  }

  /// `read(2)`: up to `buffer.count` bytes.
  /// - Parameters:
  ///   - fd: The descriptor.
  ///   - buffer: Where the bytes go.
  /// - Returns: How many bytes were read (0 at the end of the input), or the failure of `read`
  ///   (`EWOULDBLOCK` for a non-blocking descriptor with nothing to read).
  package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<
    Int, SystemError
  > {
    retrying("read", .read, limit: buffer.count) { systemRead(fd, buffer.baseAddress, $0) }
  }

  /// `pread(2)`: up to `buffer.count` bytes at `offset`, the descriptor's offset left alone.
  /// - Parameters:
  ///   - fd: The descriptor.
  ///   - buffer: Where the bytes go.
  ///   - offset: The file offset of the first byte.
  /// - Returns: How many bytes were read (0 at the end of the file), or the failure of `pread`.
  package static func read(
    _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int
  ) -> Result<Int, SystemError> {
    retrying("pread", .read, limit: buffer.count) {
      pread(fd, buffer.baseAddress, $0, off_t(offset))
    }
  }

  /// `lseek(2)`: moves the descriptor's offset (never interrupted by a signal).
  /// - Parameters:
  ///   - fd: The descriptor.
  ///   - offset: Bytes from `whence`.
  ///   - whence: `SEEK_SET`, `SEEK_CUR` or `SEEK_END`.
  /// - Returns: The new offset from the start of the file, or the failure of `lseek` (`ESPIPE`
  ///   for a pipe or a terminal).
  package static func seek(_ fd: Int32, to offset: Int, from whence: Int32) -> Result<
    Int, SystemError
  > {
    let result = lseek(fd, off_t(offset), whence)
    return result < 0 ? .failure(SystemError("lseek", code: errno)) : .success(Int(result))
  }

  /// `open(2)` with `flags` and `mode`.
  /// - Parameters:
  ///   - path: The file.
  ///   - flags: `O_RDONLY`, `O_CLOEXEC`, ….
  ///   - mode: The mode of a file `O_CREAT` makes.
  /// - Returns: The descriptor, or the failure of `open`.
  package static func openFile(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Result<
    Int32, SystemError
  > {
    retrying("open", .open) { _ in open(path, flags, mode) }
  }

  /// `poll(2)`: waits at most `milliseconds` (-1: no limit) for the events asked in `entries`.
  /// - Parameters:
  ///   - entries: The descriptors and events; their `revents` are set.
  ///   - milliseconds: The longest wait.
  ///   - interruptible: Whether a signal ends the wait early with nothing ready (so that the
  ///     caller looks at what the handler did), rather than waiting again.
  /// - Returns: How many entries are ready (0 when the time ran out), or the failure of `poll`.
  package static func poll(
    _ entries: inout [pollfd], milliseconds: Int32, interruptible: Bool = false
  ) -> Result<Int, SystemError> {
    retrying("poll", .poll, interrupted: interruptible ? 0 : nil) { _ in
      Int(systemPoll(&entries, nfds_t(entries.count), milliseconds))
    }
  }

  /// `poll(2)` on one descriptor, its entry on the caller's stack: nothing allocated, so the
  /// exit hook and a signal handler may call it.
  /// - Parameters:
  ///   - entry: The descriptor and events; its `revents` are set.
  ///   - milliseconds: The longest wait (-1: no limit).
  /// - Returns: 1 when the entry is ready, 0 when the time ran out, or the failure of `poll`.
  package static func poll(_ entry: inout pollfd, milliseconds: Int32) -> Result<Int, SystemError> {
    retrying("poll", .poll) { _ in Int(systemPoll(&entry, 1, milliseconds)) }
  }

  /// `waitpid(2)`: waits for the child `pid` to end.
  /// - Parameter pid: The child.
  /// - Returns: Its raw wait status, or the failure of `waitpid`.
  package static func waitForChild(_ pid: pid_t) -> Result<Int32, SystemError> {
    var status: Int32 = 0
    return retrying("waitpid", .wait) { _ in waitpid(pid, &status, 0) }.map { _ in status }
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
  /// - Returns: The two ends, or the failure of `pipe`.
  package static func makePipe() -> Result<(read: Int32, write: Int32), SystemError> {
    var ends: [Int32] = [-1, -1]
    if case .failure(let error) = retrying("pipe", .pipe, { _ in pipe(&ends) }) {
      return .failure(error)
    }
    let read = aboveStandardStreams(ends[0])
    let write = aboveStandardStreams(ends[1])
    for fd in [read, write] { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return .success((read, write))
  }

  /// Sets `O_NONBLOCK` on `fd` (`fcntl(2)`), or clears it.
  /// - Parameters:
  ///   - fd: The descriptor.
  ///   - nonBlocking: Whether reads and writes on `fd` return at once rather than wait.
  package static func setNonBlocking(_ fd: Int32, _ nonBlocking: Bool = true) {
    let flags = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, nonBlocking ? flags | O_NONBLOCK : flags & ~O_NONBLOCK)
  }

  /// Sets the status flags of `fd` to exactly `flags` (`fcntl(2)` `F_SETFL`).
  /// - Parameters:
  ///   - fd: The descriptor.
  ///   - flags: `O_APPEND`, `O_NONBLOCK`, ….
  package static func setStatusFlags(_ fd: Int32, _ flags: Int32) {
    _ = fcntl(fd, F_SETFL, flags)
  }

  /// Sets close-on-exec on `fd` (`fcntl(2)` `F_SETFD`).
  /// - Parameter fd: The descriptor.
  package static func setCloseOnExec(_ fd: Int32) {
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
  }

  /// `fstat(2)`.
  /// - Parameter fd: The descriptor.
  /// - Returns: What it refers to, or the failure of `fstat`.
  package static func status(_ fd: Int32) -> Result<stat, SystemError> {
    var info = stat()
    return retrying("fstat", .status) { _ in fstat(fd, &info) }.map { _ in info }
  }

  /// `stat(2)`: the file `path` names, following symlinks.
  /// - Parameter path: The file.
  /// - Returns: What it is, or the failure of `stat`.
  package static func pathStatus(_ path: String) -> Result<stat, SystemError> {
    var info = stat()
    return retrying("stat", .status) { _ in stat(path, &info) }.map { _ in info }
  }

  /// `stat(2)` without following a final symlink (`lstat`).
  package static func linkStatus(_ path: String) -> Result<stat, SystemError> {
    var info = stat()
    return retrying("lstat", .status) { _ in lstat(path, &info) }.map { _ in info }
  }

  /// The soft limit on open descriptors (`getrlimit(RLIMIT_NOFILE)`), `Int.max` when unlimited
  /// or unknown.
  static func openFileLimit() -> Int {
    var limit = rlimit()
    #if canImport(Glibc)
      let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
      let resource = RLIMIT_NOFILE
    #endif
    // RLIM_INFINITY is the largest rlim_t: clamped to Int.max.
    guard getrlimit(resource, &limit) == 0 else { return Int.max }
    return Int(clamping: limit.rlim_cur)
  }

  /// `flock(2)`.
  static func lock(_ fd: Int32, _ operation: Int32) -> Result<Void, SystemError> {
    retrying("flock", .sync) { _ in flock(fd, operation) }.map { _ in () }
  }

  /// The byte at `offset` (`pread(2)`), or `nil` when there is none or `fd` cannot be read.
  static func byte(_ fd: Int32, at offset: Int) -> UInt8? {
    var byte: UInt8 = 0
    let count = withUnsafeMutableBytes(of: &byte) { read(fd, into: $0, at: offset) }
    return count == .success(1) ? byte : nil
  }

  /// `fsync(2)`.
  static func sync(_ fd: Int32) -> Result<Void, SystemError> {
    retrying("fsync", .sync) { _ in fsync(fd) }.map { _ in () }
  }

  /// `rename(2)`.
  /// - Parameters:
  ///   - from: The file's path now.
  ///   - to: Its new path (a file there is replaced).
  /// - Returns: The failure of `rename`.
  package static func renameFile(_ from: String, _ to: String) -> Result<Void, SystemError> {
    retrying("rename", .rename) { _ in rename(from, to) }.map { _ in () }
  }

  /// `ftruncate(2)` to `size` bytes.
  static func truncate(_ fd: Int32, to size: Int) -> Result<Void, SystemError> {
    retrying("ftruncate", .sync) { _ in ftruncate(fd, off_t(size)) }.map { _ in () }
  }

  /// `unlink(2)`.
  /// - Parameter path: The file.
  /// - Returns: The failure of `unlink`.
  package static func unlinkFile(_ path: String) -> Result<Void, SystemError> {
    retrying("unlink", .unlink) { _ in unlink(path) }.map { _ in () }
  }

  /// The names in directory `path` (`opendir(3)`, `readdir(3)`), `.` and `..` left out.
  /// - Parameter path: The directory.
  /// - Returns: The names, in the directory's order, or the failure of `opendir` or `readdir`.
  package static func directoryEntries(_ path: String) -> Result<[String], SystemError> {
    var names: [String] = []
    return forEachDirectoryEntry(path) { name, _ in names.append(name) }.map { names }
  }

  /// Hands each entry of directory `path` but `.` and `..` to `body`, one at a time, with its
  /// `d_type` (`DT_REG`, `DT_DIR`, `DT_LNK`, `DT_UNKNOWN`, …): `opendir(3)`, `readdir(3)`. A
  /// directory of many thousand names is never held whole.
  /// - Parameters:
  ///   - path: The directory.
  ///   - body: Called with each name and its type, in the directory's order.
  /// - Returns: The failure of `opendir` (nothing handed over) or of `readdir` (the entries
  ///   before it handed over).
  package static func forEachDirectoryEntry(
    _ path: String, _ body: (_ name: String, _ type: Int32) -> Void
  ) -> Result<Void, SystemError> {
    if let code = injectedError(.directory) { return .failure(SystemError("opendir", code: code)) }
    guard let directory = opendir(path) else {
      return .failure(SystemError("opendir", code: errno))
    }
    defer { closedir(directory) }
    while true {
      errno = 0
      guard let entry = readdir(directory) else {
        return errno == 0 ? .success(()) : .failure(SystemError("readdir", code: errno))
      }
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { body(name, Int32(entry.pointee.d_type)) }
    }
  }

  /// `posix_spawn(3)`: starts `path` with `arguments` (the first its own name) and the
  /// variables `environment`, its standard input read from `input`; the descriptors `closing`
  /// are closed in the child.
  /// - Returns: The child's process id, or the failure of `posix_spawn`.
  package static func spawn(
    _ path: String, arguments: [String], environment: [String: String], input: Int32,
    closing: [Int32]
  ) -> Result<pid_t, SystemError> {
    if let code = injectedError(.spawn) { return .failure(SystemError("posix_spawn", code: code)) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input, 0)
    for fd in closing { posix_spawn_file_actions_addclose(&actions, fd) }
    let argv = arguments.map { $0.withCString { strdup($0) } } + [nil]
    let variables = environment.map { "\($0.key)=\($0.value)".withCString { strdup($0) } } + [nil]
    defer {
      for pointer in argv + variables { free(pointer) }
    }
    var pid = pid_t()
    let result = posix_spawn(&pid, path, &actions, nil, argv, variables)
    guard result == 0 else { return .failure(SystemError("posix_spawn", code: result)) }
    return .success(pid)
  }

  /// The errno a fault of the test hook injects into the next `call`, for a call the seam
  /// does not retry (after running an interleaved action, if that is the fault); always `nil`
  /// in a release build, which has no hook.
  @inline(__always)
  private static func injectedError(_ call: SystemCall) -> Int32? {
    #if BINDING_FAULT_INJECTION
      switch SystemCallFaults.current?.next(call) {
      case .error(let code)?: return code
      case .interleaved(let action)?: SystemCallFaults.$current.withValue(nil) { action() }
      default: break
      }
    #endif
    return nil
  }

  /// `close(2)`, never retried (on Linux the descriptor is gone even when it says `EINTR`);
  /// errors are not actionable after the descriptor is gone.
  /// - Parameter fd: The descriptor.
  package static func closeFile(_ fd: Int32) {
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

  /// The size of the pipe `fd` in bytes (`fcntl(2)` `F_GETPIPE_SZ`); `nil` where it cannot be
  /// asked (not a pipe, not Linux).
  static func pipeSize(_ fd: Int32) -> Int? {
    #if os(Linux)
      let size = fcntl(fd, 1032)  // F_GETPIPE_SZ, which the Glibc module does not import
      return size > 0 ? Int(size) : nil
    #else
      return nil
    #endif
  }

  /// The bytes waiting in the pipe or socket `fd` (`ioctl(2)` `FIONREAD`), or `nil`.
  static func bytesWaiting(_ fd: Int32) -> Int? {
    var waiting: Int32 = 0
    guard case .success = retrying("ioctl", .ioctl, { _ in ioctl(fd, UInt(FIONREAD), &waiting) })
    else { return nil }
    return Int(waiting)
  }

  /// Whether `fd` is a pipe or a socket, where a vanished reader raises `SIGPIPE`.
  static func isPipeOrSocket(_ fd: Int32) -> Bool {
    guard case .success(let info) = status(fd) else { return false }
    let type = info.st_mode & S_IFMT
    return type == S_IFIFO || type == S_IFSOCK
  }
}

/// `read(2)` and `poll(2)`, named apart from the seam's own.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(fd, buffer, count)
}

private func systemPoll(_ entries: UnsafeMutablePointer<pollfd>, _ count: nfds_t, _ timeout: Int32)
  -> Int32
{
  poll(entries, count, timeout)
}
