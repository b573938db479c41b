import BindingDiagnostics

/// Waits until followed files may have changed: inotify on their directories where the kernel
/// offers it (one watch sees appends, truncation, renames, creation and deletion of every file
/// in a rotation), a fixed interval otherwise.
package final class ChangeWatcher {
  /// How changes are noticed.
  package enum Mode: Sendable, Hashable {
    /// inotify events, with a poll every ``inotifyInterval`` milliseconds as a safety net.
    case inotify
    /// A poll every ``pollingInterval`` milliseconds.
    case polling
  }

  /// The mode in use: inotify unless it was refused or unavailable.
  package let mode: Mode
  private let fd: Int32
  /// Milliseconds between polls without inotify.
  package static let pollingInterval: Int32 = 200
  /// Milliseconds between polls with inotify (for changes it does not report, such as appends
  /// to a file no name links to any more).
  package static let inotifyInterval: Int32 = 1000

  /// Watches `directories`.
  /// - Parameters:
  ///   - directories: The directories holding the followed files.
  ///   - polling: Poll even where inotify works.
  package init(directories: [String], polling: Bool) {
    guard !polling, case .success(let fd) = FollowIO.inotifyDescriptor() else {
      self.fd = -1
      mode = .polling
      return
    }
    for directory in Set(directories) {
      if case .failure = FollowIO.watchDirectory(fd, directory) {
        FollowIO.closeFile(fd)
        self.fd = -1
        mode = .polling
        return
      }
    }
    self.fd = fd
    mode = .inotify
  }

  deinit {
    if fd >= 0 { FollowIO.closeFile(fd) }
  }

  /// Waits for a change, the interval, or a stop request.
  /// - Parameter stop: Ends the wait when requested.
  /// - Returns: Whether a stop was requested.
  package func wait(stop: StopSignal?) -> Bool {
    var fds: [Int32] = []
    if let stop { fds.append(stop.fd) }
    if fd >= 0 { fds.append(fd) }
    let interval = mode == .inotify ? ChangeWatcher.inotifyInterval : ChangeWatcher.pollingInterval
    guard case .success(let ready) = FollowIO.waitReadable(fds, milliseconds: interval) else {
      return stop?.isRequested ?? false
    }
    if fd >= 0, ready.last == true { FollowIO.discardPending(fd) }
    return stop != nil && ready.first == true
  }
}
