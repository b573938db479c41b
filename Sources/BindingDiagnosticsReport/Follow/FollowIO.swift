import BindingDiagnostics

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The POSIX and inotify calls `follow` makes, through the system-call seam
/// (`FileDescriptorIO`) where a signal can interrupt them; failures come back as
/// ``SystemError`` values.
enum FollowIO {
  /// A file's identity: its device and inode.
  struct Identity: Hashable {
    var device: UInt64
    var inode: UInt64

    init(_ info: stat) {
      device = UInt64(truncatingIfNeeded: info.st_dev)
      inode = UInt64(truncatingIfNeeded: info.st_ino)
    }
  }

  /// `open(2)` for reading, close-on-exec; the file must not be a directory (`fstat`). The open
  /// never waits (`O_NONBLOCK`, cleared once open): a FIFO with no writer would otherwise hold
  /// `open` until one came, deaf to SIGINT and SIGTERM.
  static func openForReading(_ path: String) -> Result<(fd: Int32, info: stat), SystemError> {
    let fd: Int32
    switch FileDescriptorIO.openFile(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) {
    case .success(let opened): fd = opened
    case .failure(let error): return .failure(error)
    }
    FileDescriptorIO.setNonBlocking(fd, false)
    let info: stat
    switch status(fd) {
    case .success(let got): info = got
    case .failure(let error):
      closeFile(fd)
      return .failure(error)
    }
    guard info.st_mode & S_IFMT != S_IFDIR else {
      closeFile(fd)
      return .failure(SystemError("open", code: EISDIR))
    }
    return .success((fd, info))
  }

  /// `fstat(2)`.
  static func status(_ fd: Int32) -> Result<stat, SystemError> {
    FileDescriptorIO.status(fd)
  }

  /// `close(2)`; nothing to do about an error once the descriptor is gone.
  static func closeFile(_ fd: Int32) {
    FileDescriptorIO.closeFile(fd)
  }

  /// `stat(2)`: the file `path` names, following symlinks as `tail -F` does.
  static func pathStatus(_ path: String) -> Result<stat, SystemError> {
    FileDescriptorIO.pathStatus(path)
  }

  /// Hands each name in directory `path` but `.` and `..` to `body` (`opendir(3)`,
  /// `readdir(3)`), one at a time: a directory of many thousand names is never held whole.
  /// Nothing is handed over when it cannot be opened.
  static func forEachName(in path: String, _ body: (String) -> Void) {
    _ = FileDescriptorIO.forEachDirectoryEntry(path) { name, _ in body(name) }
  }

  /// `pread(2)`: up to `count` bytes at `offset`; 0 at the end of the file.
  static func readAt(
    _ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64
  ) -> Result<Int, SystemError> {
    FileDescriptorIO.read(
      fd, into: UnsafeMutableRawBufferPointer(start: buffer, count: count), at: Int(offset))
  }

  /// `inotify_init1(IN_NONBLOCK | IN_CLOEXEC)`; `ENOSYS` where there is no inotify.
  static func inotifyDescriptor() -> Result<Int32, SystemError> {
    #if canImport(Glibc)
      FileDescriptorIO.makeInotify(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
    #else
      .failure(SystemError("inotify_init1", code: ENOSYS))
    #endif
  }

  /// `inotify_add_watch(2)` on the directory `path` for every change that can touch a followed
  /// file: appends, truncation, creation, renames and deletion.
  static func watchDirectory(_ fd: Int32, _ path: String) -> Result<Void, SystemError> {
    #if canImport(Glibc)
      let mask =
        UInt32(IN_MODIFY) | UInt32(IN_ATTRIB) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_CREATE)
        | UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM) | UInt32(IN_MOVED_TO) | UInt32(IN_ONLYDIR)
      return FileDescriptorIO.addInotifyWatch(fd, path, mask: mask).map { _ in () }
    #else
      return .failure(SystemError("inotify_add_watch", code: ENOSYS))
    #endif
  }

  /// Reads and discards everything a non-blocking descriptor holds (inotify events, wake-up
  /// bytes): `follow` only needs to know that something happened.
  static func discardPending(_ fd: Int32) {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let got = buffer.withUnsafeMutableBytes { FileDescriptorIO.read(fd, into: $0) }
      guard case .success(let count) = got, count > 0 else { return }
    }
  }

  /// `poll(2)` for input on `fds`, at most `milliseconds` (-1: no limit). An interrupting
  /// signal ends the wait early with nothing ready, so the caller looks again.
  /// - Returns: Which descriptors are readable (or hung up), in the order given.
  static func waitReadable(_ fds: [Int32], milliseconds: Int32) -> Result<[Bool], SystemError> {
    var entries = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    return FileDescriptorIO.poll(&entries, milliseconds: milliseconds, interruptible: true).map {
      _ in entries.map { $0.revents != 0 }
    }
  }

  /// `pipe(2)`, both ends close-on-exec and then made non-blocking (`fcntl`).
  static func makePipe() -> Result<(read: Int32, write: Int32), SystemError> {
    FileDescriptorIO.makePipe().map { ends in
      for end in [ends.read, ends.write] { FileDescriptorIO.setStatusFlags(end, O_NONBLOCK) }
      return ends
    }
  }

  /// `pthread_sigmask(SIG_UNBLOCK)` for `signals` on the calling thread (and the threads it
  /// starts later): a parent may have started this process with them blocked.
  static func unblock(_ signals: [Int32]) -> Result<Void, SystemError> {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in signals { sigaddset(&set, signal) }
    let result = pthread_sigmask(SIG_UNBLOCK, &set, nil)
    guard result == 0 else { return .failure(SystemError("pthread_sigmask", code: result)) }
    return .success(())
  }

  /// `sigaction(2)`: runs `handler` for `signal` once, then restores the default action
  /// (`SA_RESETHAND`), so a second signal acts as if no handler had been installed.
  static func handleOnce(
    _ signal: Int32, _ handler: @convention(c) (Int32) -> Void
  ) -> Result<Void, SystemError> {
    var action = sigaction()
    #if canImport(Glibc)
      action.__sigaction_handler.sa_handler = handler
    #else
      action.__sigaction_u.__sa_handler = handler
    #endif
    sigemptyset(&action.sa_mask)
    action.sa_flags = Int32(SA_RESTART) | Int32(bitPattern: UInt32(SA_RESETHAND))
    guard sigaction(signal, &action, nil) == 0 else {
      return .failure(SystemError("sigaction", code: errno))
    }
    return .success(())
  }
}
