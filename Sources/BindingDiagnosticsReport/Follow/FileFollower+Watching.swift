extension FileFollower {
  /// Polls `followers` whenever `watcher` sees a change, until `body` returns `false` or `stop`
  /// is requested; after a stop, one last poll hands over what had been written by then, each
  /// file's unfinished last line included (``finish(_:)``).
  /// - Parameters:
  ///   - followers: The files followed.
  ///   - watcher: Waits for changes to them.
  ///   - stop: Ends following when requested.
  ///   - body: Receives each item; returns `false` to stop.
  package static func follow(
    _ followers: [FileFollower], watcher: ChangeWatcher, stop: StopSignal?,
    _ body: (Item) -> Bool
  ) {
    while true {
      for follower in followers {
        guard follower.poll(body) else { return }
      }
      if watcher.wait(stop: stop) {
        for follower in followers {
          guard follower.finish(body) else { return }
        }
        return
      }
    }
  }
}
