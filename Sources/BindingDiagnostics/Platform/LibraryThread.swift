#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Starts the library's own threads (writers, the flushing thread) with `pthread_create`, not
/// Foundation's `Thread`: Foundation registers a starting thread under a lock of its own, and a
/// process that forks while one of its threads holds that lock leaves it held for ever in the
/// child, so the child could never start a thread through Foundation again. The library's
/// threads touch no such lock.
///
/// Neither may a fork happen while one of them holds a lock of the Swift runtime (the first use
/// of a generic type takes one): the `pthread_atfork` prepare handler waits, for at most
/// ``forkWaitMicroseconds``, until each is blocked waiting for work (``waiting(_:)``).
enum LibraryThread {
  /// The library's threads not blocked waiting for work: a thread leaves (releasing) once it
  /// holds no lock and is about to block, and the `fork()` preparer's sequentially consistent
  /// load of an empty count sees everything those threads did before (``InFlightCount``). A
  /// relaxed count let the preparer see a thread idle before the release of the lock it had
  /// just dropped was visible, on aarch64.
  static let busy = InFlightCount()
  /// The longest a `fork()` waits for the library's threads to be idle.
  static let forkWaitMicroseconds = 100_000

  /// Runs `wait`, a blocking wait for work, with the calling thread counted as idle.
  /// - Parameter wait: The wait (`pthread_cond_wait`, `read(2)`); it must take no lock of the
  ///   Swift runtime (no first use of a generic type).
  /// - Returns: What `wait` returns.
  static func waiting<R>(_ wait: () -> R) -> R {
    busy.leave()
    defer { busy.enter() }
    return wait()
  }

  /// The `pthread_atfork` handlers of the library's threads, registered once per process before
  /// the first thread starts (the registration is inherited by children): before a fork, wait
  /// until they are idle; in the child, which has none of them, count none busy.
  private static let forkHandlersRegistered: Bool =
    pthread_atfork({ LibraryThread.waitUntilIdle() }, nil, { LibraryThread.busy.reset() }) == 0

  /// Before `fork()`: waits until the library's threads are idle, or the bound has passed.
  static func waitUntilIdle() {
    var waited = 0
    while !busy.isEmpty && waited < forkWaitMicroseconds {
      usleep(500)
      waited += 500
    }
  }

  /// What the new thread runs.
  private final class Start {
    let name: String
    let body: () -> Void
    init(name: String, body: @escaping () -> Void) {
      self.name = name
      self.body = body
    }
  }

  /// Runs `body` on a new detached thread named `name` (`pthread_create`, `pthread_detach`,
  /// `pthread_setname_np`).
  /// - Parameters:
  ///   - name: The thread's name, as debuggers and `top -H` show it (cut to 15 bytes on Linux).
  ///   - body: What the thread does; the thread ends when it returns.
  /// - Returns: The failure of `pthread_create`, if it failed.
  @discardableResult
  static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Result<
    Void, SystemError
  > {
    _ = forkHandlersRegistered
    busy.enter()
    let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
    #if canImport(Glibc)
      var thread = pthread_t()
      let result = pthread_create(
        &thread, nil,
        { raw in
          LibraryThread.run(raw!)
          return nil
        }, start)
    #else
      var thread: pthread_t?
      let result = pthread_create(
        &thread, nil,
        { raw in
          LibraryThread.run(raw)
          return nil
        }, start)
    #endif
    guard result == 0 else {
      busy.leave()
      Unmanaged<Start>.fromOpaque(start).release()
      return .failure(SystemError("pthread_create", code: result))
    }
    #if canImport(Glibc)
      pthread_detach(thread)
    #else
      if let thread { pthread_detach(thread) }
    #endif
    return .success(())
  }

  #if canImport(Glibc)
    private typealias SetName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32
    /// glibc's `pthread_setname_np` (RTLD_DEFAULT is a null handle on glibc).
    private static let setNameFunction: SetName? = dlsym(
      nil, "pthread_setname_np"
    ).map { unsafeBitCast($0, to: SetName.self) }
  #endif

  /// The new thread's entry: names it, then runs its body.
  private static func run(_ raw: UnsafeMutableRawPointer) {
    let start = Unmanaged<Start>.fromOpaque(raw).takeRetainedValue()
    #if canImport(Glibc)
      // A GNU extension the Glibc module does not import: found with `dlsym`.
      if let setName = setNameFunction {
        _ = String(start.name.utf8.prefix(15))!.withCString { setName(pthread_self(), $0) }
      }
    #else
      _ = pthread_setname_np(start.name)
    #endif
    start.body()
    busy.leave()
  }
}
