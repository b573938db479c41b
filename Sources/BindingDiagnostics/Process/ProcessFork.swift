#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a process made by `fork()` without `exec` must not share with its parent.
///
/// The child has only the thread that forked: the parent's writer and flushing threads are gone,
/// and what they held (queues, locks, the flush pipe) is a copy the child must not use. So the
/// `pthread_atfork` child handler, which runs before `fork()` returns in the child, only does
/// what is safe there: it counts the fork (``generation``) and detaches the inherited flush
/// machinery (``ProcessFlush/detachAfterFork()``), so that a stop signal sent to the child ends
/// the child, never the parent. The child's first misuse then makes a pipeline of its own
/// (``DiagnosticsSystem``): its own run id, `seq` from 1, its own sinks and flush thread.
///
/// A lock another parent thread held at `fork()` stays held in the child for ever, the Swift
/// runtime's included: a thread instantiating generic metadata holds that generic type's cache
/// lock (`_swift_getGenericMetadata` → `ConcurrentReadableHashMap::getOrInsert`). The runtime
/// takes it only for metadata not made yet (a lookup of metadata already made reads without a
/// lock), and `swift_once` takes its lock only for a global not yet initialised. So:
/// - the child handler takes no lock, allocates nothing and instantiates no metadata: every
///   global it touches is initialised by ``register()`` before the handler can run (its
///   `swift_once` calls in a debug build are then one load each), and it only loads, stores
///   and `close(2)`s;
/// - ``register()`` also instantiates, in the parent, the metadata the child's first misuse
///   and its end need and its parent may never have made (``childMetadata``), so that the
///   child's call sites find it made.
/// What the child does afterwards for the app (a misuse's record, its sinks, its threads) is
/// ordinary Swift: it needs no lock a parent thread may hold only as far as the parent made
/// the same metadata before; see ARCHITECTURE.md, "fork without exec".
enum ProcessFork {
  /// Forks between the process that made the process-wide pipeline and this one: 0 there,
  /// 1 in its child, and so on. Written only by the child handler, when the forking thread is
  /// the child's only thread; read by the threads the child starts afterwards.
  nonisolated(unsafe) static var generation = 0

  private static let registered: Bool = pthread_atfork(nil, nil, forkChildHandler) == 0

  /// Metadata a forked child makes that its parent may not have made before the fork, found
  /// under gdb (a debug build, a JSON Lines sink): its first misuse's (``DiagnosticsSystem``'s
  /// pipeline of a forked process: the inherited pipelines it keeps, its lock's result), and its
  /// end's (the `run-end` record's call site, the JSON Lines sink's end of run and its worker's
  /// last record). Kept, so that no optimizer drops its making.
  nonisolated(unsafe) private static var childMetadata: [Any.Type] = []

  /// Registers the child handler (once per process; the registration is inherited by children),
  /// after making what the handler and the child's first misuse use: globals, then metadata.
  static func register() {
    _ = generation
    ProcessFlush.prepareForFork()
    if childMetadata.isEmpty {
      childMetadata = [
        [Diagnostics].self, (Diagnostics, Bool).self,
        CallSite?.self, MisuseEvent?.self, (() -> MisuseEvent).self, (() -> MisuseEvent)?.self,
      ]
      // The tuple `Result`'s `==` makes (unspecialised in a debug build), as the child's sink
      // does when it checks the last byte of a file its parent found empty: fails at once on
      // descriptor -1.
      _ = FileDescriptorIO.byte(-1, at: 0)
    }
    _ = registered
  }
}

/// Runs in the child of every `fork()`, before it returns there: loads, stores and `close(2)`
/// only, on globals ``ProcessFork/register()`` initialised.
private func forkChildHandler() {
  ProcessFork.generation &+= 1
  ProcessFlush.detachAfterFork()
}
