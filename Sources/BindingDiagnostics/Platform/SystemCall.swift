/// The kinds of system call the seam (``FileDescriptorIO``) makes: each of its wrappers names
/// one, and in debug and test builds the fault hook (`SystemCallFaults`) keeps one queue of
/// faults per kind.
package enum SystemCall: Sendable, Hashable, CaseIterable {
  /// `open(2)`.
  case open
  /// `read(2)` and `pread(2)`.
  case read
  /// `write(2)`.
  case write
  /// `poll(2)`.
  case poll
  /// `waitpid(2)`.
  case wait
  /// `fstat(2)`, `stat(2)` and `lstat(2)`.
  case status
  /// `fsync(2)`, `ftruncate(2)` and `flock(2)`.
  case sync
  /// `rename(2)`.
  case rename
  /// `unlink(2)`.
  case unlink
  /// `opendir(3)` and `readdir(3)`: reading a directory's entries.
  case directory
  /// `pipe(2)`.
  case pipe
  /// `posix_spawn(3)`.
  case spawn
  /// `socket(2)`.
  case socket
  /// `connect(2)`.
  case connect
  /// `inotify_init1(2)` (Linux only).
  case inotifyInit
  /// `inotify_add_watch(2)` (Linux only).
  case inotifyWatch
  /// `mkdir(2)`.
  case makeDirectory
  /// `ioctl(2)`: a terminal's window size (`TIOCGWINSZ`) and the bytes waiting in a pipe or
  /// socket (`FIONREAD`).
  case ioctl
}
