// inotify is Linux's: elsewhere the callers (`follow`) answer `ENOSYS` and poll.
#if canImport(Glibc)
  import Glibc

  extension FileDescriptorIO {
    /// `inotify_init1(2)`.
    /// - Parameter flags: `IN_NONBLOCK`, `IN_CLOEXEC`.
    /// - Returns: The inotify descriptor, or the failure of `inotify_init1`.
    package static func makeInotify(_ flags: Int32) -> Result<Int32, SystemError> {
      retrying("inotify_init1", .inotifyInit) { _ in inotify_init1(flags) }
    }

    /// `inotify_add_watch(2)`: reports the events `mask` asks for on `path` to `fd`.
    /// - Parameters:
    ///   - fd: The inotify descriptor.
    ///   - path: The file or directory to watch.
    ///   - mask: `IN_MODIFY`, `IN_CREATE`, `IN_ONLYDIR`, ….
    /// - Returns: The watch descriptor, or the failure of `inotify_add_watch`.
    package static func addInotifyWatch(_ fd: Int32, _ path: String, mask: UInt32) -> Result<
      Int32, SystemError
    > {
      retrying("inotify_add_watch", .inotifyWatch) { _ in inotify_add_watch(fd, path, mask) }
    }
  }
#endif
